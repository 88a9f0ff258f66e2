// The opener probe in the page: SmolLM2 135M on the CPU engine (llama.cpp in WebAssembly, which
// runs llama-server's own code), one tool, greedy, 8 tokens. After the step, the engine writes
// the protocol's marker in the GGUF tokenizer's own token ids under a grammar of those ids
// (`<[id]>`) and records each token's probability before the grammar: the decision point says
// "measured". Asserted on what the page shows of the runtime's numbers, never on the model's words.
import { existsSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { modelPath, readManifest } from "../scripts/real-models/cache-dir.mjs";
import { loadSmolLm2OnTheCpu, send } from "./lab-helpers.ts";

const smollm2 = readManifest().models.find((m) => m.id === "smollm2-135m-instruct-q4_1")!;
test.describe.configure({ timeout: 420_000 });
const missing = existsSync(modelPath(smollm2)) ? undefined : "SmolLM2 is not in the model cache: run `npm run models`";
if (missing && process.env.CI) throw new Error(`the CPU engine's real-model tests must run in CI, but ${missing}`);
test.skip(missing !== undefined, missing);

test("a CPU step without a call measures the opener's probability at its decision point", async ({ page }) => {
  await loadSmolLm2OnTheCpu(page);
  await send(page, "Hello! Who are you?");
  const step = page.getByTestId("step-item").last();
  await expect(step).not.toHaveAttribute("data-status", /^(running|streaming)$/, { timeout: 300_000 });
  await step.click();
  const decision = page.getByTestId("decision-point");
  await expect(decision).toHaveAttribute("data-kind", "no-call");
  await expect(decision).toContainText("a call would have opened with `<tool_call>` at p = ");
  await expect(decision).toContainText("(measured: the product of its");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("step-decision").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/cpu-opener-probe-${width}.png` });
  }
});
