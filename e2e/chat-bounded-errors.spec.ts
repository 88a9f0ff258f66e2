// A reply full of broken calls must not freeze the chat (issue 29): 960 KB of `<tool_call>{`
// is 80,000 unfinished calls, each a parse error. The chat draws the first 20 and a note of the
// rest; the debugger's parse steps list (virtualised) and raw output hold every one. Prints the
// main-thread long tasks from sending to the note being shown (a figure, not asserted).
import { expect, test } from "@playwright/test";
import { describeLongTasks, longTasksSince, recordLongTasks } from "./hostile-inputs.ts";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";

const CALLS = 80_000;
const DRAWN = 20;

test("a 960 KB reply of unfinished calls: the chat draws 20 parse errors, counts the rest, and the page answers", async ({ page }) => {
  test.setTimeout(300_000);
  const url = await serveTranscript(page, "unfinished-calls", {
    title: "Unfinished calls",
    protocol: "hermes",
    chunkChars: 65_536,
    delayMs: 0,
    turns: ["<tool_call>{".repeat(CALLS), "done."],
  });
  await recordLongTasks(page);
  await openLab(page, url);
  const since = await page.evaluate(() => performance.now());
  await send(page, "Go.");
  const first = page.getByTestId("message-assistant").first();
  const note = first.getByTestId("hidden-blocks-note");
  await expect(note).toBeVisible({ timeout: 240_000 });
  await expect(page.getByTestId("message-assistant").last()).not.toHaveAttribute("data-status", "running", { timeout: 240_000 });
  console.log(describeLongTasks(`chat with ${CALLS.toLocaleString("en-US")} unfinished calls, from send to the run's end`, await longTasksSince(page, since)));
  // The conversation is saved after the run ends; its tasks are printed apart from the clicks'.
  const ended = await page.evaluate(() => performance.now());
  await page.waitForTimeout(5_000);
  console.log(describeLongTasks("the 5 s after the run's end (the conversation is saved)", await longTasksSince(page, ended)));

  // What the page shows: 20 boxes, and the count of the others (the log keeps all of them).
  await expect(first.locator(".chat-notice.notice-warn")).toHaveCount(DRAWN);
  await expect(note).toHaveAttribute("data-parse-errors", String(CALLS - DRAWN));
  await expect(note).toContainText(`and ${(CALLS - DRAWN).toLocaleString("en-US")} more parse errors not drawn here`);

  // The page answers a click: the note's button selects the step in the debugger.
  const clicked = await page.evaluate(() => performance.now());
  await note.getByTestId("hidden-blocks-show-step").click();
  const step = page.locator('[data-testid=step-item][aria-current="true"]');
  await expect(step).toHaveCount(1);
  await expect(page.getByTestId("parse-steps-view")).toBeVisible();
  // The parse steps count every event (at least an error per unfinished call), drawing only the rows in view.
  const hint = await page.getByLabel("Parse steps").locator(".dbg-hint").first().innerText();
  expect(Number(hint.replace(/[^\d]/g, ""))).toBeGreaterThanOrEqual(CALLS);
  const rows = await page.getByTestId("parse-step").count();
  expect(rows).toBeLessThan(200);
  console.log(describeLongTasks("selecting the step in the debugger", await longTasksSince(page, clicked)));
  const filtered = await page.evaluate(() => performance.now());
  await page.getByLabel("calls, repairs and errors only").check();
  await expect(page.getByLabel("Parse steps").locator(".dbg-hint").first()).toContainText(" of ");
  console.log(describeLongTasks("showing calls, repairs and errors only", await longTasksSince(page, filtered)));
  const picked = await page.evaluate(() => performance.now());
  await page.getByTestId("parse-step").nth(2).click();
  await expect(page.getByTestId("parse-step-detail")).toBeVisible();
  console.log(describeLongTasks("selecting a parse event (its span highlighted in the raw output)", await longTasksSince(page, picked)));
  console.log(`raw output view: ${await page.getByTestId("raw-output-view").locator("[data-kind]").count()} coloured spans`);

  for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await note.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/chat-bounded-errors-${size.width}.png` });
  }
});
