// MCP servers that misbehave, against the built app in Chromium: the tests' MCP server (the
// official SDK's, started here on 127.0.0.1) with hostile options — thousands of tools, a tool
// list that never ends, a storm of list-changed notifications, tools that echo the person's
// secrets, names with invisible characters. Nothing may freeze the page, run on after Remove,
// or leak a secret into the prompt, the log or the panel.
import { expect, test, type Page } from "@playwright/test";
import { startTestServer, type HostileOptions, type RunningTestServer } from "./mcp-server/test-server.ts";
import { openLab } from "./lab-helpers.ts";

const labOrigin = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4319)}`;
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

async function connect(page: Page, url: string, headers = ""): Promise<void> {
  await page.getByTestId("mcp-url-input").fill(url);
  if (headers) await page.getByTestId("mcp-headers-input").fill(headers);
  await page.getByTestId("mcp-connect-button").click();
}

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
