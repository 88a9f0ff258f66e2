// The Markdown flood (issue 18, item 8): a model answers with 50,000 short Markdown lines
// `row i _x_`, streamed in two chunks by the replay engine, into the open chat and debugger.
// Before, React put ~150,000 inline nodes into one live paragraph: a 15–20 s task. Printed:
// main-thread long tasks over 200 ms from Send until the reply is shown whole (target 0), the
// longest, and the time to the end.
import type { Browser } from "@playwright/test";

export const FLOOD_LINES = 50_000;
const OVER_MS = 200;

export interface MarkdownFloodFigures {
  lines: number;
  chars: number;
  seconds: number;
  longTasks: { count: number; over200: number; longestMs: number } | null;
}

export function markdownFlood(lines = FLOOD_LINES): string {
  return Array.from({ length: lines }, (_, i) => `row ${i} _x_`).join("\n");
}

export async function markdownFloodScenario(browser: Browser, base: string, recordLongTasks: () => void): Promise<MarkdownFloodFigures> {
  const text = markdownFlood();
  const transcript = { title: "bench markdown flood", protocol: "hermes", turns: [text], chunkChars: Math.ceil(text.length / 2), delayMs: 100 };
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.addInitScript(recordLongTasks);
  await page.route((url) => url.pathname === "/__bench/flood.json", (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(transcript) }));
  await page.goto(`${base}/?engine=replay&transcript=${encodeURIComponent("/__bench/flood.json")}`);
  await page.getByTestId("chat-input").waitFor();
  await page.waitForTimeout(500);
  await page.getByTestId("chat-input").fill("List the rows.");
  const since = await page.evaluate(() => performance.now());
  await page.getByTestId("send-button").click();
  // Waited for with the page's own querySelector, polled rarely: Playwright's selector engine
  // walks the DOM in script, which on a page of 150,000 nodes would be long tasks of its own.
  const last = `row ${FLOOD_LINES - 1} `;
  await page.waitForFunction(
    (last) => {
      if (!document.querySelector('[data-testid=step-item][data-status="final"]')) return false;
      const reply = document.querySelectorAll("[data-testid=message-assistant] .md");
      return reply[reply.length - 1]?.lastElementChild?.textContent?.includes(last) === true;
    },
    last,
    { timeout: 300_000, polling: 250 },
  );
  const until = await page.evaluate(() => performance.now());
  await page.waitForTimeout(500);
  const longTasks = await page.evaluate(
    ({ since, over }) => {
      const tasks = (window as { __benchLongTasks?: { start: number; duration: number }[] }).__benchLongTasks;
      if (!tasks || !PerformanceObserver.supportedEntryTypes?.includes("longtask")) return null;
      const after = tasks.filter((t) => t.start >= since);
      return { count: after.length, over200: after.filter((t) => t.duration > over).length, longestMs: Math.max(0, ...after.map((t) => t.duration)) };
    },
    { since, over: OVER_MS },
  );
  await page.close();
  return { lines: FLOOD_LINES, chars: text.length, seconds: (until - since) / 1000, longTasks };
}

export function printMarkdownFloodFigures(f: MarkdownFloodFigures): void {
  const tasks = f.longTasks === null ? "long tasks unavailable (no Long Tasks API)" : `${f.longTasks.over200} long tasks over ${OVER_MS} ms (target: 0), ${f.longTasks.count} over 50 ms, longest ${f.longTasks.longestMs.toFixed(0)} ms`;
  console.log(`Markdown flood (${f.lines.toLocaleString("en-US")} lines \`row i _x_\`, ${(f.chars / 1000).toFixed(0)}k characters, two chunks): shown whole in ${f.seconds.toFixed(1)} s — ${tasks}`);
}
