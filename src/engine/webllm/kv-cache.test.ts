// WebLLM's own engine (MLCEngine, its chat path and KV-cache bookkeeping) with the scripted
// stand-in for the GPU, driven by the lab's loop and WebLlmEngine: from step 2 of a tool loop on,
// WebLLM prefills only what is new, and what its cache holds is exactly the prompt each step
// recorded (the prompt the debugger shows).
import "fake-indexeddb/auto";
import { beforeAll, describe, expect, it } from "vitest";
import type { ToolSpec } from "../../middleware/types.ts";
import { createToolbox } from "../../tools/index.ts";
import { runPrefillScenario, type PrefillStep } from "./testing/prefill-scenario.ts";

const tools: ToolSpec[] = createToolbox().map(({ name, description, parameters }) => ({ name, description, parameters }));

describe("prefix reuse on WebLLM's chat path", () => {
  beforeAll(() => runPrefillScenario("hermes", tools.slice(0, 1)), 120_000);

  for (const protocol of ["hermes", "xml", "qwen3-coder"]) {
    for (const thinking of [true, false]) {
      it(`${protocol}, thinking ${thinking ? "on" : "off"}: steps 2–4 prefill only their new tokens, and the cache holds each step's prompt`, async () => {
        const steps = await runPrefillScenario(protocol, tools, { thinking });
        expect(steps).toHaveLength(4);
        for (const step of steps) expect(step.cacheIsPrompt, `step ${step.step}`).toBe(true);
        const [first, ...later] = steps as [PrefillStep, ...PrefillStep[]];
        expect(first.prefilledTokens).toBe(first.promptTokens);
        for (const step of later) {
          expect(step.fullPrefillReason).toBeUndefined();
          expect(step.prefilledTokens).toBe(step.newTokens);
          expect(step.prefilledTokens).toBeLessThan(step.promptTokens / 4);
        }
      });
    }
  }

  it("on the raw path every step prefills its whole prompt (what the chat path saves)", async () => {
    const steps = await runPrefillScenario("hermes", tools, { chatPath: false });
    for (const step of steps) expect(step.prefilledTokens).toBe(step.promptTokens);
  });
});
