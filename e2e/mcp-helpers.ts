// What the MCP specs share: the lab's origin (which the test servers allow), a replayed model
// turn that calls a tool (Hermes), opening the lab on such turns, connecting a server from the
// panel, waiting for a turn's end, and a tool's card in the chat.
import { expect, type Page } from "@playwright/test";
import { openLab, serveTranscript } from "./lab-helpers.ts";

/** The built app's origin in these tests: every test server allows it (CORS). */
export const labOrigin = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4319)}`;

/** A model turn that calls `name` with `args`, as Hermes writes it. */
export const call = (name: string, args: Record<string, unknown> = {}) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

/** A tool's call cards in the chat, oldest first. */
export const card = (page: Page, tool: string) => page.locator(`[data-testid="tool-call-card"][data-tool="${tool}"]`);

/** Opens the lab on a replay transcript of these model turns (Hermes, no delay). */
export async function openWith(page: Page, name: string, turns: string[], title = `mcp ${name}`): Promise<void> {
  await openLab(page, await serveTranscript(page, name, { title, protocol: "hermes", turns, delayMs: 0 }));
}

/** Enters a server's address (and headers) in the panel and presses Connect; waits for nothing. */
export async function connectServer(page: Page, url: string, headers = ""): Promise<void> {
  await page.getByTestId("mcp-url-input").fill(url);
  if (headers) await page.getByTestId("mcp-headers-input").fill(headers);
  await page.getByTestId("mcp-connect-button").click();
}

/** Waits until the n-th assistant turn (from 1) has ended, and returns it. */
export async function turnDone(page: Page, n: number) {
  const turn = page.getByTestId("message-assistant").nth(n - 1);
  await expect(turn).toHaveAttribute("data-status", /final|aborted/);
  return turn;
}

/**
 * Screenshots at 1440 and 390 px wide with `testId` scrolled into view: at 390 px the side panel
 * (MCP servers) is behind its toggle, opened for the picture and closed again.
 */
export async function screenshotSidePanel(page: Page, testId: string, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 390) await page.getByTestId("side-toggle").click();
    await page.getByTestId(testId).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/${name}-${width}.png` });
    if (width === 390) await page.getByTestId("side-toggle").click();
  }
}
