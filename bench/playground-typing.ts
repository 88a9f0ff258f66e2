// The parser playground under a pasted megabyte (figures printed, never asserted; driven by
// ui-perf.ts): paste a ~1 MB output, then type at its end in each chunking, and count the main
// thread's long tasks meanwhile (target: none over 50 ms: parsing runs in a worker, the output
// is read after a pause in typing, and at most 150 event rows are drawn).
// PG_ORDER (e.g. "char,whole") picks the chunkings and their order; PG_SETTLE_MS the pause
// between choosing a chunking and typing (default 500 ms).
import type { Browser, Page } from "@playwright/test";

type LongTasks = { count: number; longestMs: number; over50: number } | null;
type LongTasksSince = (page: Page, since: number) => Promise<LongTasks>;

export interface PlaygroundFigures {
  outputChars: number;
  pasteToCallsMs: number;
  pasteLongTasks: LongTasks;
  typing: { chunking: string; keys: number; lastKeyToResultMs: number; longTasks: LongTasks }[];
}

function megabyteOutput(): string {
  const sentence = "The quick brown fox checks the figures twice before it answers. ";
  const call = (i: number) => `<tool_call>\n${JSON.stringify({ name: "calculator", arguments: { expression: `${i} * 7` } })}\n</tool_call>\n`;
  const parts: string[] = [`<think>\n${sentence.repeat(2000)}\n</think>\n`];
  for (let i = 0; parts.join("").length < 1_000_000; i++) parts.push(sentence.repeat(200), call(i));
  return parts.join("");
}

export async function playgroundScenario(browser: Browser, base: string, recordLongTasks: () => void, longTasksSince: LongTasksSince): Promise<PlaygroundFigures> {
  const output = megabyteOutput();
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.addInitScript(recordLongTasks);
    await page.goto(`${base}/?view=playground`);
    await page.getByTestId("playground-call").first().waitFor();
    const now = () => page.evaluate(() => performance.now());
    // 1. Paste: the text lands in the box as one input event, as a paste does.
    let since = await now();
    await page.getByTestId("playground-output").evaluate((box, text) => {
      (box as HTMLTextAreaElement).value = text;
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }, output);
    await page.getByTestId("playground-calls").and(page.locator("[data-count]:not([data-count='1'])")).waitFor({ timeout: 120_000 });
    const pasteToCallsMs = (await now()) - since;
    const pasteLongTasks = await longTasksSince(page, since);

    // 2. Type at the end, in each chunking.
    const typing: PlaygroundFigures["typing"] = [];
    const box = page.getByTestId("playground-output");
    for (const chunking of (process.env.PG_ORDER ?? "whole,char,random").split(",")) {
      await page.getByTestId("playground-chunking").selectOption(chunking);
      await page.getByTestId("playground-agreement").waitFor({ timeout: 120_000 });
      await page.waitForTimeout(Number(process.env.PG_SETTLE_MS ?? 500));
      await box.evaluate((el) => {
        const area = el as HTMLTextAreaElement;
        area.focus();
        area.setSelectionRange(area.value.length, area.value.length);
      });
      since = await now();
      const keys = " and then it answers.";
      await page.keyboard.type(keys, { delay: 30 });
      const typedAt = await now();
      // The result is in when the character count shown has caught up and the agreement line is back.
      await page.getByText(`${(output.length + keys.length).toLocaleString("en")} characters`).first().waitFor({ timeout: 120_000 });
      await page.getByTestId("playground-agreement").waitFor({ timeout: 120_000 });
      await page.waitForTimeout(chunking === "whole" ? 300 : 1500);
      typing.push({ chunking, keys: keys.length, lastKeyToResultMs: (await now()) - typedAt, longTasks: await longTasksSince(page, since) });
      await box.evaluate((el, text) => {
        (el as HTMLTextAreaElement).value = text;
        el.dispatchEvent(new Event("input", { bubbles: true }));
      }, output);
    }
    return { outputChars: output.length, pasteToCallsMs, pasteLongTasks, typing };
  } finally {
    await page.close();
  }
}

export function printPlaygroundFigures(figures: PlaygroundFigures, describeLongTasks: (t: LongTasks) => string): void {
  console.log(`Parser playground, a pasted output of ${figures.outputChars.toLocaleString("en")} characters: calls shown ${figures.pasteToCallsMs.toFixed(0)} ms after the paste — ${describeLongTasks(figures.pasteLongTasks)}`);
  for (const t of figures.typing) console.log(`  typing ${t.keys} keys at its end, chunking ${t.chunking}: ${describeLongTasks(t.longTasks)} (result ≈${t.lastKeyToResultMs.toFixed(0)} ms after the last key, waits included)`);
}
