// DeepSeek-R1-Distill with the deepseek-v3 protocol (the nearest: its template writes DeepSeek's
// tool markers, and the model has no trained tool format of its own) against the template as
// llama.cpp keeps it for DeepSeek-R1-Distill-Qwen-32B (deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja),
// rendered by @huggingface/jinja from the same conversation. The template lists no tools: the
// protocol's tool section is the system text, given to the template as the system message.
// Three differences, each stated and applied to the template's output before comparing:
// the outputs are written as a <｜User｜> turn and the answer after them opens with <｜Assistant｜>
// (an mlc conv_template cannot write a turn without a role, and WebLLM's chat path needs one),
// and the reply is not opened with "<think>\n" (the lab's parser reads the model's own tag).
import { Template } from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage } from "toolcall-middleware/types.ts";
import { pyJson } from "toolcall-middleware/families/py-json.ts";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { SYSTEM, callWithReasoning, fixture, openAiMessages, parallelCalls, secondQuestion, singleCall, tools, type ParityScenario } from "./parity-harness.ts";

const template = fixture("deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja");
const models = ["DeepSeek-R1-Distill-Qwen-7B-q4f16_1-MLC", "DeepSeek-R1-Distill-Llama-8B-q4f32_1-MLC", "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B"];

/**
 * The template's rendering of the conversation as an OpenAI client sends it: a call turn's content
 * null (given "", the template writes an empty assistant turn after the calls), arguments as a JSON string.
 */
function official(messages: ChatMessage[], systemText: string | undefined): string {
  const wire = openAiMessages(messages, systemText).map((m) =>
    "tool_calls" in m ? { ...m, content: m.content || null, tool_calls: m.tool_calls!.map((c) => ({ ...c, function: { ...c.function, arguments: JSON.stringify(c.function.arguments) } })) } : m,
  );
  return new Template(template).render({ messages: wire, bos_token: "<｜begin▁of▁sentence｜>", add_generation_prompt: true });
}

/** The stated differences, applied to the template's output. */
const withLabDifferences = (out: string) =>
  out
    .replace(/<｜Assistant｜><think>\n$/, "<｜Assistant｜>")
    .replaceAll("<｜tool▁outputs▁begin｜>", "<｜User｜><｜tool▁outputs▁begin｜>")
    .replaceAll("<｜tool▁outputs▁end｜>", "<｜tool▁outputs▁end｜><｜Assistant｜>");

function ours(model: string, messages: ChatMessage[], system: string | undefined) {
  return renderModelPrompt({ modelId: model, protocol: getProtocol("deepseek-v3")!, tools, messages, systemPrompt: system ?? "" });
}

const answered = (protocol: string): ChatMessage[] => [...singleCall(protocol), { role: "assistant", content: "It is 7,006,652.", protocol }, { role: "user", content: "Thanks!" }];
const scenarios: ParityScenario[] = [
  ["single call, result", singleCall],
  ["reasoning, a call, result (the think block is not written back)", callWithReasoning],
  ["parallel calls, results", parallelCalls],
  ["an answer after the outputs, a second user turn", answered],
];

