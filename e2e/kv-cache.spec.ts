// Prefix reuse and constrained tool calls through the app. WebLLM's own engine runs in the
// harness's worker with the scripted stand-in for the GPU (which counts what WebLLM prefills);
// the page is the app, talking to it with its own client. The replay part needs no harness.
import { expect, test, type Page } from "@playwright/test";
import type { ScriptedGeneration } from "../src/engine/webllm/testing/scripted-pipeline.ts";
import { openLab, send } from "./lab-helpers.ts";
import { buildAndServeHarness, type HarnessServer } from "./webllm-harness/serve.ts";

const MODEL = "Qwen3-0.6B-q4f32_1-MLC";
const CALL = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "6 * 7"}}\n</tool_call>';

/** The prompt as the debugger shows it: its text, tool block included, without the block's summary line. */
function shownPrompt(page: Page): Promise<string> {
  return page.getByTestId("prompt-view").evaluate((view) => {
    const copy = view.cloneNode(true) as HTMLElement;
    for (const summary of copy.querySelectorAll("summary")) summary.remove();
    return copy.textContent ?? "";
  });
}

test.describe("WebLLM's chat path in the app", () => {
  let harness: HarnessServer;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    harness = await buildAndServeHarness();
  });
  test.afterAll(async () => {
    await harness?.close();
  });

  async function openApp(page: Page, scripts: ScriptedGeneration[]) {
    await page.goto(`${harness.url}?engine=webllm`);
    await page.waitForFunction(() => typeof window.harness === "object");
    await page.evaluate((s) => window.harness.script(s), scripts);
    await page.getByTestId("model-select").selectOption(MODEL);
    await page.getByTestId("load-model-button").click();
    await expect(page.getByTestId("engine-status")).toHaveAttribute("data-state", "ready");
  }

  test("step 2 of a tool loop prefills only its new part; the cache holds exactly the prompt the debugger shows, and the debugger says so", async ({ page }) => {
    const first = `<think>\nThe calculator can do it.\n</think>\n\n${CALL}`;
    await openApp(page, [{ output: first }, { output: "<think>\nDone.\n</think>\n\n6 × 7 = 42." }]);
    await send(page, "What is 6 × 7?");
    await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
    await expect(page.getByTestId("step-item")).toHaveCount(2);

    const state = await page.evaluate(() => window.harness.state());
    const [round1, round2] = state.records;
    expect(round2!.prefilledTokens).toBeLessThan(round1!.prefilledTokens / 4);
    // The new round begins with the end of the reply before it, which WebLLM's cache lacks.
    expect(round2!.prompt.startsWith("<|im_end|>\n<|im_start|>user\n<tool_response>")).toBe(true);

    await page.locator('[data-testid=step-item][data-status="final"]').click();
    await expect(page.getByTestId("step-prefill")).toContainText(`${round2!.prefilledTokens.toLocaleString("en-US")} tokens prefilled`);
    await expect(page.getByTestId("step-prefill")).toContainText("reused from the step before");
    await expect(page.getByTestId("step-speed")).toContainText("first token");
    // What the model's cache holds: round 1's prompt, the reply's tokens (not its stop token), round 2's prompt.
    expect(await shownPrompt(page)).toBe(round1!.prompt + first + round2!.prompt);

    await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
    await expect(page.getByTestId("step-prefill")).toContainText(`${round1!.prefilledTokens.toLocaleString("en-US")} tokens prefilled (whole prompt)`);
    expect(await shownPrompt(page)).toBe(round1!.prompt);
  });
});

test("with the replay engine, a constrained step records the setting and says the engine cannot constrain", async ({ page }) => {
  await openLab(page, "hermes-calculator");
  await page.getByTestId("setting-constrain").check();
  await page.getByTestId("setting-tool-choice").selectOption("required");
  await send(page, "What is 1234 × 5678?");
  await expect(page.locator('[data-testid=step-item][data-status="final"]')).toHaveCount(1);
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').click();
  await expect(page.getByTestId("step-constraint")).toContainText("Constrained tool calls, required (at least one call): not applied — the replay engine plays recorded output and cannot constrain it.");
  await expect(page.getByTestId("structural-tag-json")).toHaveCount(0);
});
