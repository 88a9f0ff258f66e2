// Ways out where the lab used to end in an error: continuing a branch on a replay whose
// recording is over explains itself instead of adding an engine-error step.
import { expect, test } from "@playwright/test";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";

test("'Continue from the branch' on a finished recording explains why it cannot, and adds no step", async ({ page }) => {
  const call = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1234 * 5678"}}\n</tool_call>';
  const url = await serveTranscript(page, "two-turns", { title: "Calculator, two turns", protocol: "hermes", chunkChars: 16, delayMs: 1, turns: [`Working.\n${call}`, "1234 × 5678 = 7,006,652."] });
  await openLab(page, url);
  await send(page, "What is 1234 × 5678?");
  await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
  await page.getByTestId("step-item").first().click();
  await page.getByTestId("step-rerun").click();
  await page.getByTestId("rerun-run").click();
  const items = page.getByTestId("step-item");
  await expect(items).toHaveCount(3);

  await items.nth(1).click();
  await page.getByTestId("rerun-continue").click();
  await expect(page.getByTestId("branch-message")).toContainText("The recording is over");
  await expect(page.getByTestId("branch-message")).toContainText("real model or a server");
  await expect(items).toHaveCount(3);
  await expect(page.locator('[data-testid=step-item][data-status="engine-error"]')).toHaveCount(0);
});

test("Settings say so when they put a typed value back in range", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  const maxSteps = page.getByTestId("setting-max-steps");
  await maxSteps.fill("-3");
  await maxSteps.blur();
  await expect(maxSteps).toHaveValue("1");
  await expect(page.getByTestId("setting-max-steps-clamped")).toHaveText("-3 is below the least allowed, 1: set to 1.");
  const temperature = page.getByTestId("setting-temperature");
  await temperature.fill("5");
  await temperature.blur();
  await expect(temperature).toHaveValue("2");
  await expect(page.getByTestId("setting-temperature-clamped")).toHaveText("5 is above the most allowed, 2: set to 2.");
  // Typing again clears the note.
  await maxSteps.fill("4");
  await expect(page.getByTestId("setting-max-steps-clamped")).toHaveCount(0);
});

test("a recording replayed after a message it was not made for says so beside the reply; its own message gets no note", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await send(page, "What is the capital of France?");
  const reply = page.getByTestId("message-assistant");
  await expect(reply).toHaveAttribute("data-status", "final");
  await expect(reply.getByTestId("replay-other-message")).toContainText("made for “What is 1234 * 5678?”");

  await page.getByTestId("new-conversation").click();
  await page.getByTestId("suggested-message").click();
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  await expect(page.getByTestId("replay-other-message")).toHaveCount(0);
});

test("Compare puts the earlier step as A, so the diff reads forwards; its selects stay inside the pane at 1440 px", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, "hermes-calculator");
  await send(page, "What is 1234 * 5678?");
  await expect(page.getByTestId("message-assistant")).toHaveAttribute("data-status", "final");
  const items = page.getByTestId("step-item");
  await items.first().click();
  const secondKey = await page.getByTestId("compare-with").locator("option").nth(1).getAttribute("value");
  await page.getByTestId("compare-with").selectOption(secondKey!);
  await expect(page.getByTestId("step-compare-a")).toContainText("step 1");
  await expect(page.getByTestId("step-compare-b")).toContainText("step 2");
  // A second conversation adds the conversation select: both selects end inside the debugger pane.
  await page.getByTestId("new-conversation").click();
  await send(page, "hello");
  await items.first().click();
  const pane = (await page.getByRole("region", { name: "Debugger" }).boundingBox())!;
  for (const id of ["compare-conversation", "compare-with"]) {
    const box = (await page.getByTestId(id).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(pane.x + pane.width);
  }
});

test("the parser playground is linked from the lab's header", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await page.getByTestId("view-playground").click();
  await expect(page.getByTestId("playground-call")).toHaveCount(1);
});

test("a file that is not a GGUF, opened in the CPU pane, is refused by name with what to open instead", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("engine-select").selectOption("cpu");
  await expect(page.getByTestId("cpu-open-file-button")).toBeVisible();
  await page.getByTestId("cpu-file-input").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a model") });
  const error = page.getByTestId("engine-error").first();
  await expect(error).toContainText("notes.txt is not a GGUF file.");
  await expect(error).toContainText("Open a .gguf model file");
});
