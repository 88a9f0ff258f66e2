// A step of hundreds of thousands of tokens with their probabilities (a server streaming one-
// character tokens with logprobs, or an imported file): "Probabilities" drew every token, one
// element each (300,000: 5 s frozen; 2,000,000: a minute). It draws them in blocks of
// TOKEN_BLOCK, each block's tokens only once it comes near the view; the rest is plain text.
import { expect, test } from "@playwright/test";
import { STEP_OUTPUT_LIMITS } from "toolcall-middleware/loop/stream-step.ts";
import { tokenFloodSession } from "./hostile-inputs.ts";
import { openLab } from "./lab-helpers.ts";

const TOKENS = 40_000;
const PER_DELTA = 10_000;

test("a step of 40,000 tokens draws only the blocks near the view in Probabilities, and a block scrolled to is drawn", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await page.getByTestId("import-file").setInputFiles({ name: "tokens.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(tokenFloodSession(TOKENS, PER_DELTA))) });
  await expect(page.getByTestId("import-message")).toContainText("Imported");
  await page.getByTestId("probabilities-toggle").click();
  const view = page.getByTestId("token-probabilities");
  await expect(view.getByTestId("tp-token").first()).toBeVisible();
  const blocks = view.locator(".tp-block");
  // Blocks are put on the page a few dozen a task: all of them in the end.
  await expect(blocks).toHaveCount(TOKENS / 400);
  expect(await view.locator('.tp-block[data-drawn="true"]').count()).toBeLessThan(12);
  expect(await view.getByTestId("tp-token").count()).toBeLessThan(12 * 400);
  // The last block, scrolled to, gets its tokens; hovering its last token shows its alternatives.
  const last = blocks.last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toHaveAttribute("data-drawn", "true");
  await last.getByTestId("tp-token").last().hover();
  await expect(page.getByTestId("tp-alternatives")).toContainText(`Token ${TOKENS} `);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await view.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/.output/token-flood-${width}.png` });
  }
});

test("a step at the token bound (250,000 with alternatives) imports whole while the page takes input, is viewable first to last, and comes back after a reload", async ({ page }) => {
  test.setTimeout(300_000);
  const tokens = STEP_OUTPUT_LIMITS.tokens;
  await openLab(page, "hermes-calculator");
  const session = tokenFloodSession(tokens, PER_DELTA);
  await page.getByTestId("import-file").setInputFiles({ name: "bound.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(session)) });
  // Typed while the file is read and saved (it is read in slices, off the page's thread and between turns): the field takes it.
  const input = page.getByTestId("chat-input");
  await input.fill("typed during the import");
  await expect(input).toHaveValue("typed during the import");
  const typedBeforeTheImportEnded = (await page.getByTestId("import-message").count()) === 0;
  test.info().annotations.push({ type: "typed", description: typedBeforeTheImportEnded ? "before the import ended" : "after the import ended (a fast machine)" });
  await expect(page.getByTestId("import-message")).toContainText(`Imported "Token flood (imported)" (${session.events.length} events)`, { timeout: 180_000 });

  const lastTokenShown = async () => {
    await page.getByTestId("step-item").first().click();
    const toggle = page.getByTestId("probabilities-toggle");
    if ((await page.getByTestId("token-probabilities").count()) === 0) await toggle.click();
    const view = page.getByTestId("token-probabilities");
    await expect(view.getByTestId("tp-token").first()).toBeVisible({ timeout: 60_000 });
    const blocks = view.locator(".tp-block");
    await expect(blocks).toHaveCount(tokens / 400, { timeout: 60_000 });
    const last = blocks.last();
    await last.scrollIntoViewIfNeeded();
    await expect(last).toHaveAttribute("data-drawn", "true");
    await last.getByTestId("tp-token").last().hover();
    await expect(page.getByTestId("tp-alternatives")).toContainText(`Token ${tokens} `);
    // Its one recorded alternative came through the import (and the save) too.
    await expect(page.getByTestId("tp-alternative")).toHaveCount(1);
    await expect(page.getByTestId("tp-alternative")).toContainText("x");
  };
  await lastTokenShown();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `e2e/.output/token-flood-bound-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // Saved in chunks of bounded tokens: the reload reads every one back.
  await page.reload();
  await expect(page.getByTestId("session-list")).toBeVisible();
  await lastTokenShown();
});
