// The lab by keyboard: a skip link to the message box, the suggestion before the side column's
// fields, focus kept where the person continues, and arrow keys through the step timeline.
import { expect, test } from "@playwright/test";
import { openLab, send } from "./lab-helpers.ts";

test("the first Tab offers a skip link to the message box", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  // As a fresh page: nothing focused, the Tab order starts at the top.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("Tab");
  const skip = page.getByTestId("skip-to-chat");
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("chat-input")).toBeFocused();
});

test("the suggested message is reached within a few Tabs, before the side column's fields, and focus stays in the chat after sending", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  let presses = 0;
  for (; presses < 12; presses++) {
    await page.keyboard.press("Tab");
    if (await page.getByTestId("suggested-message").evaluate((element) => element === document.activeElement)) break;
  }
  expect(presses).toBeLessThan(12);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("message-user")).toHaveText("What is 1234 * 5678?");
  await expect(page.getByTestId("chat-input")).toBeFocused();
});

test("arrow keys, Home and End move through the step timeline, focus following the selection", async ({ page }) => {
  await openLab(page, "hermes-thinking");
  await send(page, "Please remember that my favourite colour is teal.");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  const items = page.getByTestId("step-item");
  await expect(items).toHaveCount(3);
  await items.first().click();
  await expect(items.first()).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(1)).toHaveAttribute("aria-current", "true");
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(2)).toBeFocused();
  await page.keyboard.press("Home");
  await expect(items.first()).toHaveAttribute("aria-current", "true");
  await expect(items.first()).toBeFocused();
  await page.keyboard.press("End");
  await expect(items.nth(2)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(items.nth(1)).toHaveAttribute("aria-current", "true");
  // One row in the Tab order: Tab leaves the timeline instead of walking its rows.
  expect(await items.evaluateAll((rows) => rows.filter((row) => row.tabIndex === 0).length)).toBe(1);
});
