// Format drift in an evaluation: a failed case whose protocol found no call, where another
// protocol's parser found calls, is counted apart from "no call" and "wrong call"; the decision
// point's probability of a call is kept per case and averaged per row.
import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Engine, EngineChunk, ToolCall } from "toolcall-middleware/types.ts";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { matrixTable } from "./matrix-table.ts";
import { readResultsFile, toResultsFile } from "./results-file.ts";
import { runEvalCase } from "./run-case.ts";
import { summarise } from "./summary.ts";

function engineWriting(text: string, p?: number): Engine {
  return {
    name: "test",
    ...(p !== undefined ? { tokenProbabilities: { supported: true } } : {}),
    async *generate(): AsyncGenerator<EngineChunk> {
      yield { type: "text", text, ...(p !== undefined ? { tokens: [{ text, p, top: [{ text, p }, { text: "I", p: 1 - p }] }] } : {}) };
      yield { type: "usage", usage: { finishReason: "stop" } };
    },
  };
}
const call: Omit<ToolCall, "id"> = { name: "math.factorial", arguments: { number: 5 } };
const written = (name: string) => getProtocol(name)!.renderAssistant({ role: "assistant", content: "", toolCalls: [{ id: "c0", ...call }] });

describe("format drift in an evaluation", () => {
  it("names the formats of a failed case's calls written in another protocol, and averages the decision point's p", async () => {
    const testCase = bfclCase("simple_python_1");
    const hermes = getProtocol("hermes")!;
    const drifted = await runEvalCase({ engine: engineWriting(written("pythonic"), 0.25), mode: "prompt", protocol: hermes, testCase, constrained: false });
    expect(drifted!.result.pass).toBe(false);
    expect(drifted!.result.drift).toContain("pythonic");
    const right = await runEvalCase({ engine: engineWriting(written("hermes"), 0.75), mode: "prompt", protocol: hermes, testCase, constrained: false });
    expect(right!.result.pass).toBe(true);
    expect(right!.result.drift).toBeUndefined();
    expect(right!.result.callP).toBe(0.75);
    const prose = await runEvalCase({ engine: engineWriting("I do not know."), mode: "prompt", protocol: hermes, testCase, constrained: false });
    expect(prose!.result.drift).toBeUndefined();
    expect(prose!.result.callP).toBeUndefined();

    const results = [drifted!.result, right!.result, prose!.result];
    const all = summarise(results.map((r) => ({ ...r, category: "all" })))[0]!;
    expect(all.drift).toBe(1);
    expect(all.callPCount).toBe(2);
    expect(all.meanCallP).toBeCloseTo(0.375, 10); // the pythonic reply opened no Hermes call: its p of a <tool_call> was not recorded (0)
    expect(matrixTable(results)).toMatch(/drift\s+call p/);
    expect(matrixTable(results)).toContain("1 of 2 failed");
    expect(matrixTable(results)).toContain("0.38 (n=2)");
    // The results file keeps both, and reads them back.
    const back = readResultsFile(JSON.stringify(toResultsFile(results)), () => "simple_python");
    expect(back.map((r) => r.drift)).toEqual([drifted!.result.drift, undefined, undefined]);
    expect(back.map((r) => r.callP)).toEqual([null, 0.75, undefined]);
  });

  it("with a pause (the Evaluate view), reads the drift in pieces with turns between them, and finds the same", async () => {
    const testCase = bfclCase("simple_python_1");
    const hermes = getProtocol("hermes")!;
    let pauses = 0;
    const paced = await runEvalCase({ engine: engineWriting(written("pythonic"), 0.25), mode: "prompt", protocol: hermes, testCase, constrained: false, pause: async () => {
      pauses += 1;
    } });
    const whole = await runEvalCase({ engine: engineWriting(written("pythonic"), 0.25), mode: "prompt", protocol: hermes, testCase, constrained: false });
    expect(paced!.result.drift).toEqual(whole!.result.drift);
    expect(paced!.result.drift).toContain("pythonic");
    expect(pauses).toBeGreaterThan(0);
  });
});