describe("DeepSeek-R1-Distill with deepseek-v3: the template's calls and outputs", () => {
  for (const [scenario, messagesFor] of scenarios) {
    for (const system of [SYSTEM, undefined]) {
      it(`${scenario}, ${system ? "a system prompt" : "no system prompt"}`, () => {
        const messages = messagesFor("deepseek-v3");
        for (const model of models) {
          const { prompt, templateMessages } = ours(model, messages, system);
          const systemText = templateMessages[0]?.role === "system" ? templateMessages[0].content : undefined;
          expect(systemText).toContain("## Tools");
          const raw = official(messages, systemText);
          expect(prompt, model).toBe(withLabDifferences(raw));
        }
      });
    }
  }

  it("a second round of calls and outputs: the template never resets its first-call and first-output flags and drops their opening markers; the lab opens every round", () => {
    const messages = secondQuestion("deepseek-v3");
    const { prompt, templateMessages } = ours(models[0]!, messages, undefined);
    const raw = official(messages, templateMessages[0]!.content);
    // Counted after the system text (the protocol's tool section shows the markers once).
    const turns = (text: string) => text.slice(text.indexOf("<｜User｜>"));
    expect(turns(raw).split("<｜tool▁calls▁begin｜>")).toHaveLength(2);
    expect(turns(raw).split("<｜tool▁outputs▁begin｜>")).toHaveLength(2);
    expect(turns(prompt).split("<｜tool▁calls▁begin｜>")).toHaveLength(3);
    expect(turns(prompt).split("<｜tool▁outputs▁begin｜>")).toHaveLength(3);
    // Up to the second round, equal.
    const firstRound = "<｜User｜>And the time in Seoul?";
    expect(prompt.slice(0, prompt.indexOf(firstRound))).toBe(withLabDifferences(raw.slice(0, raw.indexOf(firstRound))));
  });

  it("without tools: the template's framing; an earlier answer's think block is dropped as the template drops it", () => {
    const plain: ChatMessage[] = [
      { role: "user", content: "Hello" },
      { role: "assistant", content: "Hi! How can I help?", reasoning: "The user greets me." },
      { role: "user", content: "What is 2 + 2?" },
    ];
    for (const system of [SYSTEM, undefined]) {
      for (const model of models) {
        const prompt = renderModelPrompt({ modelId: model, protocol: getProtocol("deepseek-v3")!, tools: [], messages: plain, systemPrompt: system ?? "" }).prompt;
        const raw = new Template(template).render({
          // The model's own text, its think block included: the template keeps what follows </think>.
          messages: openAiMessages([plain[0]!, { role: "assistant", content: "<think>\nThe user greets me.\n</think>\n\nHi! How can I help?" }, plain[2]!], system),
          bos_token: "<｜begin▁of▁sentence｜>",
          add_generation_prompt: true,
        });
        // The template keeps the blank line after </think>; the lab writes the answer as the parser separated it.
        expect(prompt, model).toBe(withLabDifferences(raw).replace("<｜Assistant｜>\n\nHi!", "<｜Assistant｜>Hi!"));
      }
    }
  });
});

describe("DeepSeek-R1-Distill: llama.cpp's current copy (de3ff815) is the template with llama.cpp's own edits", () => {
  // llama.cpp's copy (fixtures/llama-cpp-deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja) `tojson`s
  // arguments it is given as objects (Python's spacing) where the model's template writes the
  // client's JSON string as sent, and closes the opened think block (`</think>`) unless
  // `enable_thinking` is set, a switch the R1-Distill models do not have (they always think). The
  // lab follows the model's template (the reference above); this checks those edits are the only
  // differences.
  const LLAMA_CPP = fixture("llama-cpp-deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja");
  const render = (source: string, messages: ChatMessage[], argumentsAs: (args: Record<string, unknown>) => unknown, extra: Record<string, unknown>) => {
    const wire = openAiMessages(messages, SYSTEM).map((m) =>
      "tool_calls" in m ? { ...m, content: m.content || null, tool_calls: m.tool_calls!.map((c) => ({ ...c, function: { ...c.function, arguments: argumentsAs(c.function.arguments) } })) } : m,
    );
    return new Template(source).render({ messages: wire, bos_token: "<｜begin▁of▁sentence｜>", add_generation_prompt: true, ...extra });
  };
  const firstTurn = (): ChatMessage[] => [{ role: "user", content: "What is 1234 * 5678?" }];
  for (const [scenario, messagesFor] of [["the first turn", firstTurn], ...scenarios] as ParityScenario[]) {
    it(`${scenario}: only tojson'd arguments and the </think> without enable_thinking differ`, () => {
      const messages = messagesFor("deepseek-v3");
      const models = render(template, messages, (args) => pyJson(args), {});
      expect(render(LLAMA_CPP, messages, (args) => args, { enable_thinking: true })).toBe(models);
      const closed = render(LLAMA_CPP, messages, (args) => args, {});
      expect(closed).toBe(models.endsWith("<｜Assistant｜><think>\n") ? `${models}</think>` : models);
    });
  }
});
