// MCP end to end: a real MCP server (the official SDK's McpServer over Streamable HTTP, started
// by this file on 127.0.0.1) and the built app in Chromium. A replayed model turn calls the
// server's tools; results, errors, cancellation and a lost server reach the chat and debugger.
import { expect, test } from "@playwright/test";
import { startTestServer, TEST_SERVER_NAME, type RunningTestServer } from "./mcp-server/test-server.ts";
import { send } from "./lab-helpers.ts";
import { call, card, connectServer as connect, labOrigin, openWith, turnDone } from "./mcp-helpers.ts";

let server: RunningTestServer;

test.beforeEach(async () => {
  server = await startTestServer({ allowOrigin: labOrigin });
});

test.afterEach(async () => {
  await server.stop();
});

test("connects, offers the server's tools beside the built-in ones, and a model turn calls each of them", async ({ page }) => {
  await openWith(page, "each-tool", [
    [
      call("reverse_text", { text: "stressed" }),
      call("weather_report", { city: "Seoul" }),
      call("failing_tool", { reason: "e2e" }),
      call("red_pixel", {}),
      call(`${TEST_SERVER_NAME}__calculator`, { expression: "1+1" }),
    ].join("\n"),
    "All five tools answered.",
  ]);
  // The page is cross-origin isolated (COOP same-origin, COEP credentialless, for threads) and the
  // MCP server is another origin: its connection is a CORS fetch, which isolation leaves as it is.
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  expect(new URL(server.url).origin).not.toBe(new URL(page.url()).origin);
  await connect(page, server.url);
  const status = page.getByTestId("mcp-server-status");
  await expect(status).toHaveText("connected · 6 tools");
  await expect(page.getByTestId("mcp-server-name")).toHaveText(`${TEST_SERVER_NAME} v1.2.3`);

  // Each tool is switchable like a built-in one and marked with its server; the clashing one is prefixed.
  await expect(page.getByTestId("tool-toggle-reverse_text")).toBeChecked();
  const toggle = page.locator("label", { has: page.getByTestId("tool-toggle-reverse_text") });
  await expect(toggle.getByTestId("mcp-tool-origin")).toHaveText(`MCP · ${TEST_SERVER_NAME}`);
  await expect(page.getByTestId(`tool-toggle-${TEST_SERVER_NAME}__calculator`)).toBeVisible();
  await expect(page.getByTestId("tool-toggle-calculator")).toBeVisible();

  await send(page, "Use every tool of the test server.");
  await turnDone(page, 2 - 1);
  await expect(page.getByTestId("message-assistant").first()).toContainText("All five tools answered.");

  // Text as text, structured content as JSON, isError as an error, an image described.
  await expect(card(page, "reverse_text")).toHaveAttribute("data-status", "ok");
  await expect(card(page, "reverse_text")).toContainText("desserts");
  await expect(card(page, "weather_report")).toHaveAttribute("data-status", "ok");
  await expect(card(page, "weather_report")).toContainText('{"city":"Seoul","temperatureC":17.5,"conditions":"light drizzle"}');
  await expect(card(page, "failing_tool")).toHaveAttribute("data-status", "error");
  await expect(card(page, "failing_tool")).toContainText("the archive is locked (e2e)");
  await expect(card(page, "red_pixel")).toHaveAttribute("data-status", "ok");
  await expect(card(page, "red_pixel")).toContainText("[image (image/png, 70 B): shown to the person in the debugger");
  await expect(card(page, `${TEST_SERVER_NAME}__calculator`)).toContainText('the server does not calculate "1+1"');
  expect(server.calls()).toEqual(expect.arrayContaining(["reverse_text", "weather_report", "failing_tool", "red_pixel", "calculator"]));

  // The debugger shows each call's JSON-RPC request and response, and the image.
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
  const executions = page.getByTestId("tool-exec-view");
  const reverse = executions.getByTestId("tool-exec").filter({ hasText: "reverse_text" });
  await expect(reverse.getByTestId("tool-trace-entry")).toHaveCount(2);
  await expect(reverse.getByTestId("tool-trace-entry").first()).toHaveAttribute("data-direction", "sent");
  await expect(reverse.getByTestId("tool-trace-entry").first()).toContainText('"method": "tools/call"');
  await expect(reverse.getByTestId("tool-trace-entry").nth(1)).toContainText('"text": "desserts"');
  const failing = executions.getByTestId("tool-exec").filter({ hasText: "failing_tool" });
  await expect(failing.getByTestId("tool-trace-entry").nth(1)).toContainText('"isError": true');
  const image = executions.getByTestId("tool-exec").filter({ hasText: "red_pixel" }).getByTestId("tool-trace-image");
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  // The Tools tab shows MCP tools in every format, like the built-in ones.
  await page.getByRole("tab", { name: "Tool definitions" }).click();
  await expect(page.getByTestId("tool-def-model")).toContainText('"name": "reverse_text"');
  await expect(page.getByTestId("tool-def-openai")).toContainText('"name": "weather_report"');
  await expect(page.getByTestId("tool-def-anthropic")).toContainText(`"name": "${TEST_SERVER_NAME}__calculator"`);
  await expect(page.getByTestId("tool-def-gemini")).toContainText('"name": "failing_tool"');

  // A tool the server adds while connected (notifications/tools/list_changed) joins at once.
  server.addTool("late_tool");
  await expect(status).toHaveText("connected · 7 tools");
  await expect(page.getByTestId("tool-toggle-late_tool")).toBeVisible();
  await expect(page.getByTestId("mcp-server-notice")).toContainText("added late_tool");
});

