// MCP beyond tools, end to end against the reference server (@modelcontextprotocol/server-everything,
// hosted on 127.0.0.1 by the fixture) and the built app in Chromium, with replayed model turns:
// progress and Stop, log messages, resources (read, template form, attach, follow), prompts,
// elicitation (form three ways, URL mode), sampling approved and refused, and — against the
// project's own test server — a destructive tool that asks first.
import { expect, test, type Page } from "@playwright/test";
import { EVERYTHING_SERVER_NAME, startEverythingServer, type RunningEverythingServer } from "./mcp-server/everything-server.ts";
import { dialogueMessages, startTestServer, TEST_SERVER_NAME } from "./mcp-server/test-server.ts";
import { send } from "./lab-helpers.ts";
import { call, card, connectServer, labOrigin, openWith, turnDone } from "./mcp-helpers.ts";
const dialog = (page: Page) => page.getByTestId("mcp-request-dialog");

let everything: RunningEverythingServer;

test.beforeEach(async () => {
  everything = await startEverythingServer({ allowOrigin: labOrigin });
});

test.afterEach(async () => {
  await everything.stop();
});

async function connect(page: Page, url: string): Promise<void> {
  await connectServer(page, url);
  await expect(page.getByTestId("mcp-server-status")).toContainText("connected");
}

function receivedMethods(): string[] {
  return everything.received().flatMap((message) => ("method" in message ? [message.method] : []));
}

