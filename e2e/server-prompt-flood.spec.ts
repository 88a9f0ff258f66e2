// A server's rendered prompt (native mode's /apply-template) is the server's text: 16 million
// characters full of direction controls, recorded whole and drawn one element per control, crashed
// the tab — and the debugger reopened that step by itself at every load. Here the same text comes
// in an imported conversation: it is kept within SERVER_PROMPT_CHARS (the cut said), drawn in runs
// (only those near the view get their marks), and a step whose drawing never finished is not drawn
// by itself at the next load.
import { expect, test, type Page } from "@playwright/test";
import { SERVER_PROMPT_CHARS } from "toolcall-middleware/native/server-prompt.ts";
import { nativeServerPromptSession as nativeSession } from "./hostile-inputs.ts";
import { openLab } from "./lab-helpers.ts";

/** Past the bound by half of it: every fourth character a right-to-left override. */
const FLOOD_CHARS = SERVER_PROMPT_CHARS * 1.5;

async function importFlood(page: Page) {
  await openLab(page, "hermes-calculator");
  const flood = "ab\u202ec\n".repeat(FLOOD_CHARS / 5);
  await page.getByTestId("import-file").setInputFiles({ name: "flood.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(nativeSession(flood))) });
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  await expect(page.getByTestId("step-item")).toHaveCount(1);
}

test("an imported server prompt past the bound is cut with a note and drawn in runs, only those near the view with their marks", async ({ page }) => {
  await importFlood(page);
  const view = page.getByTestId("server-prompt");
  await expect(page.getByTestId("server-prompt-cut")).toContainText(
    `The server's answer was ${FLOOD_CHARS.toLocaleString("en-US")} characters long; the step kept the first ${SERVER_PROMPT_CHARS.toLocaleString("en-US")}`,
  );
  await expect(page.getByTestId("server-prompt-cut")).toContainText(`left out the last ${(FLOOD_CHARS - SERVER_PROMPT_CHARS).toLocaleString("en-US")}`);
  await expect(view.getByTestId("bidi-mark").first()).toBeVisible();
  // 200,000 overrides are kept; only the runs near the view carry their marks. The runs are put on
  // the page 40 a task (useMountedInBatches), so their count grows for a while: wait for it.
  await expect.poll(() => view.locator(".dbg-prompt-run").count(), { timeout: 60_000 }).toBeGreaterThan(200);
  const runs = await view.locator(".dbg-prompt-run").count();
  const drawn = await view.locator('.dbg-prompt-run[data-drawn="true"]').count();
  const marks = await view.getByTestId("bidi-mark").count();
  expect(runs).toBeGreaterThan(200);
  expect(drawn).toBeLessThan(10);
  expect(marks).toBeLessThan(10 * 1_000);
  // The page answers: another view opens.
  await page.getByRole("tab", { name: "Tool definitions" }).click();
  await expect(page.getByRole("tab", { name: "Tool definitions" })).toHaveAttribute("aria-selected", "true");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole("tab", { name: "Step" }).click();
    await page.getByTestId("server-prompt-cut").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/.output/server-prompt-flood-${width}.png` });
  }
});

test("a page left in the ordinary way while a step draws leaves no mark behind", async ({ page }) => {
  await importFlood(page);
  await expect(page.getByTestId("server-prompt")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("server-prompt-cut")).toBeVisible();
  await expect(page.getByTestId("step-held")).toHaveCount(0);
});

test("a step whose drawing never finished is not drawn by itself at the next load, and is drawn when asked", async ({ page }) => {
  await importFlood(page);
  await expect(page.getByTestId("server-prompt")).toBeVisible();
  // What a page killed while drawing the step leaves behind (see render-guard.ts), written from
  // another document of the origin: a page left in the ordinary way clears its mark (pagehide).
  await page.goto("/favicon.svg");
  await page.evaluate(() => localStorage.setItem("toolcall-lab:drawing-step", "flood-run\u241fs1"));
  await page.goto("/");
  const held = page.getByTestId("step-held");
  await expect(held).toContainText("was being drawn when the page stopped last time");
  await expect(page.getByTestId("server-prompt")).toHaveCount(0);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await held.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/.output/step-held-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await held.getByRole("button", { name: /^Draw / }).click();
  await expect(page.getByTestId("server-prompt-cut")).toBeVisible();
  // Drawn and painted: the mark is gone, and the next load draws the step by itself.
  await expect.poll(() => page.evaluate(() => localStorage.getItem("toolcall-lab:drawing-step"))).toBeNull();
  await page.reload();
  await expect(page.getByTestId("server-prompt-cut")).toBeVisible();
  await expect(page.getByTestId("step-held")).toHaveCount(0);
});
