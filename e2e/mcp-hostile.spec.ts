// MCP servers that misbehave, against the built app in Chromium: the tests' MCP server (the
// official SDK's, started here on 127.0.0.1) with hostile options — thousands of tools, a tool
// list that never ends, a storm of list-changed notifications, tools that echo the person's
// secrets, names with invisible characters. Nothing may freeze the page, run on after Remove,
// or leak a secret into the prompt, the log or the panel.
import { expect, test } from "@playwright/test";
import { startTestServer, type HostileOptions, type RunningTestServer } from "./mcp-server/test-server.ts";
import { exportedConversation, openLab, send, serveTranscript } from "./lab-helpers.ts";
import { call, connectServer as connect, labOrigin } from "./mcp-helpers.ts";

const SHOTS = "e2e/.output";

let server: RunningTestServer | null = null;

async function startHostile(hostile: HostileOptions, token?: string): Promise<RunningTestServer> {
  server = await startTestServer({ allowOrigin: labOrigin, hostile, ...(token ? { token } : {}) });
  return server;
}

test.afterEach(async () => {
  await server?.stop();
  server = null;
});


test("3,000 tools: connected and offered, every tool's token cost counted, and again after a reload, without the page giving up", async ({ page }) => {
  const running = await startHostile({ manyTools: 3000 });
  await openLab(page, "hermes-calculator");
  await connect(page, running.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 3006 tools", { timeout: 60_000 });

  // Settings lists the first tools and offers the rest on request.
  await expect(page.getByTestId("tool-toggle-op_100")).toBeVisible();
  await expect(page.getByTestId("tools-show-all")).toHaveText("Show all 3,014 tools (2,814 more)");
  await expect(page.getByTestId("tool-toggle-op_2999")).toHaveCount(0);

  // The tool definitions, as the next turn's protocol writes them, and what each tool costs.
  await page.locator(".dbg-empty-tools summary").click();
  await expect(page.getByTestId("tool-def-cut")).toHaveCount(1);
  // The API shapes (megabytes of JSON for 3,000 tools) are written when asked for.
  await page.getByTestId("tool-shapes-show").click();
  await expect(page.getByTestId("tool-def-cut")).toHaveCount(4);
  await page.getByTestId("tool-token-costs").getByTestId("count-tokens").click();
  await expect(page.getByTestId("tool-section-tokens")).toHaveText(/^[\d,]+ tokens$/, { timeout: 60_000 });
  await expect(page.getByTestId("tool-costs-listed")).toHaveText("3,014 tools: the 100 costliest are listed.");
  const costs = page.getByTestId("tool-token-cost");
  await expect(costs).toHaveCount(100);
  const total = Number((await page.getByTestId("tool-section-tokens").textContent())!.replace(/\D/g, ""));
  const costliest = Number((await costs.first().locator(".num").textContent())!.replace(/\D/g, ""));
  expect(costliest).toBeGreaterThan(10);
  // 3,000 tools of about 60 tokens each: the section holds them all, each counted once.
  expect(total).toBeGreaterThan(3000 * 40);
  await page.getByTestId("tool-token-costs").screenshot({ path: `${SHOTS}/mcp-many-tools-costs.png` });

  // The saved server reconnects at start with its 3,000 tools.
  await page.reload();
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 3006 tools", { timeout: 60_000 });
  await expect(page.getByTestId("chat-input")).toBeEditable();
});

test("a tool list that never ends is cut at the page limit with a clear message, and Remove stops a slow endless listing at once", async ({ page }) => {
  const endless = await startHostile({ endlessCursor: true });
  await openLab(page, "hermes-calculator");
  await connect(page, endless.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("not connected", { timeout: 30_000 });
  await expect(page.getByTestId("mcp-server-error")).toContainText("still named a next page of its tool list after 100 pages");
  expect(endless.listRequests()).toBe(100);
  await page.getByTestId("mcp-panel").screenshot({ path: `${SHOTS}/mcp-endless-list.png` });
  await page.getByTestId("mcp-remove").click();
  await endless.stop();

  // A slow endless listing: Remove cancels it; the server is asked nothing more.
  const slow = await startHostile({ endlessCursor: true, listDelayMs: 200 });
  await connect(page, slow.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText(/connecting/);
  await expect.poll(() => slow.listRequests()).toBeGreaterThanOrEqual(3);
  await page.getByTestId("mcp-remove").click();
  await expect(page.getByTestId("mcp-server")).toHaveCount(0);
  const asked = slow.listRequests();
  await page.waitForTimeout(1_500);
  expect(slow.listRequests()).toBeLessThanOrEqual(asked + 1);
});

test("a storm of 3,000 list_changed notifications lists the tools once or twice, and the server stays connected", async ({ page }) => {
  const running = await startHostile({ listDelayMs: 100 });
  await openLab(page, "hermes-calculator");
  await connect(page, running.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  await running.notifyToolsChanged(3000);
  await expect(page.getByTestId("mcp-server-notice")).toContainText("The server changed its tool list");
  await page.waitForTimeout(1_000);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 6 tools");
  expect(running.maxConcurrentLists()).toBe(1);
  expect(running.listRequests()).toBeLessThanOrEqual(1 + 3);
});

test("secrets a server echoes back are masked in the chat, the next prompt, the debugger and the export; an address's api_key is not stored", async ({ page }) => {
  const token = "sk-e2e-echo-0123456789";
  const running = await startHostile({ echoSecrets: { secret: token } }, token);
  const transcript = await serveTranscript(page, "echo-secrets", {
    title: "echo secrets",
    protocol: "hermes",
    turns: [[call("echo_secret"), call("echo_secret_error")].join("\n"), "Both answered."],
    delayMs: 0,
  });
  await openLab(page, transcript);
  await page.getByTestId("mcp-url-input").fill(`${running.url}?api_key=url-key-4444`);
  await expect(page.getByTestId("mcp-url-secret-note")).toContainText("kept for this tab only");
  await page.getByTestId("mcp-panel").screenshot({ path: `${SHOTS}/mcp-url-secret-note.png` });
  await connect(page, `${running.url}?api_key=url-key-4444`, `Authorization: Bearer ${token}\nX-Api-Key: header-key-5555`);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 10 tools");

  await send(page, "Which keys did you get?");
  await expect(page.getByTestId("message-assistant").first()).toHaveAttribute("data-status", "final");
  const cards = page.getByTestId("tool-call-card");
  await expect(cards.filter({ hasText: "echo_secret_error" })).toContainText("key •••• / •••• is not allowed");
  await expect(cards.filter({ hasText: "you sent" })).toContainText("you sent •••• / ••••");

  // The answer step's prompt carries the results back to the model: masked.
  await page.locator('[data-testid=step-item][data-status="final"]').click();
  const prompt = await page.getByTestId("prompt-view").textContent();
  expect(prompt).toContain("is not allowed");
  const secrets = [token, "header-key-5555", "url-key-4444"];
  for (const secret of secrets) expect(prompt).not.toContain(secret);
  const log = (await exportedConversation(page)).text;
  expect(log).toContain("is not allowed");
  for (const secret of secrets) expect(log).not.toContain(secret);
  // The chat, the debugger and the server list show none of them (the form keeps what the person typed).
  for (const where of [page.getByTestId("message-assistant").first(), page.getByTestId("debugger-pane"), page.getByTestId("mcp-servers")]) {
    for (const secret of secrets) await expect(where).not.toContainText(secret);
  }

  // Stored: the address without its api_key (Keep headers is off); this tab still has it.
  const stored = await page.evaluate(() => localStorage.getItem("toolcall-lab.mcp-servers") ?? "");
  expect(stored).toContain(running.url);
  expect(stored).not.toContain("url-key-4444");
});

test("a tool named like a built-in but for a zero-width character is offered prefixed, and its invisible character is marked", async ({ page }) => {
  const running = await startHostile({ toolNames: ["run_javascript\u200b", "\u2060quiet_tool"] });
  await openLab(page, "hermes-calculator");
  await connect(page, running.url);
  await expect(page.getByTestId("mcp-server-status")).toHaveText("connected · 8 tools");
  // The built-in keeps its name; the look-alike is prefixed, without the invisible character.
  await expect(page.getByTestId("tool-toggle-run_javascript")).toBeVisible();
  await expect(page.getByTestId("tool-toggle-lab-test-server__run_javascript")).toBeVisible();
  await expect(page.getByTestId("tool-toggle-run_javascript\u200b")).toHaveCount(0);
  // A name with one that clashes with nothing keeps it, marked where names are shown.
  const quiet = page.locator("label", { has: page.getByTestId("tool-toggle-\u2060quiet_tool") });
  await expect(quiet.getByTestId("invisible-mark")).toHaveText("⟨U+2060⟩");
  const listed = page.getByTestId("mcp-server-tools");
  await expect(listed.getByTestId("invisible-mark")).toHaveCount(2);
  expect(await listed.innerText()).toContain("run_javascript⟨U+200B⟩");
  await page.getByTestId("mcp-servers").screenshot({ path: `${SHOTS}/mcp-invisible-names.png` });
});