test("progress on the tool card, Stop cancels on the server, and the server's log messages in its panel", async ({ page }) => {
  await openWith(page, "progress", [call("toggle-simulated-logging", {}), "Logging is on.", call("trigger-long-running-operation", { duration: 120, steps: 120 }), "Never reached."]);
  await connect(page, everything.url);
  await expect(page.getByTestId("mcp-server-name")).toContainText(EVERYTHING_SERVER_NAME);
  // Annotations as the server gives them.
  await expect(page.locator('[data-testid=mcp-tool][data-name="echo"]').getByTestId("mcp-tool-hint")).toHaveText(["read-only", "idempotent"]);

  await send(page, "Turn logging on.");
  await turnDone(page, 1);
  await page.getByTestId("mcp-log").locator("summary").click();
  await expect(page.getByTestId("mcp-log-entry").first()).toBeVisible({ timeout: 20_000 });

  await send(page, "Run the long operation.");
  const progress = card(page, "trigger-long-running-operation").getByTestId("tool-progress");
  await expect(progress).toContainText(/\d+ of 120/, { timeout: 20_000 });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/mcp-progress-${width}.png` });
  }
  await page.getByTestId("stop-button").click();
  await expect(card(page, "trigger-long-running-operation")).toHaveAttribute("data-status", "aborted");
  await expect.poll(receivedMethods).toContain("notifications/cancelled");
  const sent = everything.received().find((m) => "method" in m && m.method === "tools/call" && JSON.stringify(m).includes("trigger-long-running-operation")) as unknown as { id: number };
  const cancel = everything.received().find((m) => "method" in m && m.method === "notifications/cancelled") as unknown as { params: { requestId: number } };
  expect(cancel.params.requestId).toBe(sent.id);
  await expect(progress).toHaveCount(0);
});

test("a resource attached to a message is in the prompt, marked as from the server; a template's form reads an address; a prompt is inserted", async ({ page }) => {
  await openWith(page, "resources", ["I read the attached resource.", call("toggle-subscriber-updates", {}), "Updates are on."]);
  await connect(page, everything.url);

  await page.getByTestId("mcp-resources").locator("summary").click();
  const first = page.getByTestId("mcp-resource").first();
  const uri = await first.getAttribute("data-uri");
  await first.getByTestId("mcp-resource-read").click();
  await expect(first.getByTestId("mcp-resource-preview")).not.toBeEmpty();
  await first.getByTestId("mcp-resource-attach").click();
  const input = page.getByTestId("chat-input");
  await expect(input).toHaveValue(new RegExp(`^<mcp-resource server="${EVERYTHING_SERVER_NAME.replace("/", "\\/")}" uri="${uri}">`));
  await input.press("End");
  await input.pressSequentially(" Summarise it.");
  await input.press("Control+End");
  await input.press("Enter");
  await turnDone(page, 1);
  await page.getByTestId("step-item").first().click();
  const marker = page.getByTestId("prompt-view").getByTestId("prompt-mcp-resource");
  await expect(marker).toHaveAttribute("data-server", EVERYTHING_SERVER_NAME);
  await expect(marker).toContainText(`MCP resource from ${EVERYTHING_SERVER_NAME}`);

  // A template: its variables as a form, the address the server's expansion gives, read.
  await page.getByTestId("mcp-templates").locator("summary").click();
  const template = page.locator('[data-testid=mcp-template][data-template="demo://resource/dynamic/text/{resourceId}"]');
  await template.locator('[data-testid=mcp-template-input][data-name="resourceId"]').fill("3");
  await template.getByTestId("mcp-resource-read").click();
  await expect(template.getByTestId("mcp-resource-preview")).toContainText("Resource 3: This is a plaintext resource");

  // Follow a resource, turn the server's simulated updates on: the panel says it changed.
  await first.getByTestId("mcp-resource-follow").click();
  await expect(first.getByTestId("mcp-resource-follow")).toHaveText("Following");
  await send(page, "Turn updates on.");
  await turnDone(page, 2);
  await expect(page.getByTestId("mcp-resource-updated")).toContainText(uri ?? "", { timeout: 20_000 });

  // A prompt with arguments, filled and inserted into the message box.
  await page.getByTestId("mcp-prompts").locator("summary").click();
  const prompt = page.locator('[data-testid=mcp-prompt][data-name="args-prompt"]');
  await prompt.getByTestId("mcp-prompt-insert").click();
  await expect(prompt.getByTestId("mcp-prompt-error")).toContainText("city is required");
  await prompt.locator('[data-testid=mcp-prompt-input][data-name="city"]').fill("Lyon");
  await prompt.getByTestId("mcp-prompt-insert").click();
  await expect(input).toHaveValue("What's weather in Lyon?");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("mcp-panel").screenshot({ path: "test-results/mcp-panel-1440.png" });
  // Narrow, the side column is behind its toggle.
  await page.setViewportSize({ width: 390, height: 900 });
  await page.getByTestId("side-toggle").click();
  await page.getByTestId("mcp-panel").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/mcp-panel-390.png" });
});

test("a tool result's resource links and embedded resource are on its card, opened and attached like a server's resources", async ({ page }) => {
  await openWith(page, "result-resources", [call("get-resource-links", { count: 2 }), "Two links.", call("get-resource-reference", { resourceType: "Text", resourceId: 3 }), "One embedded."]);
  await connect(page, everything.url);

  await send(page, "Link me two resources.");
  await turnDone(page, 1);
  const links = card(page, "get-resource-links").getByTestId("tool-result-resources");
  await links.locator("summary").click();
  await expect(links.locator("summary")).toHaveText("2 resources in the result");
  const text = links.locator('[data-testid=tool-result-resource][data-kind="link"]').filter({ hasText: "Text Resource 2" });
  await text.getByTestId("mcp-resource-read").click();
  await expect(text.getByTestId("mcp-resource-preview")).toContainText("Resource 2: This is a plaintext resource");
  await text.getByTestId("mcp-resource-attach").click();
  const uri = await text.getAttribute("data-uri");
  await expect(page.getByTestId("chat-input")).toHaveValue(new RegExp(`<mcp-resource server="${EVERYTHING_SERVER_NAME}" uri="${uri}"`));
  await page.getByTestId("chat-input").fill("");

  await send(page, "Embed one.");
  await turnDone(page, 2);
  const embedded = card(page, "get-resource-reference").getByTestId("tool-result-resources");
  await embedded.locator("summary").click();
  const item = embedded.locator('[data-testid=tool-result-resource][data-kind="embedded"]');
  await expect(item).toHaveCount(1);
  await item.getByTestId("mcp-resource-read").click();
  await expect(item.getByTestId("mcp-resource-preview")).toContainText("Resource 3: This is a plaintext resource");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await item.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/mcp-result-resources-${width}.png` });
  }
});

