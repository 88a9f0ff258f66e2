// Evaluate before anything has run: it says what each engine needs and offers the one that works in
// this browser.
import { expect, test } from "@playwright/test";

test("Evaluate's empty state says what each engine needs, and its choices lead somewhere", async ({ page }) => {
  await page.goto("/#evaluate");
  const empty = page.getByTestId("eval-empty");
  await expect(empty).toBeVisible();
  await expect(empty.getByTestId("eval-needs-webllm")).toContainText(/WebGPU/);
  await expect(empty.getByTestId("eval-needs-server")).toContainText("/v1");
  await expect(empty.getByTestId("eval-needs-real-model")).toBeVisible();

  // A server: its fields show and the first is focused.
  await page.getByTestId("eval-use-server").click();
  await expect(page.getByTestId("eval-engine")).toHaveValue("server-prompt");
  await expect(page.getByTestId("eval-base-url")).toBeFocused();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: new URL("../docs/images/evaluate-empty-1440.png", import.meta.url).pathname });
});

test("the real-model offer leads to the Lab's Model pane with that engine chosen", async ({ page }) => {
  await page.goto("/?engine=replay&transcript=hermes-calculator#evaluate");
  // Headless Chromium here has only SwiftShader's software WebGPU adapter: the offer is the CPU model.
  await expect(page.getByTestId("eval-needs-real-model")).toContainText("Run SmolLM2 135M on this computer's CPU");
  await page.getByTestId("eval-real-model").click();
  await expect(page.getByTestId("view-lab")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("engine-select")).toHaveValue("cpu");
});
