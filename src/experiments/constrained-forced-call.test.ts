// "Force a call here", constrained, on the CPU engine: the branch keeps the output up to the
// decision point and generates on under the protocol's grammar for a required call (llama.cpp's
// grammar in the completion, wllama having no lazy grammars). The branch's prompt is the original
// plus that kept prefix, which no chat turns can give: the CPU engine constrains the raw prompt's
// continuation, so the constraint must not be dropped for want of chat turns (it was: the branch
// ran unconstrained, went on as the original had, and came out "no call"). Shown here with the
// protocol derived from IBM Granite 4.0's template (the fixture of e2e/gguf-unknown-family.spec.ts)
// and with a hand-written one.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeDerivedCalls } from "toolcall-middleware/derive/derived-protocol.ts";
import { GbnfMatcher } from "toolcall-middleware/grammar/testing/gbnf-matcher.ts";
import { drive } from "toolcall-middleware/loop/test-support/drive.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { LoopEvent, Protocol } from "toolcall-middleware/types.ts";
import type { CompletionBody } from "../engine/cpu/completion-body.ts";
import { CpuEngine, type CompletionChunk } from "../engine/cpu/cpu-engine.ts";
import { deriveFromTemplate } from "../engine/templates/derived-from-template.ts";
import { runBranch, type BranchRequest } from "./branch-run.ts";

const GRANITE = readFileSync(join(import.meta.dirname, "../engine/templates/llama-cpp-templates/ibm-granite-granite-4.0.jinja"), "utf8");
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };
const calculator = { name: "calculator", description: "Evaluates an arithmetic expression.", parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] } };

/** wllama's edge: records each completion body and answers with `output`. */
function runtimeAnswering(output: string) {
  const bodies: CompletionBody[] = [];
  return {
    bodies,
    complete: async (body: CompletionBody) => {
      bodies.push(body);
      const chunks: CompletionChunk[] = [
        { choices: [{ text: output, finish_reason: null }] },
        { choices: [{ text: "", finish_reason: "stop" }], timings: { prompt_n: 1, cache_n: 0, predicted_n: 20 } },
      ];
      return (async function* () {
        yield* chunks;
      })();
    },
  };
}

/** The branch "Force a call here" with "constrained" asks for: the output kept up to the decision point, a required call under the grammar. */
function forcedConstrained(protocol: Protocol, kept: string): BranchRequest {
  return {
    origin: { runId: "r", stepId: "r:1" },
    protocol,
    tools: [calculator],
    messages: [{ role: "user", content: "What is 17 * 23?" }],
    prompt: "<|start_of_role|>user<|end_of_role|>What is 17 * 23?<|end_of_text|>\n<|start_of_role|>assistant<|end_of_role|>",
    templateMessages: [],
    template: { name: "granite-shaped-smollm2.gguf", controlTokens: [] },
    settings: { temperature: 0, maxTokens: 64 },
    changes: ["forced a call at token 3"],
    toolTimeoutMs: 1000,
    forced: { offset: kept.length, token: "<tool_call>", replaced: " is", prefix: kept },
    force: "call",
    constrain: { toolChoice: "required" },
  };
}

const derived = deriveFromTemplate(GRANITE, "granite-shaped-smollm2.gguf", BUDGET);
if (!derived.ok) throw new Error(derived.reason);

describe("a constrained forced call on the CPU engine", () => {
  const cases: Array<[string, Protocol, string]> = [
    ["the format derived from Granite 4.0's template", derived.protocol, writeDerivedCalls(derived.format, [{ id: "c0", name: "calculator", arguments: { expression: "17 * 23" } }])],
    ["hermes", getProtocol("hermes")!, '<tool_call>\n{"name": "calculator", "arguments": {"expression": "17 * 23"}}\n</tool_call>'],
  ];
  for (const [label, protocol, call] of cases) {
    it(`${label}: the branch records the required call's structural tag, sends its grammar with the original prompt plus the kept text, and the call it allows is read as the call`, async () => {
      const kept = "17 * 23";
      const runtime = runtimeAnswering(call);
      const engine = new CpuEngine({ name: "cpu: smollm2", runtime, bos: { runtimeAddsBos: false } });
      const request = forcedConstrained(protocol, kept);
      const { events, result } = await drive(runBranch(request, { engine }, new AbortController().signal));
      const start = events.find((e): e is Extract<LoopEvent, { type: "step-start" }> => e.type === "step-start")!;
      expect(start.constraint?.unsupported).toBeUndefined();
      expect(start.constraint).toEqual({ toolChoice: "required", structuralTag: protocol.structuralTag!([calculator], "required") });
      expect(start.prompt).toBe(request.prompt + kept);
      expect(runtime.bodies).toHaveLength(1);
      const grammar = runtime.bodies[0]!.grammar;
      expect(grammar).toBeDefined();
      // The grammar holds the continuation after the kept text: the call comes first, and nothing else may.
      const matcher = new GbnfMatcher(grammar!);
      expect(matcher.accepts(call)).toBe(true);
      expect(matcher.accepts(` is 391.`)).toBe(false);
      expect(result.output.rawOutput).toBe(kept + call);
      expect(result.output.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual([{ name: "calculator", arguments: { expression: "17 * 23" } }]);
      expect(result.status).toBe("tool-calls");
    });
  }
});
