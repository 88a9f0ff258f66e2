// The many-tools figure of the UI benchmark (printed, never asserted): an MCP server (the tests'
// server, started here on 127.0.0.1) offers N tools; the built app in Chromium connects to it,
// opens the tool definitions and counts tokens for them, then reloads (a saved server is
// reconnected at start). Printed: main-thread long tasks over 200 ms in each phase (target: 0).
import type { Browser, Page } from "@playwright/test";
import { startTestServer } from "../e2e/mcp-server/test-server.ts";

const FREEZE_MS = 200;

export interface ManyToolsFigures {
  tools: number;
  connectMs: number;
  /** Long tasks from Connect until the tools are listed (and offered in Settings). */
  connect: LongTaskFigures | null;
  /** Long tasks while the tool definitions open and their tokens are counted. */
  definitions: LongTaskFigures | null;
  /** Long tasks after a reload, from the app being up until the saved server is connected again. */
  restart: LongTaskFigures | null;
}

export interface LongTaskFigures {
  count: number;
  longestMs: number;
  over200: number;
}

interface LongTaskWindow {
  __benchLongTasks?: { start: number; duration: number }[];
}

async function longTasksSince(page: Page, since: number): Promise<LongTaskFigures | null> {
  return page.evaluate(
    ({ since, limit }) => {
      const tasks = (window as LongTaskWindow).__benchLongTasks;
      if (!tasks || !PerformanceObserver.supportedEntryTypes?.includes("longtask")) return null;
      const after = tasks.filter((t) => t.start >= since);
      return { count: after.length, longestMs: Math.max(0, ...after.map((t) => t.duration)), over200: after.filter((t) => t.duration > limit).length };
    },
    { since, limit: FREEZE_MS },
  );
}

export async function manyToolsScenario(browser: Browser, base: string, tools: number, recordLongTasks: () => void): Promise<ManyToolsFigures> {
  const server = await startTestServer({ allowOrigin: base, hostile: { manyTools: tools } });
  const total = tools + 6;
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  try {
    await page.addInitScript(recordLongTasks);
    await page.goto(`${base}/?engine=replay`);
    await page.getByTestId("mcp-url-input").waitFor();
    await page.waitForTimeout(500);
    const since = await page.evaluate(() => performance.now());
    await page.getByTestId("mcp-url-input").fill(server.url);
    await page.getByTestId("mcp-connect-button").click();
    await page.getByTestId("mcp-server-status").getByText(`connected · ${total} tools`).waitFor({ timeout: 120_000 });
    const connectMs = (await page.evaluate(() => performance.now())) - since;
    await page.waitForTimeout(1_000);
    const connect = await longTasksSince(page, since);
    // The tool definitions and their token costs, as a person opens them.
    const opened = await page.evaluate(() => performance.now());
    await page.locator(".dbg-empty-tools summary").click();
    await page.getByTestId("tool-token-costs").getByTestId("count-tokens").click({ timeout: 120_000 });
    await page.getByTestId("tool-section-tokens").waitFor({ timeout: 120_000 });
    await page.waitForTimeout(1_000);
    const definitions = await longTasksSince(page, opened);

    await page.reload();
    await page.getByTestId("chat-input").waitFor();
    const booted = await page.evaluate(() => performance.now());
    await page.getByTestId("mcp-server-status").getByText(`connected · ${total} tools`).waitFor({ timeout: 120_000 });
    await page.waitForTimeout(1_000);
    const restart = await longTasksSince(page, booted);
    return { tools, connectMs, connect, definitions, restart };
  } finally {
    await page.close();
    await server.stop();
  }
}

export function printManyToolsFigures(figures: ManyToolsFigures): void {
  const describe = (t: LongTaskFigures | null) =>
    t === null ? "unavailable (no Long Tasks API)" : `${t.count} long tasks, longest ${t.longestMs.toFixed(1)} ms, ${t.over200} over ${FREEZE_MS} ms (target: 0)`;
  console.log(`An MCP server with ${figures.tools} tools: connected and listed in ${figures.connectMs.toFixed(0)} ms`);
  console.log(`  connect (tools listed and offered):             ${describe(figures.connect)}`);
  console.log(`  tool definitions opened, their tokens counted:  ${describe(figures.definitions)}`);
  console.log(`  reload, from the app up until the saved server has reconnected: ${describe(figures.restart)}`);
}
