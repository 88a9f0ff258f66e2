// The pictures in README.md and docs/ are taken here, from the built app, so they never show a
// page that no longer exists. Each run overwrites docs/images/*.png; commit them when they change.
import { expect, test, type Page } from "@playwright/test";
import { openLab, send } from "./lab-helpers.ts";

const imagePath = (name: string) => new URL(`../docs/images/${name}.png`, import.meta.url).pathname;

/** A finished calculator turn with its tool call's step open in the debugger. */
async function chatWithStepOpen(page: Page): Promise<void> {
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 * 5678?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  await page.getByTestId("tool-call-card").first().click();
  await expect(page.getByTestId("prompt-view")).toBeVisible();
}

test("docs picture: the chat beside the debugger at 1440 px", async ({ page }) => {
  // Tall enough to show the raw output and the parse steps under the prompt.
  await page.setViewportSize({ width: 1440, height: 1240 });
  await chatWithStepOpen(page);
  await page.screenshot({ path: imagePath("lab-chat-and-debugger") });
});
