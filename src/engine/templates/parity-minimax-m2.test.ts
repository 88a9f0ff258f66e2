// MiniMax M2 with its trained minimax-m2 protocol against MiniMax's own chat template (llama.cpp
// de3ff815's copy, fixtures/MiniMax-M2.jinja, see SOURCES.md), rendered by @huggingface/jinja from
// the same conversation, tools and add_generation_prompt. One difference, stated in each case: the
// template opens the reply's think block (`<think>\n`), which the lab leaves to the model (its
// parser reads the model's own tag). (Unsloth's copy, the earlier fixture, also wrote a line break
// after a call turn's </minimax:tool_call> from a comment line it added; MiniMax's own does not, nor
// does the lab.)
import { describe, expect, it } from "vitest";
import { parseText } from "toolcall-middleware/parser/test-fixtures.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage, ToolSpec } from "toolcall-middleware/types.ts";
import { familyOfServerModel } from "toolcall-middleware/families/registry.ts";
import { SYSTEM, call, callWithReasoning, commonScenarios, fixture, official, ours, result, type ParityScenario } from "./parity-harness.ts";

const MODELS = ["MiniMaxAI/MiniMax-M2", "MiniMaxAI/MiniMax-M2.1"];
const template = fixture("MiniMax-M2.jinja");
const OPENED_THINK = "<think>\n";

const typedValues = (protocol: string): ChatMessage[] => [
  { role: "user", content: "Round 2/3 to 4 places, exactly, in both modes." },
  { role: "assistant", content: "Let me compute that.", toolCalls: [call("c1", "calculator", { expression: "2/3", places: 4, exact: true, modes: ["fixed", "sci"], options: { base: 10, note: null } })], protocol },
  result("c1", "calculator", "0.6667"),
];

/** Interleaved thinking over two questions: the first question's reasoning goes, the current loop's stays. */
const interleaved = (protocol: string): ChatMessage[] => [
  ...callWithReasoning(protocol),
  { role: "assistant", content: "7006652.", reasoning: "The result came back.", protocol },
  { role: "user", content: "And 2^10?" },
  { role: "assistant", content: "", reasoning: "A power of two.", toolCalls: [call("c2", "calculator", { expression: "2^10" })], protocol },
  result("c2", "calculator", "1024"),
];

const scenarios: ParityScenario[] = [
  ...commonScenarios,
  ["reasoning, a call, result", callWithReasoning],
  ["a text before the call, values that are not strings", typedValues],
  ["interleaved thinking over a second question", interleaved],
];

describe("MiniMax M2: the minimax-m2 prompt is MiniMax's template's, tools included", () => {
  for (const [scenario, messagesFor] of scenarios) {
    for (const system of [SYSTEM, undefined]) {
      it(`${scenario}, ${system ? "a system prompt" : "no system prompt (the template's default one)"}`, () => {
        const messages = messagesFor("minimax-m2");
        const expected = official(template, messages, system, {});
        for (const model of MODELS) expect(ours(model, "minimax-m2", messages, system) + OPENED_THINK, model).toBe(expected);
      });
    }
  }

  it("the one difference is real: the template opens the think block; a call turn closes with [e~[ right after it in both", () => {
    const messages = commonScenarios[0]![1]("minimax-m2");
    const theirs = official(template, messages, undefined, {});
    expect(theirs).toContain("</minimax:tool_call>[e~[");
    expect(theirs.endsWith("]~b]ai\n<think>\n")).toBe(true);
    expect(ours(MODELS[0]!, "minimax-m2", messages, undefined)).toContain("</minimax:tool_call>[e~[");
  });

  it("interleaved thinking: the reasoning of the current loop is written back, the earlier question's is not", () => {
    const prompt = ours(MODELS[0]!, "minimax-m2", interleaved("minimax-m2"), undefined);
    expect(prompt).toContain("<think>\nA power of two.\n</think>\n\n");
    expect(prompt).not.toContain("I should use the calculator");
    expect(prompt).not.toContain("The result came back.");
  });

  it("a call written back in the template's form reads back as the same call, values with their types", () => {
    const typedTool: ToolSpec = {
      name: "calculator",
      description: "Evaluates an arithmetic expression.",
      parameters: { type: "object", properties: { expression: { type: "string" }, places: { type: "integer" }, exact: { type: "boolean" }, modes: { type: "array" }, options: { type: "object" } } },
    };
    const prompt = ours(MODELS[0]!, "minimax-m2", typedValues("minimax-m2"), undefined);
    const start = prompt.indexOf('<minimax:tool_call>\n<invoke name="calculator">');
    const turn = prompt.slice(start, prompt.indexOf("</minimax:tool_call>", start) + "</minimax:tool_call>".length);
    expect(turn).toContain('<parameter name="modes">["fixed", "sci"]</parameter>');
    const { calls } = parseText(getProtocol("minimax-m2")!, turn, [typedTool]);
    const sent = typedValues("minimax-m2")[1] as Extract<ChatMessage, { role: "assistant" }>;
    expect(calls.map((c) => c.arguments)).toEqual([sent.toolCalls![0]!.arguments]);
  });

  it("names resolve to this family", () => {
    for (const model of [...MODELS, "MiniMax-M2-GGUF"]) expect(familyOfServerModel(model)?.id, model).toBe("minimax-m2");
  });
});
