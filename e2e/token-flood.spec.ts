// A step of hundreds of thousands of tokens with their probabilities (a server streaming one-
// character tokens with logprobs, or an imported file): "Probabilities" drew every token, one
// element each (300,000: 5 s frozen; 2,000,000: a minute). It draws them in blocks of
// TOKEN_BLOCK, each block's tokens only once it comes near the view; the rest is plain text.
import { expect, test } from "@playwright/test";
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
  expect(await blocks.count()).toBe(TOKENS / 400);
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