test("shown resource and template lists are read again when the server says they changed (notifications/resources/list_changed)", async ({ page }) => {
  const listing = await startTestServer({ allowOrigin: labOrigin, hostile: { hugeResourceChars: 10 } });
  try {
    await openWith(page, "list-changed", ["Nothing to do."]);
    await connect(page, listing.url);
    await expect(page.getByTestId("mcp-server-status")).toContainText("connected");
    const resources = page.getByTestId("mcp-resources");
    await resources.locator("summary").click();
    await expect(resources.locator("summary")).toHaveText("Resources (1)");
    listing.addResource("fresh");
    await expect(resources.locator("summary")).toHaveText("Resources (2)");
    await expect(resources.locator('[data-testid=mcp-resource][data-uri="extra://fresh"]')).toBeVisible();

    // Templates come with the same notification: a shown template list is read again too.
    const templates = page.getByTestId("mcp-templates");
    await templates.locator("summary").click();
    await expect(templates.locator("summary")).toHaveText("Resource templates (0)");
    listing.addResourceTemplate("shelf");
    await expect(templates.locator("summary")).toHaveText("Resource templates (1)");
    await expect(templates.locator('[data-testid=mcp-template][data-template="extra://shelf/{id}"]')).toBeVisible();
  } finally {
    await listing.stop();
  }
});

