// Gemma 4's prompt for its trained protocol (gemma4), tools included, against Google's current
// chat template as llama.cpp keeps it (models/templates/google-gemma-4-31B-it.jinja at de3ff815;
// packages/toolcall-middleware/src/families/fixtures/, SOURCES.md), rendered by @huggingface/jinja
// from the same conversation, tools and add_generation_prompt: byte for byte. A result whose text
// is JSON is given as its value (as vLLM's Gemma 4 template parses it, and Gemma's docs show).
//
// The template reads a turn's results from the message that made the calls (`tool_responses`, a
// list of {name, response}); it has no branch for OpenAI's `role: "tool"` messages (it would
// write them as a "tool" turn of bare text, a shape the model was not trained on). So the
// conversation is given to it in that shape: each assistant message that made calls carries the
// results that follow it, and the model's reply after them is that same message's content (the
// model writes it in the same turn, right after the results).
import { Template } from "@huggingface/jinja";
import { beforeAll, describe, expect, it } from "vitest";
import { chatPathConvTemplate } from "toolcall-middleware/families/chat-path.ts";
import type { ModelChatTemplate } from "toolcall-middleware/families/conv-template.ts";
import { chatTemplateForModel, familyOfModel, familyOfServerModel, familyOfWebLlmModel, recommendedProtocol, samplingDefaultsFor } from "toolcall-middleware/families/registry.ts";
import type { ChatMessage, TemplateMessage } from "toolcall-middleware/types.ts";
import { loadWebLlmGetConversation } from "./webllm-conversation.test-helper.ts";
import { SYSTEM, callWithReasoning, commonScenarios, fixture, jsonResults, openAiTools, ours, parsedJsonResults, tools, type ParityScenario } from "./parity-harness.ts";
import { gemmaDeclaration, gemmaValue } from "toolcall-middleware/protocols/gemma4/gemma-calls.ts";

const GEMMA4_TEMPLATE = "google-gemma-4-31B-it.jinja";
const MODELS = ["gemma-4-E2B-it-q4f16_1-MLC", "gemma-4-E2B-it-q4f32_1-MLC", "google/gemma-4-E2B-it", "google/gemma-4-31B-it"];

type GemmaMessage = Record<string, unknown>;

/** The conversation in the shape Gemma 4's template reads (see the head of this file). */
function gemmaMessages(messages: ChatMessage[], system: string | undefined): GemmaMessage[] {
  const out: GemmaMessage[] = system !== undefined ? [{ role: "system", content: system }] : [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== "assistant" || !message.toolCalls?.length) {
      out.push({ role: message.role, content: message.content });
      continue;
    }
    const responses: Array<{ name: string; response: unknown }> = [];
    while (messages[i + 1]?.role === "tool") {
      const result = messages[++i] as Extract<ChatMessage, { role: "tool" }>;
      responses.push({ name: result.name, response: parsedJsonResults([{ role: "tool", content: result.content }])[0]!.content });
    }
    const reply = messages[i + 1];
    const continued = responses.length > 0 && reply?.role === "assistant" && !reply.toolCalls?.length ? (i++, reply.content) : message.content;
    out.push({
      role: "assistant",
      content: continued,
      ...(message.reasoning !== undefined ? { reasoning_content: message.reasoning } : {}),
      tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
      ...(responses.length > 0 ? { tool_responses: responses } : {}),
    });
  }
  return out;
}

function officialGemma4(messages: ChatMessage[], system: string | undefined, thinking: boolean | undefined, tools = openAiTools, template = GEMMA4_TEMPLATE): string {
  return new Template(fixture(template)).render({
    messages: gemmaMessages(messages, system),
    ...(tools.length > 0 ? { tools } : {}),
    add_generation_prompt: true,
    bos_token: "<bos>",
    ...(thinking === undefined ? {} : { enable_thinking: thinking }),
  });
}

const scenarios: ParityScenario[] = [...commonScenarios, ["reasoning, a call, result", callWithReasoning], ["results whose text is JSON", jsonResults]];

