// Edit and re-run on a large output (issue 29 item 14): the replay engine's output of ~1 MB is
// handed to the parser in pieces with turns for the page between them. Prints the main-thread
// long tasks of the re-run (a figure, not asserted) and checks what the page shows.
import { expect, test } from "@playwright/test";
import { describeLongTasks, longTasksSince, recordLongTasks } from "./hostile-inputs.ts";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";

test("edit and re-run on a 950 KB output: the branch's parse is shown and the page keeps getting turns", async ({ page }) => {
  test.setTimeout(180_000);
  const output = "word ".repeat(190_000);
  const url = await serveTranscript(page, "large-output", { title: "Large output", protocol: "hermes", chunkChars: 65_536, delayMs: 0, turns: [output, "done."] });
  await recordLongTasks(page);
  await openLab(page, url);
  await send(page, "Go.");
  await expect(page.getByTestId("step-item").first()).toBeVisible({ timeout: 120_000 });
  await page.getByTestId("step-item").first().click();
  await page.getByTestId("step-rerun").click();
  await expect(page.getByTestId("rerun-output")).toHaveValue(output, { timeout: 60_000 });
  const since = await page.evaluate(() => performance.now());
  await page.getByTestId("rerun-run").click();
  await expect(page.getByTestId("rerun-branch-parse-count")).toContainText(/\d+ parse events, 0 decisions/, { timeout: 120_000 });
  console.log(describeLongTasks("edit and re-run on a 950 KB output", await longTasksSince(page, since)));
  await expect(page.getByTestId("rerun-branch-calls")).toHaveAttribute("data-count", "0");
});
