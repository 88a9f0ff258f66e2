// A reload of the page while the CPU engine is in use, as a person meets it: the engine and the
// protocol they chose are still chosen, the model is one click away (under the conversation, which
// is kept), and a message sent just before the reload is not lost: in the conversation if it had
// started, back in the message box if it had not. The real SmolLM2 runs; nothing is asserted on
// its words.
import { expect, test, type Page } from "@playwright/test";
import { cachedSmolLm2 } from "./real-model-cache.ts";
import { send, shownPrompt } from "./lab-helpers.ts";

cachedSmolLm2("the CPU engine's reload tests must run in CI");
test.describe.configure({ timeout: 600_000 });

const SHOTS = process.env.CPU_SHOTS ?? "test-results/screens";
const LONG = 240_000;

async function modelReady(page: Page): Promise<void> {
  await expect(page.getByTestId("engine-label")).toContainText("CPU: SmolLM2 135M", { timeout: LONG });
}

test("after a reload the CPU engine and the protocol are still chosen, the model loads again in one click, and messages sent just before are kept", async ({ page }) => {
  const uncaught: string[] = [];
  page.on("pageerror", (error) => uncaught.push(error.message));
  await page.goto("/?cpuThreads=1");
  await page.getByTestId("cpu-offer-button").click();
  await modelReady(page);
  // Not the model's recommended protocol: the person's own choice.
  await page.getByTestId("protocol-select").selectOption("hermes");
  await page.getByTestId("setting-temperature").fill("0");
  await page.getByTestId("setting-max-tokens").fill("16");
  // No tools: a short prompt, which the reloaded model re-reads in seconds even on a busy machine.
  for (const toggle of await page.locator('[data-testid^="tool-toggle-"]').all()) if (await toggle.isChecked()) await toggle.setChecked(false);

  // A message sent, and the page reloaded the moment it shows in the chat (its reply not begun).
  await send(page, "What is 2 + 2?");
  await expect(page.getByTestId("message-user")).toHaveText("What is 2 + 2?");
  await page.reload();
  await expect(page.getByTestId("message-user")).toHaveText("What is 2 + 2?");
  await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", "interrupted");
  // It is in the conversation, so it is not also put back in the box.
  await expect(page.getByTestId("chat-input")).toHaveValue("");
  // The choices are still the person's: the CPU engine (not the replay demo) and Hermes.
  await expect(page.getByTestId("engine-label")).toHaveText("CPU: no model loaded");
  await expect(page.getByTestId("protocol-select")).toHaveValue("hermes");

  // A message sent before the model is back: refused with the reason, kept in the box, and still
  // there after another reload.
  await send(page, "And what is 3 + 3?");
  await expect(page.getByTestId("send-notice")).toContainText("Load a model on the CPU first");
  await expect(page.getByTestId("chat-input")).toHaveValue("And what is 3 + 3?");
  await page.reload();
  await expect(page.getByTestId("chat-input")).toHaveValue("And what is 3 + 3?");

  // The model, one click away under the kept conversation.
  const again = page.getByTestId("cpu-model-again");
  await expect(again).toContainText("SmolLM2 135M Instruct (Q4_1) is not loaded in this page");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/cpu-model-again-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("cpu-model-again-button").click();
  await modelReady(page);
  await expect(again).toHaveCount(0);
  // Loaded again under the person's protocol, not the model's recommended one.
  await expect(page.getByTestId("protocol-select")).toHaveValue("hermes");

  // The kept message goes now, and its prompt holds the earlier one (the conversation is whole).
  await page.getByTestId("chat-input").press("Enter");
  await expect(page.getByTestId("message-user")).toHaveCount(2);
  await expect(page.getByTestId("chat-input")).toHaveValue("");
  const reply = page.getByTestId("message-assistant").last();
  await expect(reply).not.toHaveAttribute("data-status", /^(running|streaming)$/, { timeout: LONG });
  await expect(reply).not.toHaveAttribute("data-status", "engine-error");
  const step = page.getByTestId("step-item").last();
  await expect(step).toContainText("hermes");
  await step.click();
  const prompt = await shownPrompt(page);
  expect(prompt).toContain("<|im_start|>user\nWhat is 2 + 2?<|im_end|>");
  expect(prompt).toContain("<|im_start|>user\nAnd what is 3 + 3?<|im_end|>\n<|im_start|>assistant\n");
  expect(uncaught).toEqual([]);
});