describe("Gemma 4: the gemma4 prompt is Google's current template's, tools included", () => {
  for (const [scenario, messagesFor] of scenarios) {
    for (const system of [SYSTEM, undefined]) {
      // undefined: the template's default (thinking off), as render-prompt renders without "thinking".
      for (const thinking of [true, false, undefined]) {
        it(`${scenario}, ${system ? "a system prompt" : "no system prompt"}, thinking ${thinking === undefined ? "by default" : thinking ? "on" : "off"}`, () => {
          const messages = messagesFor("gemma4");
          const expected = officialGemma4(messages, system, thinking);
          for (const model of MODELS) expect(ours(model, "gemma4", messages, system, thinking), model).toBe(expected);
        });
      }
    }
  }

  it("writes a result into the model's own turn and generates on in it", () => {
    const [, messagesFor] = commonScenarios[0]!;
    const prompt = ours(MODELS[0]!, "gemma4", messagesFor("gemma4"), undefined);
    // A JSON result in Gemma's value syntax; nothing after it (the first release wrote the empty thought channel there).
    expect(prompt.endsWith('<|turn>model\n<|tool_call>call:calculator{expression:<|"|>1234 * 5678<|"|>}<tool_call|><|tool_response>response:calculator{value:7006652}<tool_response|>')).toBe(true);
    const json = ours(MODELS[0]!, "gemma4", jsonResults("gemma4"), undefined);
    expect(json).toContain('<|tool_response>response:get_current_time{time:<|"|>21:00<|"|>,utc_offset:9,zone:<|"|>KST<|"|>}<tool_response|>');
    expect(json.endsWith("<|tool_response>response:calculator{value:64.4}<tool_response|>")).toBe(true);
  });

  it("another protocol's results keep a user turn of their own (only gemma4's continue the model's turn)", () => {
    const [, messagesFor] = commonScenarios[0]!;
    const prompt = ours(MODELS[0]!, "llama3-json", messagesFor("llama3-json"), undefined);
    expect(prompt.endsWith('<|turn>model\n<|python_tag|>{"name": "calculator", "parameters": {"expression": "1234 * 5678"}}<turn|>\n<|turn>user\n7006652<turn|>\n<|turn>model\n<|channel>thought\n<channel|>')).toBe(true);
  });

  it("without tools: no system turn unless there is a system text, as the template writes it", () => {
    const plain: ChatMessage[] = [
      { role: "user", content: "Hello, how are you?" },
      { role: "assistant", content: "I'm doing great. How can I help you today?" },
      { role: "user", content: "What is 2 + 2?" },
    ];
    for (const system of [SYSTEM, ""]) {
      for (const thinking of [true, false]) {
        const expected = officialGemma4(plain, system === "" ? undefined : system, thinking, []);
        const prompt = chatTemplateForModel(MODELS[0]!, { enableThinking: thinking })!.render(system === "" ? plain : [{ role: "system", content: system }, ...plain], { addGenerationPrompt: true });
        expect(prompt, `${system || "no system"}, thinking ${thinking}`).toBe(expected);
      }
    }
  });
});

// llama.cpp's "interleaved" variant (google-gemma-4-31B-it-interleaved.jinja) was compared here
// against the template's first release; Google's current template keeps a tool-calling turn's
// thought and writes <|think|>\n itself, which is what that comparison stated, so the lab follows
// the current template and the variant is no longer kept.

