// Sampling is explicit: the settings show the model family's defaults, a value the person sets
// is sent, and the debugger shows what the step recorded (every value, and the max tokens cap).
import { expect, test } from "@playwright/test";
import { openLab, send } from "./lab-helpers.ts";

test("the settings show the family's defaults, and the debugger shows every value a step was sent", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await expect(page.getByTestId("sampling-defaults-source")).toContainText("Defaults for Qwen3, thinking on");
  await expect(page.getByTestId("setting-top-p")).toHaveAttribute("placeholder", "0.95");
  await expect(page.getByTestId("setting-max-tokens")).toHaveAttribute("placeholder", "4096");
  // The replay engine has no tokenizer: the cap is said to be unknown, not estimated.
  await expect(page.getByTestId("setting-context-cap")).toContainText("The cap is unknown");

  await page.getByTestId("setting-temperature").fill("0.3");
  await page.getByTestId("setting-seed").fill("42");
  await send(page, "What is 1234 * 5678?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");

  await expect(page.getByTestId("step-settings")).toContainText("max tokens 4096 · temperature 0.3 · top_p 0.95 · repetition penalty 1 · presence penalty 0 · frequency penalty 0 · seed 42");
  // The unknown cap is explained once per pane (the budget bar, the cap note), not repeated.
  await expect(page.getByTestId("step-budget")).toHaveText("max tokens 4,096 sent as set");
  await expect(page.getByTestId("context-budget")).toContainText("Context budget unknown");
  await expect(page.getByTestId("setting-last-budget")).toHaveText("Latest step: max tokens 4,096 sent as set.");
  await expect(page.getByText(/the cap is unknown/i)).toHaveCount(1);

  // Back to the default: the field empties and shows the default again.
  await page.getByTestId("setting-temperature-reset").click();
  await expect(page.getByTestId("setting-temperature")).toHaveValue("");
  await expect(page.getByTestId("setting-temperature")).toHaveAttribute("placeholder", "0.6");
});
