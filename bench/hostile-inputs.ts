// Hardening round 3 (issue 29) in the UI bench: the inputs that froze the page, timed in Chromium
// on the built app. Each part prints the main-thread long tasks over 200 ms (target 0) and how
// long the page took to say what it made of the input:
//   import expansion — a 7 KB version-2 file of doubling prompts by reference (it stood for 78
//     million characters): refused;
//   playground link  — a 31 KB link that inflates to 24 MB: not opened;
//   re-parse         — "Parse as… hermes" on a 1 MB reply of unfinished calls (recorded as mistral,
//     for which it is text): read in a worker;
//   results matrix   — importing 2,000 results with distinct protocols and categories.
// UI_BENCH_ONLY=import-expansion,playground-link,reparse,results-matrix picks parts.
import type { Browser, Page } from "@playwright/test";
import { distinctResultsFile, dropFile, laughsFile, linkBomb, longTasksSince, pathologicalOutput, recordLongTasks, type LongTasks } from "../e2e/hostile-inputs.ts";

export interface HostileFigures {
  label: string;
  ms: number;
  longTasks: LongTasks | null;
}

export const HOSTILE_PARTS = ["import-expansion", "playground-link", "reparse", "results-matrix"] as const;
export type HostilePart = (typeof HOSTILE_PARTS)[number];

async function measure(browser: Browser, label: string, open: (page: Page) => Promise<void>, act: (page: Page) => Promise<void>): Promise<HostileFigures> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    await recordLongTasks(page);
    await open(page);
    const since = await page.evaluate(() => performance.now());
    await act(page);
    const ms = (await page.evaluate(() => performance.now())) - since;
    // Long tasks are reported a little after they end.
    await page.waitForTimeout(300);
    return { label, ms, longTasks: await longTasksSince(page, since) };
  } finally {
    await page.close();
  }
}

export async function hostileScenario(browser: Browser, base: string, part: HostilePart): Promise<HostileFigures> {
  switch (part) {
    case "import-expansion":
      return measure(
        browser,
        "import expansion (7 KB file of doubling prompts, refused)",
        async (page) => {
          await page.goto(`${base}/?engine=replay`);
          await page.getByTestId("import-file").waitFor({ state: "attached" });
        },
        async (page) => {
          await dropFile(page, "import-file", "laughs.json", laughsFile());
          await page.getByText("stand for more text than the lab reads from one file").waitFor({ timeout: 60_000 });
        },
      );
    case "playground-link": {
      const hash = await linkBomb();
      return measure(
        browser,
        `playground link (${Math.round(hash.length / 1000)} KB link inflating to 24 MB, not opened)`,
        async (page) => {
          await page.goto(`${base}/?view=playground`);
          await page.getByTestId("playground-output").waitFor();
        },
        async (page) => {
          await page.evaluate((h) => {
            location.hash = h;
          }, hash);
          await page.getByTestId("playground-link-message").waitFor({ timeout: 60_000 });
        },
      );
    }
    case "reparse":
      return measure(
        browser,
        "re-parse (Parse as hermes on a 1 MB reply of unfinished calls)",
        async (page) => {
          const output = pathologicalOutput(1_000_000);
          await page.route("**/__hostile/pathological.json", (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify({ title: "Pathological", protocol: "mistral", turns: [output], chunkChars: 65_536, delayMs: 1 }) }));
          await page.goto(`${base}/?engine=replay&transcript=${encodeURIComponent("/__hostile/pathological.json")}`);
          await page.getByTestId("session-list").waitFor();
          await page.getByTestId("chat-input").fill("Go.");
          await page.getByTestId("chat-input").press("Enter");
          await page.locator("[data-testid=step-item][data-status]:not([data-status=running])").first().waitFor({ timeout: 120_000 });
          await page.getByTestId("step-item").first().click();
          await page.getByTestId("reparse-protocol").waitFor();
          await page.waitForTimeout(500);
        },
        async (page) => {
          await page.getByTestId("reparse-protocol").selectOption("hermes");
          await page.getByTestId("reparse-explanation").waitFor({ timeout: 120_000 });
        },
      );
    case "results-matrix":
      return measure(
        browser,
        "results matrix (2,000 imported results, distinct protocols and categories)",
        async (page) => {
          await page.goto(`${base}/?engine=replay#evaluate`);
          await page.getByTestId("eval-import").waitFor();
        },
        async (page) => {
          await dropFile(page, "eval-import-file", "results-2000.json", distinctResultsFile(2_000));
          await page.getByTestId("eval-matrix-omitted").waitFor({ timeout: 120_000 });
        },
      );
  }
}

export function printHostileFigures(figures: HostileFigures): void {
  const tasks = figures.longTasks === null ? "long tasks unavailable (no Long Tasks API)" : `${figures.longTasks.over200} long tasks over 200 ms (longest ${figures.longTasks.longestMs} ms; target 0)`;
  console.log(`Hostile input, ${figures.label}: answered in ${figures.ms.toFixed(0)} ms — ${tasks}`);
}