test("an elicitation is answered three ways (accept, decline, cancel), and a URL one opens only on the click", async ({ page, context }) => {
  const elicit = call("trigger-elicitation-request", {});
  await openWith(page, "elicitation", [elicit, "Accepted.", elicit, "Declined.", elicit, "Cancelled.", call("trigger-url-elicitation", { url: `${labOrigin}/consent-page` }), "Opened."]);
  await connect(page, everything.url);
  const pages = () => context.pages().length;
  const before = pages();

  await send(page, "Ask me.");
  await expect(dialog(page)).toHaveAttribute("data-kind", "elicit-form");
  await expect(page.getByTestId("mcp-request-server")).toHaveText(EVERYTHING_SERVER_NAME);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/mcp-elicit-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog(page).getByTestId("mcp-elicit-accept").click();
  await expect(page.getByTestId("mcp-elicit-error")).toBeVisible();
  await dialog(page).locator('[data-testid=mcp-elicit-field][data-name="name"] input').fill("Ada Lovelace");
  await dialog(page).locator('[data-testid=mcp-elicit-field][data-name="untitledMultipleSelectEnum"] input').first().check();
  await dialog(page).getByTestId("mcp-elicit-accept").click();
  await turnDone(page, 1);
  await expect(card(page, "trigger-elicitation-request").first()).toContainText("Ada Lovelace");
  // The server's request and the lab's answer are in the call's JSON-RPC trace.
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').first().click();
  const elicitTrace = page.getByTestId("tool-exec-view").getByTestId("tool-trace");
  await expect(elicitTrace).toContainText('"method": "elicitation/create"');
  await expect(elicitTrace).toContainText('"action": "accept"');

  await send(page, "Ask again.");
  await dialog(page).getByTestId("mcp-elicit-decline").click();
  await turnDone(page, 2);
  await expect(card(page, "trigger-elicitation-request").nth(1)).toContainText(/declin/i);

  await send(page, "And again.");
  await expect(dialog(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await turnDone(page, 3);
  await expect(card(page, "trigger-elicitation-request").nth(2)).toContainText(/cancel/i);

  await send(page, "Open the page.");
  await expect(dialog(page)).toHaveAttribute("data-kind", "elicit-url");
  await expect(page.getByTestId("mcp-elicit-url")).toHaveText(`${labOrigin}/consent-page`);
  expect(pages()).toBe(before);
  const opened = context.waitForEvent("page");
  await dialog(page).getByTestId("mcp-elicit-open").click();
  expect((await opened).url()).toContain("/consent-page");
  await turnDone(page, 4);
  await expect(card(page, "trigger-url-elicitation")).toHaveAttribute("data-status", "ok");
});

test("a sampling request is shown; approved it runs as a nested run under the call, refused the tool gets the refusal", async ({ page }) => {
  const sample = call("trigger-sampling-request", { prompt: "Name a colour.", maxTokens: 20 });
  await openWith(page, "sampling", [sample, "Teal.", "The server got its sample.", sample, "The server was refused."]);
  await connect(page, everything.url);

  await send(page, "Let the server sample.");
  await expect(dialog(page)).toHaveAttribute("data-kind", "sampling");
  await expect(dialog(page).getByTestId("mcp-sampling-message")).toContainText("Name a colour.");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/mcp-sampling-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog(page).getByTestId("mcp-sampling-approve").click();
  await turnDone(page, 1);
  const approved = card(page, "trigger-sampling-request").first();
  await expect(approved).toHaveAttribute("data-status", "ok");
  await expect(approved).toContainText("Teal.");
  await expect(approved).toContainText("1 sub-steps");
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').first().click();
  await expect(page.getByTestId("tool-exec-view").getByTestId("tool-trace")).toContainText('"method": "sampling/createMessage"');
  // The nested run's own step, with its prompt (the server's message in it).
  await page.locator('[data-testid=step-item][data-depth="1"]').first().click();
  await expect(page.getByTestId("prompt-view")).toContainText("Name a colour.");

  await send(page, "Again.");
  await dialog(page).getByTestId("mcp-sampling-refuse").click();
  await turnDone(page, 2);
  const refused = card(page, "trigger-sampling-request").nth(1);
  await expect(refused).toContainText("refused");
});

test("a destructive tool asks before it runs: refused it does not run; allowed for the server it runs without asking again", async ({ page }) => {
  const server = await startTestServer({ allowOrigin: labOrigin, annotatedTools: true });
  try {
    const del = call("delete_archive", { archive: "2024" });
    await openWith(page, "destructive", [del, "Not deleted.", del, "Deleted.", del, "Deleted again."]);
    await connect(page, server.url);
    await expect(page.locator('[data-testid=mcp-tool][data-name="delete_archive"]').getByTestId("mcp-tool-hint")).toHaveText(["destructive", "idempotent"]);
    await expect(page.locator('[data-testid=mcp-tool][data-name="list_archive"]').getByTestId("mcp-tool-hint")).toHaveText(["read-only"]);

    await send(page, "Delete the 2024 archive.");
    await expect(dialog(page)).toHaveAttribute("data-kind", "destructive");
    await expect(page.getByTestId("mcp-request-server")).toHaveText(TEST_SERVER_NAME);
    await expect(dialog(page)).toContainText('"archive": "2024"');
    await page.screenshot({ path: "test-results/mcp-destructive-1440.png" });
    await dialog(page).getByTestId("mcp-destructive-refuse").click();
    await turnDone(page, 1);
    await expect(card(page, "delete_archive").first()).toHaveAttribute("data-status", "error");
    expect(server.calls()).not.toContain("delete_archive");

    await send(page, "Delete it, really.");
    await dialog(page).getByTestId("mcp-destructive-dont-ask").check();
    await dialog(page).getByTestId("mcp-destructive-run").click();
    await turnDone(page, 2);
    await expect(card(page, "delete_archive").nth(1)).toContainText("deleted 2024");
    await expect(page.getByTestId("mcp-ask-destructive")).not.toBeChecked();

    await send(page, "Once more.");
    await turnDone(page, 3);
    await expect(card(page, "delete_archive").nth(2)).toContainText("deleted 2024");
    expect(server.calls().filter((name) => name === "delete_archive")).toHaveLength(2);
  } finally {
    await server.stop();
  }
});

test("a prompt's messages go into the conversation as turns in their roles, marked in the chat and the prompt view, and stay in its history", async ({ page }) => {
  const server = await startTestServer({ allowOrigin: labOrigin, dialoguePrompt: true });
  try {
    await openWith(page, "prompt-turns", ["Morning at the Traboules.", "Still Lyon."]);
    await connect(page, server.url);
    await page.getByTestId("mcp-prompts").locator("summary").click();
    const prompt = page.locator('[data-testid=mcp-prompt][data-name="dialogue"]');
    await prompt.locator('[data-testid=mcp-prompt-input][data-name="name"]').fill("Ada");
    await prompt.getByTestId("mcp-prompt-send").click();
    await turnDone(page, 1);

    // In the chat: three turns in the server's roles, each naming the prompt and the server; the message box untouched.
    const given = page.getByTestId("message-mcp-prompt");
    const expected = dialogueMessages("Ada");
    await expect(given).toHaveCount(3);
    for (const [index, message] of expected.entries()) {
      await expect(given.nth(index)).toHaveAttribute("data-role", message.role);
      await expect(given.nth(index)).toContainText(message.text);
      await expect(given.nth(index)).toContainText(`MCP prompt dialogue · ${TEST_SERVER_NAME}`);
    }
    await expect(page.getByTestId("message-user")).toHaveCount(0);
    await expect(page.getByTestId("chat-input")).toHaveValue("");

    // In the debugger: the step's prompt holds each message, marked with its role, prompt and server.
    await page.getByTestId("step-item").first().click();
    const marks = page.getByTestId("prompt-view").getByTestId("prompt-mcp-prompt");
    await expect(marks).toHaveCount(3);
    for (const [index, message] of expected.entries()) {
      await expect(marks.nth(index)).toHaveAttribute("data-role", message.role);
      await expect(marks.nth(index)).toHaveAttribute("data-server", TEST_SERVER_NAME);
      await expect(marks.nth(index)).toContainText(message.text);
    }
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await marks.first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/mcp-prompt-turns-debugger-${width}.png` });
    }

    // The next message's run has them in its history, still marked.
    await page.setViewportSize({ width: 1440, height: 900 });
    await send(page, "And after that?");
    await turnDone(page, 2);
    await expect(given).toHaveCount(3);
    await expect(page.getByTestId("message-user")).toHaveText("And after that?");
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await given.first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/mcp-prompt-turns-chat-${width}.png` });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId("step-item").nth(1).click();
    await expect(page.getByTestId("prompt-view").getByTestId("prompt-mcp-prompt")).toHaveCount(3);
  } finally {
    await server.stop();
  }
});
