// Hardening round 3 (issue 29), as a person meets it in the page: each attack's input, and what
// the page shows for it.
import { expect, test } from "@playwright/test";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";

test("edit and re-run: an edited assistant message is what the prompt says, not its recorded output", async ({ page }) => {
  const calculatorCall = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1234 * 5678"}}\n</tool_call>';
  const url = await serveTranscript(page, "edited-reply", {
    title: "Calculator",
    protocol: "hermes",
    turns: [`I'll work that out.\n${calculatorCall}`, "1234 × 5678 = 7,006,652."],
  });
  await openLab(page, url);
  await send(page, "What is 1234 × 5678?");
  await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
  await expect(page.getByTestId("step-item")).toHaveCount(2);
  await page.getByTestId("step-item").nth(1).click();
  await page.getByTestId("step-rerun").click();
  await expect(page.getByTestId("rerun-prompt")).toHaveValue(/I'll work that out\./);
  // Message 2 is the model's reply that made the call.
  const reply = page.getByTestId("rerun-message").nth(1);
  await expect(reply).toHaveValue(/^I'll work that out\./);
  await reply.fill("I will estimate instead.");
  await expect(page.getByTestId("rerun-changes")).toContainText("message 2");
  await expect(page.getByTestId("rerun-prompt")).toHaveValue(/I will estimate instead\./);
  await expect(page.getByTestId("rerun-prompt")).not.toHaveValue(/I'll work that out\./);
});