describe("Gemma 4 on WebLLM's chat path", () => {
  beforeAll(() => loadWebLlmGetConversation(), 60_000);
  const template = (enableThinking?: boolean) => chatTemplateForModel(MODELS[0]!, enableThinking === undefined ? {} : { enableThinking })!;
  const first: TemplateMessage[] = [
    { role: "system", content: "You are careful." },
    { role: "user", content: "What is 6 * 7?" },
  ];

  /** WebLLM's own formatter, loaded with the lab's conv_template, given the chat turns. */
  async function webLlm(chat: NonNullable<ReturnType<ModelChatTemplate["chatTurns"] & {}>>) {
    const conversation = (await loadWebLlmGetConversation())(chatPathConvTemplate(template().conv, template().prefixText));
    if (chat.system !== undefined) conversation.override_system_message = chat.system;
    for (const turn of chat.turns) conversation.appendMessage(turn.role, turn.content);
    conversation.appendReplyHeader("assistant");
    return conversation;
  }

  it("builds a conversation's first step exactly as rendered, the empty thought channel as its reply header", async () => {
    for (const thinking of [false, undefined]) {
      const chat = template(thinking).chatTurns!(first)!;
      expect(chat.enableThinking).toBeUndefined();
      const prompt = template(thinking).render(first, { addGenerationPrompt: true });
      expect((await webLlm(chat)).getPromptArray().join("")).toBe(prompt);
      expect(prompt.endsWith("<|turn>model\n<|channel>thought\n<channel|>")).toBe(true);
    }
  });

  it("continues no cache: WebLLM's would keep the empty thought channel the template drops, so later steps take the raw path", async () => {
    const reply = "It is 42.";
    // What WebLLM's KV cache holds after the first step: its prompt (the reply header included) and the reply's tokens.
    const cached = (await webLlm(template().chatTurns!(first)!)).getPromptArray().join("") + reply;
    const next: TemplateMessage[] = [...first, { role: "assistant", content: reply }, { role: "user", content: "Thanks. And 6 * 8?" }];
    const rendered = template().render(next, { addGenerationPrompt: true });
    expect(cached.endsWith(`<|turn>model\n<|channel>thought\n<channel|>${reply}`)).toBe(true);
    expect(rendered).toContain(`<|turn>model\n${reply}<turn|>`);
    expect(rendered.startsWith(cached)).toBe(false);
    expect(template().chatTurns!(next)).toBeUndefined();
    // Results continue the model's turn, which a chat turn of its own cannot; thinking on writes no channel at all.
    const withResult: TemplateMessage[] = [...first, { role: "assistant", content: "<|tool_call>call:f{}<tool_call|>" }, { role: "tool", content: "<|tool_response>response:f{value:<|\"|>1<|\"|>}<tool_response|>" }];
    expect(template().chatTurns!(withResult)).toBeUndefined();
    expect(template(true).chatTurns!(first)).toBeUndefined();
  });
});

describe("Gemma families resolve to their own", () => {
  it("Gemma 4 names go to Gemma 4, before the Gemma 2 and 3 matchers", () => {
    for (const name of ["google/gemma-4-E2B-it", "google/gemma-4-E4B-it", "google/gemma-4-26B-A4B-it", "google/gemma-4-31B-it", "gemma-4-31B-it", "unsloth/gemma-4-E4B-it-GGUF", "gemma4:e2b"]) {
      expect(familyOfServerModel(name)?.id, name).toBe("gemma4");
    }
    for (const id of MODELS.slice(0, 2)) expect(familyOfWebLlmModel(id)?.id, id).toBe("gemma4");
  });

  it("Gemma 3 and Gemma 2 names keep their families", () => {
    for (const name of ["google/gemma-3-1b-it", "google/gemma-3-27b-it", "gemma3:4b", "gemma3-1b-it-q4f16_1-MLC"]) expect(familyOfModel(name)?.id, name).toBe("gemma3");
    for (const name of ["google/gemma-2-2b-it", "gemma-2-2b-it-q4f16_1-MLC"]) expect(familyOfModel(name)?.id, name).toBe("gemma2");
    // Gemma 3n is not Gemma 3 (nor 4): it falls to the plain Gemma framing.
    expect(familyOfServerModel("google/gemma-3n-E4B-it")?.id).toBe("gemma2");
    // MedGemma 4B is a Gemma 3, not a Gemma 4.
    expect(familyOfServerModel("google/medgemma-4b-it")?.id).not.toBe("gemma4");
  });

  it("the picker recommends gemma4 for Gemma 4", () => {
    for (const model of MODELS) expect(recommendedProtocol(model).protocol, model).toBe("gemma4");
  });

  it("Gemma 4's sampling defaults are Google's quoted values, on WebLLM and on a server alike", () => {
    for (const model of MODELS) {
      for (const thinking of [true, false]) expect(samplingDefaultsFor(model, thinking), model).toMatchObject({ temperature: 1, topP: 0.95, repetitionPenalty: 1 });
    }
    expect(samplingDefaultsFor("google/gemma-3-1b-it", false).temperature).not.toBe(1);
  });
});

