// Every registered protocol's own well-formed call, as its samples write it (the history's form,
// and the form its prompt asks for where that differs), scores as a strict pass through the
// eval's whole path: the loop's first step, its parse events, the outcome, the scorer.
import { describe, expect, it } from "vitest";
import { protocolsWithSamples } from "toolcall-middleware/protocols/testing/protocol-samples.ts";
import type { Engine, EngineChunk, ToolCall } from "toolcall-middleware/types.ts";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { readsValuesAsText, runEvalCase } from "./run-case.ts";
import { importBfclSuite, type EvalCase } from "./suite.ts";

function replying(text: string): Engine {
  return {
    name: "test",
    async *generate(): AsyncGenerator<EngineChunk> {
      yield { type: "text", text };
      yield { type: "usage", usage: { completionTokens: 9, finishReason: "stop" } };
    },
  };
}

/** The case: calculator(expression="2+2"), a string argument. */
function calculatorCase(): EvalCase {
  const question = {
    id: "simple_python_900",
    question: [[{ role: "user", content: "What is 2+2?" }]],
    function: [{ name: "calculator", description: "Evaluates an arithmetic expression.", parameters: { type: "dict", properties: { expression: { type: "string", description: "The expression." } }, required: ["expression"] } }],
  };
  const answer = { id: "simple_python_900", ground_truth: [{ calculator: { expression: ["2+2"] } }] };
  const imported = importBfclSuite({ questions: JSON.stringify(question), answers: JSON.stringify(answer) });
  if (!imported.ok) throw new Error(imported.error);
  return imported.cases[0]!;
}

const cases: Array<{ testCase: () => EvalCase; call: ToolCall }> = [
  { testCase: calculatorCase, call: { id: "c1", name: "calculator", arguments: { expression: "2+2" } } },
  // simple_python_0: calculate_triangle_area(base=10, height=5), integers.
  { testCase: () => bfclCase("simple_python_0"), call: { id: "c1", name: "calculate_triangle_area", arguments: { base: 10, height: 5 } } },
];

describe("each protocol's own form scores as a strict pass", async () => {
  const all = await protocolsWithSamples();
  it("covers every registered protocol", () => {
    expect(all.length).toBeGreaterThanOrEqual(18);
  });
  for (const { protocol, samples } of all) {
    const forms: Array<[string, (call: ToolCall) => string]> = [["as the history writes it", samples.benchOutput]];
    if (samples.promptedOutput) forms.push(["as its prompt asks for it", samples.promptedOutput]);
    for (const [how, write] of forms) {
      it(`${protocol.name}: a right call ${how}`, async () => {
        for (const { testCase, call } of cases) {
          const output = write(call);
          const run = await runEvalCase({ engine: replying(output), mode: "prompt", protocol, testCase: testCase(), constrained: false, valuesAsText: readsValuesAsText(protocol) });
          const repairs = run!.events.flatMap((e) => (e.type === "parse" && e.event.type === "repair" ? [e.event.kind] : []));
          expect({ output, verdict: run?.result && { pass: run.result.pass, strictPass: run.result.strictPass, reason: run.result.reason } }).toEqual({ output, verdict: { pass: true, strictPass: true, reason: "" } });
          // Where values are text by design (XML-style) reading them is the protocol's own; nothing else is repaired.
          expect(repairs.filter((kind) => kind !== "coerce")).toEqual([]);
        }
      });
    }
  }

  it('pythonic: the issue\'s own output, [calculator(expression="2+2")], with no repair at all', async () => {
    const pythonic = all.find((x) => x.protocol.name === "pythonic")!.protocol;
    const run = await runEvalCase({ engine: replying('[calculator(expression="2+2")]'), mode: "prompt", protocol: pythonic, testCase: calculatorCase(), constrained: false });
    expect(run?.result).toMatchObject({ pass: true, strictPass: true, reason: "", calls: [{ name: "calculator", arguments: { expression: "2+2" } }] });
    expect(run!.events.some((e) => e.type === "parse" && e.event.type === "repair")).toBe(false);
  });

  it("a markerless call in a protocol that asks for markers is still a repair: hermes's bare JSON passes, not strictly", async () => {
    const hermes = all.find((x) => x.protocol.name === "hermes")!.protocol;
    const run = await runEvalCase({ engine: replying('{"name": "calculator", "arguments": {"expression": "2+2"}}'), mode: "prompt", protocol: hermes, testCase: calculatorCase(), constrained: false });
    expect(run?.result).toMatchObject({ pass: true, strictPass: false, reason: expect.stringContaining("without the protocol's markers") });
  });
});
