// The debugger before any step: it says what will appear, and the enabled tools can already be read.
import { expect, test } from "@playwright/test";
import { openLab } from "./lab-helpers.ts";

const SHOTS = process.env.DEBUGGER_SHOTS ?? "test-results/screens";

test("an empty conversation's debugger explains itself and shows the enabled tools", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  const pane = page.getByTestId("debugger-pane");
  await expect(pane).toContainText("No loop steps yet");
  await expect(page.getByTestId("step-item")).toHaveCount(0);
  await pane.getByText(/Tool definitions \(\d+\)/).click();
  await expect(page.getByTestId("tool-def-openai")).toContainText('"name": "calculator"');
  // As the protocol chosen for the next turn would write them.
  await page.getByTestId("protocol-select").selectOption("hermes");
  await expect(page.getByTestId("tool-def-model")).toContainText("calculator");
  const hermesText = await page.getByTestId("tool-def-model").textContent();
  await page.getByTestId("protocol-select").selectOption("xml");
  await expect(page.getByTestId("tool-def-model")).not.toHaveText(hermesText ?? "");
  await expect(page.getByTestId("tool-def-model")).toContainText("calculator");
  await page.screenshot({ path: `${SHOTS}/debugger-empty-1280x800.png` });
});
