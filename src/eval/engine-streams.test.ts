// The eval's engine wrappers (the deadline without tokens, the view's pacing) must leave what the
// engine can do unchanged: a wrapper that hid `tokenProbabilities` made every eval case lose its
// decision-point probability (call p) without a word.
import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Engine, EngineChunk, GenerationRequest } from "toolcall-middleware/types.ts";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { runEvalCase } from "./run-case.ts";
import { withTokenDeadline } from "./token-deadline.ts";

/** An engine with token probabilities that opens a hermes call at p = 0.25 (the alternative "I" at 0.5). */
function probabilityEngine(): Engine & { requests: Array<GenerationRequest | undefined> } {
  const requests: Array<GenerationRequest | undefined> = [];
  return {
    name: "test",
    requests,
    tokenProbabilities: { supported: true },
    async *generate(_prompt, _settings, _signal, request): AsyncGenerator<EngineChunk> {
      requests.push(request);
      const tokens = [
        { text: "<tool_call>", p: 0.25, top: [{ text: "I", p: 0.5 }, { text: "<tool_call>", p: 0.25 }] },
        { text: '\n{"name": "math.factorial", "arguments": {"number": 5}}\n</tool_call>', p: 0.9, top: [] },
      ];
      yield { type: "text", text: tokens.map((t) => t.text).join(""), tokens };
      yield { type: "usage", usage: { completionTokens: 2, finishReason: "stop" } };
    },
  };
}

describe("eval engine wrappers", () => {
  it("the deadline without tokens keeps the engine's token probabilities: the case asks for them and records call p", async () => {
    const engine = probabilityEngine();
    const wrapped = withTokenDeadline(engine, 60_000);
    expect(wrapped.tokenProbabilities).toEqual({ supported: true });
    const run = await runEvalCase({ engine: wrapped, mode: "prompt", protocol: getProtocol("hermes")!, testCase: bfclCase("simple_python_1"), constrained: false });
    expect(engine.requests[0]?.topProbabilities).toBe(5);
    expect(run?.result).toMatchObject({ pass: true, callP: 0.25 });
  });
});
