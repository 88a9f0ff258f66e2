// A reply the engine stopped at a length limit is shown as cut off, in the chat and the
// debugger, with what the model wrote kept (the replay scripts the stop as WebLLM reports it).
import { expect, test } from "@playwright/test";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";

test("a reply cut off at max tokens says so in the chat and the debugger, and keeps its reasoning", async ({ page }) => {
  const path = await serveTranscript(page, "cut-off", {
    title: "Cut off while thinking",
    protocol: "hermes",
    turns: ["<think>The user asks about tides. Let me consider the moon, the sun, and"],
    cutOff: ["max-tokens"],
    delayMs: 0,
  });
  await openLab(page, path);
  await send(page, "Why are there two tides a day?");

  const turn = page.getByTestId("message-assistant").last();
  await expect(turn).toHaveAttribute("data-status", "cut-off");
  await expect(turn.getByTestId("turn-end-note")).toContainText("Cut off at max tokens");
  await expect(turn.locator("details.reasoning")).toContainText("Reasoning");

  const step = page.locator('[data-testid=step-item][data-status="cut-off"]');
  await expect(step).toHaveCount(1);
  await expect(step).toContainText("cut off");
  await expect(page.getByTestId("step-cut-off")).toContainText("cut off at max tokens");
});

test("a reply that filled the context window says the context window was full", async ({ page }) => {
  const path = await serveTranscript(page, "context-full", {
    title: "Context full",
    protocol: "hermes",
    turns: ["The answer begins and then"],
    cutOff: ["context-window"],
    delayMs: 0,
  });
  await openLab(page, path);
  await send(page, "Tell me everything.");
  const turn = page.getByTestId("message-assistant").last();
  await expect(turn.getByTestId("turn-end-note")).toContainText("Context window full");
  await expect(turn).toContainText("The answer begins and then");
  await expect(page.getByTestId("step-cut-off")).toContainText("context window full");
});
