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

test("a results file near the cap is read off the page's thread: while it is read the page answers a click (Stop), then it opens", async ({ page }) => {
  test.setTimeout(300_000);
  // The lab's own largest file, its results repeated to just under the cap (≈ 31 MB).
  const file = JSON.parse(readFileSync(new URL("../eval-results/smollm2-135m-instruct-q4_1.llama3-json.constrained-off+on.json", import.meta.url), "utf8")) as { results: unknown[] };
  const one = file.results;
  const results: unknown[] = [];
  let text = "";
  for (let at = 0; ; at += 50) {
    const more = Array.from({ length: 50 }, (_, i) => one[(at + i) % one.length]);
    const next = JSON.stringify({ ...file, results: [...results, ...more] }, null, 1);
    if (next.length > RESULTS_FILE_MAX_CHARS - 1024 * 1024) break;
    results.push(...more);
    text = next;
  }
  expect(text.length).toBeGreaterThan(25 * 1024 * 1024);
  const buffer = Buffer.from(text);
  await page.goto("/#evaluate");
  const input = page.getByTestId("eval-import-file");
  await input.setInputFiles({ name: "near-the-cap.json", mimeType: "application/json", buffer });
  // While the worker reads it the page says so; a click on Stop is handled then and there (a page
  // held by JSON.parse would handle it only once the file was in, and Stop would be gone).
  const reading = page.getByTestId("eval-reading");
  await expect(reading).toContainText("Reading near-the-cap.json");
  await page.getByTestId("eval-reading-stop").click();
  await expect(reading).toHaveCount(0);
  await expect(page.getByTestId("eval-imported")).toHaveCount(0);
  await expect(page.getByTestId("eval-error")).toHaveCount(0);
  // Read to the end, it opens with every result.
  await input.setInputFiles({ name: "near-the-cap.json", mimeType: "application/json", buffer });
  await expect(page.getByTestId("eval-imported").filter({ hasText: `near-the-cap.json (${results.length})` })).toBeVisible({ timeout: 240_000 });
  await expect(reading).toHaveCount(0);
});