test("a server's elicitation while none of its tools runs is answered from the dialog and traced in the server's card", async ({ page }) => {
  await openWith(page, "elicit-outside", ["Nothing to do."]);
  await connect(page, server.url);
  await expect(page.getByTestId("mcp-server-status")).toContainText("connected");
  // The server can speak first only once the client opened its stream for that (a GET).
  await expect.poll(() => server.standaloneStreams()).toBeGreaterThan(0);
  const answered = server.elicitOutsideCall("Which colour, outside any call?");
  const dialog = page.getByTestId("mcp-request-dialog");
  await expect(dialog).toHaveAttribute("data-kind", "elicit-form");
  await expect(dialog).toContainText("Which colour, outside any call?");
  await dialog.getByTestId("mcp-elicit-decline").click();
  expect(await answered).toBe("decline");

  const trace = page.getByTestId("mcp-connection-trace");
  await trace.locator("summary").click();
  const entries = trace.getByTestId("tool-trace-entry");
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toHaveAttribute("data-direction", "received");
  await expect(entries.nth(0)).toContainText("elicitation/create");
  await expect(entries.nth(0)).toContainText("Which colour, outside any call?");
  await expect(entries.nth(1)).toHaveAttribute("data-direction", "sent");
  await expect(entries.nth(1)).toContainText('"action": "decline"');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 390) await page.getByTestId("side-toggle").click();
    await trace.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/mcp-connection-trace-${width}.png` });
  }
});

test("a switched-off MCP tool is not offered, and the model calling it is told it does not exist", async ({ page }) => {
  await openWith(page, "switched-off", [call("reverse_text", { text: "abc" }), "It is off."]);
  await connect(page, server.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  await page.getByTestId("tool-toggle-reverse_text").uncheck();
  await send(page, "Reverse abc.");
  await turnDone(page, 1);
  // The parser does not know the tool, so the model is told it does not exist (a parse error).
  await expect(page.locator('[data-testid=step-item][data-status="parse-error"]')).toHaveCount(1);
  await expect(page.getByTestId("message-assistant").first()).toContainText("It is off.");
  expect(server.calls()).not.toContain("reverse_text");
});

test("Stop cancels a slow MCP call, and the server sees the cancellation", async ({ page }) => {
  await openWith(page, "stop", [call("slow_count", { seconds: 300 }), "Never reached."]);
  await connect(page, server.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  await send(page, "Count slowly.");
  await expect.poll(() => server.calls()).toContain("slow_count");
  await page.getByTestId("stop-button").click();

  await expect(card(page, "slow_count")).toHaveAttribute("data-status", "aborted");
  await expect.poll(() => server.cancelled().length).toBe(1);
  await page.locator('[data-testid=step-item][data-status="aborted"], [data-testid=step-item][data-status="tool-calls"]').first().click();
  const entries = page.getByTestId("tool-exec-view").getByTestId("tool-trace-entry");
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(1)).toContainText('"method": "notifications/cancelled"');
  await expect(page.getByTestId("chat-input")).toBeEditable();
});

test("the tool timeout stops a slow MCP call and cancels it on the server", async ({ page }) => {
  await openWith(page, "timeout", [call("slow_count", { seconds: 300 }), "It took too long."]);
  await connect(page, server.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  // A short timeout keeps the test quick; the loop's timer stops the call, not the test.
  await page.getByTestId("setting-tool-timeout").fill("2");
  await send(page, "Count slowly.");
  await turnDone(page, 1);
  await expect(card(page, "slow_count")).toHaveAttribute("data-status", "timeout");
  await expect.poll(() => server.cancelled().length).toBe(1);
  await expect(page.getByTestId("message-assistant").first()).toContainText("It took too long.");
});

test("an old server (HTTP+SSE transport) is connected through the fallback and its tools run", async ({ page }) => {
  const old = await startTestServer({ allowOrigin: labOrigin, transport: "sse" });
  try {
    await openWith(page, "old-sse", [call("reverse_text", { text: "legacy" }), "Done."]);
    await connect(page, old.url);
    await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
    await expect(page.getByTestId("mcp-server")).toContainText("HTTP+SSE (old transport)");
    await send(page, "Reverse legacy.");
    await turnDone(page, 1);
    await expect(card(page, "reverse_text")).toContainText("ycagel");
  } finally {
    await old.stop();
  }
});

test("a server stopped mid-conversation gives a clear error and loses nothing; restarted, it is reconnected", async ({ page }) => {
  await openWith(page, "stopped", [
    call("reverse_text", { text: "first" }),
    "First done.",
    call("reverse_text", { text: "second" }),
    "The server was gone.",
    call("reverse_text", { text: "third" }),
    "Third done.",
  ]);
  await connect(page, server.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  await send(page, "Reverse first.");
  await turnDone(page, 1);
  await expect(card(page, "reverse_text").first()).toContainText("tsrif");

  const port = server.port;
  await server.stop();
  await send(page, "Reverse second.");
  await turnDone(page, 2);
  const failed = card(page, "reverse_text").nth(1);
  await expect(failed).toHaveAttribute("data-status", "error");
  await expect(failed).toContainText(`Nothing answered at ${server.url}`);
  await expect(page.getByTestId("mcp-server-status")).toContainText("disconnected");
  await expect(page.getByTestId("mcp-server-error")).toContainText("Nothing answered");
  // Nothing was lost: the first turn and its result are still there.
  await expect(page.getByTestId("message-user")).toHaveCount(2);
  await expect(card(page, "reverse_text").first()).toContainText("tsrif");
  await expect(page.getByTestId("message-assistant").nth(1)).toContainText("The server was gone.");

  server = await startTestServer({ allowOrigin: labOrigin, port });
  await send(page, "Reverse third.");
  await turnDone(page, 3);
  await expect(card(page, "reverse_text").nth(2)).toHaveAttribute("data-status", "ok");
  await expect(card(page, "reverse_text").nth(2)).toContainText("driht");
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  await expect(page.getByTestId("mcp-server-notice")).toContainText("Reconnected");
});

test("a server that stops during a call fails that call with the reason, not at the timeout", async ({ page }) => {
  await openWith(page, "stopped-mid-call", [call("slow_count", { seconds: 600 }), "The server went away."]);
  await connect(page, server.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  // The tool timeout is far beyond the test's: only the lost server can end the call in time.
  await page.getByTestId("setting-tool-timeout").fill("600");
  await send(page, "Count for ten minutes.");
  await expect.poll(() => server.calls()).toContain("slow_count");
  await server.stop();
  await turnDone(page, 1);
  await expect(card(page, "slow_count")).toHaveAttribute("data-status", "error");
  await expect(card(page, "slow_count")).toContainText("Nothing answered at");
  await expect(page.getByTestId("message-assistant").first()).toContainText("The server went away.");
  await expect(page.getByTestId("mcp-server-status")).toContainText("disconnected");
});

test("a server that was not running is explained, and Reconnect connects it once it runs", async ({ page }) => {
  const { port, url } = server;
  await server.stop();
  await openWith(page, "reconnect", ["Nothing to do."]);
  await connect(page, url);
  await expect(page.getByTestId("mcp-server-error")).toHaveAttribute("data-kind", "unreachable");
  await expect(page.getByTestId("mcp-server-error")).toContainText(`Nothing answered at ${url}`);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("not connected");

  server = await startTestServer({ allowOrigin: labOrigin, port });
  await page.getByTestId("mcp-reconnect").click();
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  await expect(page.getByTestId("mcp-server-error")).toHaveCount(0);
});

test("a server that does not allow the lab's origin gets the CORS explanation, naming the headers to send", async ({ page }) => {
  const closed = await startTestServer({ allowOrigin: null });
  try {
    await openWith(page, "cors", ["Nothing to do."]);
    await connect(page, closed.url);
    const error = page.getByTestId("mcp-server-error");
    await expect(error).toHaveAttribute("data-kind", "cors");
    await expect(error).toContainText(`Access-Control-Allow-Origin: ${labOrigin}`);
    await expect(error).toContainText("Mcp-Session-Id, Mcp-Protocol-Version");
    await expect(error).toContainText("Access-Control-Expose-Headers: Mcp-Session-Id");
    await expect(page.getByTestId("mcp-server-status")).toHaveText("not connected");
  } finally {
    await closed.stop();
  }
});

test("a server that needs a token says so; with the token it connects, the token is masked in the debugger and not kept unless asked", async ({ page }) => {
  const guarded = await startTestServer({ allowOrigin: labOrigin, token: "sk-e2e-0123456789" });
  try {
    await openWith(page, "token", [call("reverse_text", { text: "sk-e2e-0123456789" }), "Done."]);
    await connect(page, guarded.url);
    await expect(page.getByTestId("mcp-server-error")).toHaveAttribute("data-kind", "unauthorized");
    await expect(page.getByTestId("mcp-server-error")).toContainText("Authorization: Bearer <token>");

    await connect(page, guarded.url, "Authorization: Bearer sk-e2e-0123456789");
    await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
    await expect(page.getByTestId("mcp-servers").getByTestId("mcp-server")).toHaveCount(1);
    await send(page, "Reverse my token.");
    await turnDone(page, 1);
    await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
    const trace = page.getByTestId("tool-exec-view").getByTestId("tool-trace");
    await expect(trace).toContainText("Authorization: Bearer ••••");
    await expect(trace).not.toContainText("sk-e2e-0123456789");

    const stored = await page.evaluate(() => localStorage.getItem("toolcall-lab.mcp-servers") ?? "");
    expect(stored).toContain(guarded.url);
    expect(stored).not.toContain("sk-e2e");
    // The token lasts as long as the tab: a reload reconnects with it.
    await page.reload();
    await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");

    // Kept only when asked, and then with a warning.
    await page.getByTestId("mcp-keep-headers").check();
    await expect(page.getByTestId("mcp-keep-warning")).toContainText("unencrypted");
    await connect(page, guarded.url, "Authorization: Bearer sk-e2e-0123456789");
    await expect.poll(() => page.evaluate(() => localStorage.getItem("toolcall-lab.mcp-servers") ?? "")).toContain("sk-e2e-0123456789");
  } finally {
    await guarded.stop();
  }
});

test("the server list survives a reload and reconnects; removing a server removes its tools", async ({ page }) => {
  await openWith(page, "reload", ["Nothing to do."]);
  await connect(page, server.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  await page.reload();
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  await expect(page.getByTestId("tool-toggle-reverse_text")).toBeVisible();
  await page.getByTestId("mcp-remove").click();
  await expect(page.getByTestId("mcp-server")).toHaveCount(0);
  await expect(page.getByTestId("tool-toggle-reverse_text")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("session-list")).toBeVisible();
  await expect(page.getByTestId("mcp-server")).toHaveCount(0);
});