// FunctionGemma: Google's own chat template (google/functiongemma-270m-it) is not in this
// workplace's sources. Google's LiteRT-LM runtime has one (packages/toolcall-middleware/src/families/fixtures/SOURCES.md)
// whose runtime writes each declaration, each call's values and each result before the template
// runs; given those pieces as the functiongemma protocol writes them, the template's framing is
// compared: the developer turn, calls and results in the model's turn, the reply continuing it,
// the generation prompt. The pieces themselves are the protocol's (not checked against Google's).
// One difference, stated: LiteRT-LM's template puts a blank line between the developer text and
// the declarations; the protocol's tool section writes them right after its sentence.
const FUNCTIONGEMMA_TEMPLATE = "LiteRT-LM-functiongemma.jinja";
const FUNCTIONGEMMA_MODELS = ["google/functiongemma-270m-it", "unsloth/functiongemma-270m-it-GGUF"];
const DEVELOPER_SENTENCE = "You are a model that can do function calling with the following functions";

function liteRtMessages(messages: ChatMessage[], system: string | undefined): GemmaMessage[] {
  const developer = system !== undefined ? `${system}\n\n${DEVELOPER_SENTENCE}` : DEVELOPER_SENTENCE;
  return [
    { role: "system", content: developer },
    ...messages.map((message): GemmaMessage => {
      if (message.role === "tool") return { role: "tool", content: `${message.name}{value:<escape>${message.content}<escape>}` };
      if (message.role !== "assistant" || !message.toolCalls?.length) return { role: message.role, content: message.content };
      const args = (values: Record<string, unknown>) => Object.fromEntries(Object.keys(values).sort().map((key) => [key, gemmaValue(values[key], "<escape>")]));
      return { role: "assistant", content: message.content, tool_calls: message.toolCalls.map((c) => ({ function: { name: c.name, arguments: args(c.arguments) } })) };
    }),
  ];
}

describe("FunctionGemma: the functiongemma prompt in LiteRT-LM's FunctionGemma framing", () => {
  for (const [scenario, messagesFor] of commonScenarios) {
    for (const system of [SYSTEM, undefined]) {
      it(`${scenario}, ${system ? "a system prompt" : "no system prompt"}`, () => {
        const messages = messagesFor("functiongemma");
        const liteRt = new Template(fixture(FUNCTIONGEMMA_TEMPLATE)).render({
          messages: liteRtMessages(messages, system),
          tools: tools.map((tool) => gemmaDeclaration(tool, "<escape>")),
          add_generation_prompt: true,
          bos_token: "<bos>",
        });
        const expected = liteRt.replace(`${DEVELOPER_SENTENCE}\n\n<start_function_declaration>`, `${DEVELOPER_SENTENCE}<start_function_declaration>`);
        expect(expected).not.toBe(liteRt);
        for (const model of FUNCTIONGEMMA_MODELS) expect(ours(model, "functiongemma", messages, system), model).toBe(expected);
      });
    }
  }

  it("another protocol's results keep a user turn of their own", () => {
    const [, messagesFor] = commonScenarios[0]!;
    const prompt = ours(FUNCTIONGEMMA_MODELS[0]!, "llama3-json", messagesFor("llama3-json"), undefined);
    expect(prompt.endsWith('<start_of_turn>model\n<|python_tag|>{"name": "calculator", "parameters": {"expression": "1234 * 5678"}}<end_of_turn>\n<start_of_turn>user\n7006652<end_of_turn>\n<start_of_turn>model\n')).toBe(true);
  });

  it("resolves to its own family, recommends its own format", () => {
    for (const model of FUNCTIONGEMMA_MODELS) {
      expect(familyOfServerModel(model)?.id, model).toBe("functiongemma");
      expect(recommendedProtocol(model).protocol, model).toBe("functiongemma");
    }
  });
});
