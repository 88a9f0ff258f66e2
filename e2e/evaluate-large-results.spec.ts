// A results file is the person's, or anyone's: Evaluate read any size whole on the page's thread
// (50 MB: 6 s frozen). A file over RESULTS_FILE_MAX_CHARS is refused before it is read, with its
// size and the cap in words; a large file under the cap (the lab's own 11 MB of 250 cases with
// their logs) is checked a slice at a time and opens.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { RESULTS_FILE_MAX_CHARS } from "../src/eval/results-file.ts";

test("a results file over the cap is refused with its size and the cap; the lab's own largest file opens", async ({ page }) => {
  await page.goto("/#evaluate");
  const input = page.getByTestId("eval-import-file");
  await input.setInputFiles({ name: "huge.json", mimeType: "application/json", buffer: Buffer.alloc(RESULTS_FILE_MAX_CHARS + 1024 * 1024, " ") });
  await expect(page.getByTestId("eval-error")).toContainText("huge.json: the file is 33 MB; the lab opens results files of at most 32 MB");
  await expect(page.getByTestId("eval-imported")).toHaveCount(0);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("eval-error").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/.output/evaluate-large-results-${width}.png` });
  }
  const name = "smollm2-135m-instruct-q4_1.llama3-json.constrained-off+on.json";
  const text = readFileSync(new URL(`../eval-results/${name}`, import.meta.url), "utf8");
  expect(text.length).toBeGreaterThan(10_000_000);
  await input.setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
  await expect(page.getByTestId("eval-imported").filter({ hasText: name })).toBeVisible({ timeout: 60_000 });
});
