// Screenshots of the main states, written to test-results/screens/ for a person to look at.
import { test } from "@playwright/test";

for (const size of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`screenshot of the shell at ${size.width}x${size.height}`, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto("/");
    await page.getByTestId("webgpu-badge").and(page.locator(":not([data-state=checking])")).waitFor();
    await page.screenshot({ path: `test-results/screens/shell-${size.width}x${size.height}.png` });
  });
}
