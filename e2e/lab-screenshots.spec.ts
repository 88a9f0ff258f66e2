// Screenshots of the lab's main states at two window sizes, written to test-results/screens/
// for a person to look at.
import { expect, test } from "@playwright/test";
import { openLab, send } from "./lab-helpers.ts";

for (const size of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`lab screenshots at ${size.width}x${size.height}`, async ({ page }) => {
    await page.setViewportSize(size);
    await openLab(page, "hermes-thinking");
    await page.screenshot({ path: `test-results/screens/lab-empty-${size.width}x${size.height}.png` });

    await send(page, "Please remember that my favourite colour is teal.");
    await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
    await page.screenshot({ path: `test-results/screens/lab-conversation-${size.width}x${size.height}.png` });

    await page.getByTestId("tool-call-card").first().getByRole("button").first().click();
    await page.locator(".reasoning summary").first().click();
    await page.screenshot({ path: `test-results/screens/lab-card-open-${size.width}x${size.height}.png` });

    await page.getByTestId("setting-max-steps").scrollIntoViewIfNeeded();
    await send(page, "And once more?");
    // The recording is over: the message stays in the box and the chat says what next, in view.
    await expect(page.getByTestId("send-notice")).toBeVisible();
    await expect(page.getByTestId("replay-ended")).toBeInViewport();
    await page.screenshot({ path: `test-results/screens/lab-recording-over-${size.width}x${size.height}.png` });
  });
}

test("lab screenshot of a deep_research run with nested steps and a stopped turn", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openLab(page, "deep-research");
  await send(page, "How long does sunlight take to reach Earth?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final", { timeout: 30_000 });
  await expect(page.getByTestId("tool-call-card")).toContainText("sub-steps");
  await page.screenshot({ path: "test-results/screens/lab-deep-research-1280x800.png" });
});
