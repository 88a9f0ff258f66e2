// A reply that falls into a loop is stopped there (the request aborted), and the case fails with
// a reason that says why; a reply that does not loop is untouched.
import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Engine, EngineChunk } from "toolcall-middleware/types.ts";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { caseTiming } from "./case-timing.ts";
import { withRepetitionStop } from "./repetition-stop.ts";
import { runEvalCase } from "./run-case.ts";

/** An engine that streams the given pieces one chunk each, and says how far it got and whether its request was stopped before the last. */
function scriptedEngine(pieces: string[]): Engine & { sent: number; aborted: boolean } {
  const engine = {
    name: "scripted",
    sent: 0,
    aborted: false,
    async *generate(_prompt: string, _settings: unknown, signal: AbortSignal): AsyncGenerator<EngineChunk> {
      signal.addEventListener("abort", () => {
        if (engine.sent < pieces.length) engine.aborted = true;
      });
      for (const text of pieces) {
        if (signal.aborted) return;
        engine.sent += 1;
        yield { type: "text", text };
      }
      yield { type: "usage", usage: { completionTokens: pieces.length, finishReason: "length", cutOff: "max-tokens" } };
    },
  };
  return engine;
}

describe("withRepetitionStop", () => {
  it("stops a looping reply once its end is a block repeated, aborts the request, and the case fails saying so", async () => {
    const loop = Array.from({ length: 60 }, () => "    b_field = b_field * 2\n");
    const engine = scriptedEngine(["def area(a):\n", ...loop]);
    const run = await runEvalCase({ engine: withRepetitionStop(engine), mode: "prompt", protocol: getProtocol("hermes")!, testCase: bfclCase("irrelevance_0"), constrained: false });
    // 26 characters a copy: the 8th copy makes 208 ≥ 200 characters.
    expect(engine.sent).toBe(1 + 8);
    expect(engine.aborted).toBe(true);
    expect(run?.result.pass).toBe(false);
    expect(run?.result.reason).toMatch(/failed to run: .*Stopped by the evaluation: degenerate repetition \(the reply's last 208 characters are 8 copies of/);
    expect(caseTiming(run!.events).end).toBe("repetition");
  });

  it("leaves a reply that does not loop as it is: the case is scored on all of it", async () => {
    const engine = scriptedEngine(Array.from({ length: 60 }, (_, i) => `line ${i} of an answer that goes on\n`));
    const run = await runEvalCase({ engine: withRepetitionStop(engine), mode: "prompt", protocol: getProtocol("hermes")!, testCase: bfclCase("irrelevance_0"), constrained: false, generation: { maxTokens: 60 } });
    expect(engine.sent).toBe(60);
    expect(engine.aborted).toBe(false);
    // Cut at the budget: it ran and was cut, it did not fail to run.
    expect(run?.result).toMatchObject({ pass: false, reason: "cut off at max tokens (60)" });
    expect(caseTiming(run!.events).end).toBe("max-tokens");
  });
});
