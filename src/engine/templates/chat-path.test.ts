// The prompt on WebLLM's chat path is the prompt the lab renders and shows: WebLLM's own
// Conversation code, loaded with the conv_template the lab loads models with
// (chatPathConvTemplate) and given the chat turns the lab sends, writes exactly the rendered
// prompt — on a first request (the whole prompt, the prefix included) and on a continued one,
// where WebLLM's KV cache holds the prompt before plus the reply as generated and WebLLM
// prefills only the last round (the next turn sent with the separator its cache lacks).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage, ChatTurns, TemplateMessage } from "toolcall-middleware/types.ts";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { chatPathConvTemplate } from "toolcall-middleware/families/chat-path.ts";
import { EMPTY_THINK_BLOCK, type ModelChatTemplate } from "toolcall-middleware/families/conv-template.ts";
import { chatTemplateForModel, convFamilies } from "toolcall-middleware/families/registry.ts";

type ConvTemplateName = string;
const convTemplates = Object.fromEntries(Object.entries(convFamilies).map(([name, conv]) => [name, conv.template]));
import { loadWebLlmGetConversation, type WebLlmConversation } from "./webllm-conversation.test-helper.ts";

const MODELS: Record<ConvTemplateName, string> = {
  qwen3_5: "Qwen3.5-2B-q4f16_1-MLC",
  gemma3_instruction: "gemma3-1b-it-q4f16_1-MLC",
  hermes2_pro_llama3: "Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC",
  qwen3: "Qwen3-1.7B-q4f16_1-MLC",
  qwen2: "Qwen2.5-1.5B-Instruct-q4f16_1-MLC",
  "llama-3_1": "Llama-3.1-8B-Instruct-q4f32_1-MLC",
  "llama-3_2": "Llama-3.2-3B-Instruct-q4f16_1-MLC",
  "hermes3_llama-3_1": "Hermes-3-Llama-3.2-3B-q4f16_1-MLC",
  chatml: "SmolLM2-1.7B-Instruct-q4f16_1-MLC",
  "phi-3": "Phi-3.5-mini-instruct-q4f16_1-MLC",
  gemma_instruction: "gemma-2-2b-it-q4f16_1-MLC",
};

/** WebLLM's Conversation with the methods its prefill uses (role names included). */
type Conversation = WebLlmConversation & {
  appendMessage: (role: "user" | "assistant" | "tool", message: string, roleName?: string) => void;
  finishReply: (message: string) => void;
  getPromptArrayLastRound: () => Array<string | unknown[]>;
};

/** What WebLLM's preparePrefillInput + forwardPrefill do with a chat request's messages. */
async function webLlmConversation(template: ModelChatTemplate, chat: ChatTurns, names: Array<string | undefined> = []): Promise<Conversation> {
  const getConversation = await loadWebLlmGetConversation();
  const conversation = getConversation(chatPathConvTemplate(template.conv, template.prefixText)) as Conversation;
  if (chat.system !== undefined) conversation.override_system_message = chat.system;
  chat.turns.forEach((turn, i) => conversation.appendMessage(turn.role, turn.content, names[i]));
  if (chat.enableThinking === false) conversation.appendEmptyThinkingReplyHeader("assistant", EMPTY_THINK_BLOCK);
  else conversation.appendReplyHeader("assistant");
  return conversation;
}

const think = (reasoning: string, text: string) => `<think>\n${reasoning}\n</think>\n\n${text}`;
const call = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "6 * 7"}}\n</tool_call>';

/** A tool loop's conversation up to step `n` (1-based), with the replies as generated. */
function loop(step: number, thinking: boolean | undefined): { messages: TemplateMessage[]; replies: string[] } {
  const prefix = thinking === false ? EMPTY_THINK_BLOCK : "";
  const replies = [prefix + (thinking ? think("I should compute it.", call) : call), prefix + (thinking ? think("Now convert.", call) : `Next: ${call}`), prefix + "It is 42."];
  const messages: TemplateMessage[] = [
    { role: "system", content: "You are careful.\n\n# Tools\n<tools>…</tools>" },
    { role: "user", content: "What is 6 * 7, in dozens?" },
  ];
  for (let i = 0; i < step - 1; i++) {
    messages.push({ role: "assistant", content: call, generated: replies[i]! });
    messages.push({ role: "user", content: `<tool_response>\n${42 + i}\n</tool_response>` });
  }
  return { messages, replies };
}

describe("WebLLM's chat path writes the lab's prompt", () => {
  beforeAll(() => loadWebLlmGetConversation(), 60_000);
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 0, 31, 23, 59));
  });
  afterAll(() => vi.useRealTimers());

  const cases = (Object.keys(MODELS) as ConvTemplateName[]).flatMap((name): Array<{ name: ConvTemplateName; thinking: boolean | undefined }> =>
    // Qwen3.5 with thinking on ends its prompt inside an opened think block, which WebLLM's chat path cannot write: the raw path (tool-parity.test.ts).
    name === "qwen3" ? [{ name, thinking: true }, { name, thinking: false }] : name === "qwen3_5" ? [{ name, thinking: false }] : [{ name, thinking: undefined }],
  );

  for (const { name, thinking } of cases) {
    const label = `${name}${thinking === undefined ? "" : thinking ? " (thinking on)" : " (thinking off)"}`;
    const template = () => chatTemplateForModel(MODELS[name]!, thinking === undefined ? {} : { enableThinking: thinking })!;

    it(`${label}: a first request is the whole rendered prompt`, async () => {
      for (const step of [1, 2, 3]) {
        const { messages } = loop(step, thinking);
        const chat = template().chatTurns!(messages)!;
        const prompt = template().render(messages, { addGenerationPrompt: true });
        expect((await webLlmConversation(template(), chat)).getPromptArray().join("")).toBe(prompt);
      }
    });

    it(`${label}: a continued request's cache plus its last round is the next rendered prompt`, async () => {
      for (const step of [1, 2]) {
        const before = loop(step, thinking);
        const after = loop(step + 1, thinking);
        const promptBefore = template().render(before.messages, { addGenerationPrompt: true });
        const promptAfter = template().render(after.messages, { addGenerationPrompt: true });
        const chat = template().chatTurns!(after.messages)!;
        // The conversation WebLLM holds after the step before: its messages and the reply.
        const held = await webLlmConversation(template(), template().chatTurns!(before.messages)!);
        held.finishReply(before.replies[step - 1]!);
        // The new turn, sent with the separator the cache lacks in front of its role string.
        const last = chat.turns.at(-1)!;
        expect(last.role).toBe("user");
        held.appendMessage("user", last.content, chat.turnEnd + chat.userRole);
        if (chat.enableThinking === false) held.appendEmptyThinkingReplyHeader("assistant", EMPTY_THINK_BLOCK);
        else held.appendReplyHeader("assistant");
        // The cache: the prompt before and the reply's tokens up to (not including) the stop token.
        const generated = before.replies[step - 1]!.slice(chat.enableThinking === false ? EMPTY_THINK_BLOCK.length : 0);
        const cached = promptBefore + generated;
        expect(cached + held.getPromptArrayLastRound().join("")).toBe(promptAfter);
        // The history sent for it equals what WebLLM holds (its messages compare equal).
        expect(chat.turns.slice(0, -1).map((t) => t.content)).toEqual([...template().chatTurns!(before.messages)!.turns.map((t) => t.content), before.replies[step - 1]]);
      }
    });
  }

  it("WebLLM's own prefix ids are written as text once: Gemma's <bos> is not doubled", async () => {
    expect(convTemplates.gemma_instruction!.system_prefix_token_ids).toEqual([2]);
    const template = chatTemplateForModel(MODELS.gemma_instruction!)!;
    const conv = chatPathConvTemplate(template.conv, template.prefixText);
    expect(conv).not.toHaveProperty("system_prefix_token_ids");
    const prompt = (await webLlmConversation(template, template.chatTurns!(loop(1, undefined).messages)!)).getPromptArray().join("");
    expect(prompt.match(/<bos>/g)).toHaveLength(1);
  });
});

describe("WebLLM's chat path writes a family's own tool framing too", () => {
  beforeAll(() => loadWebLlmGetConversation(), 60_000);

  const cases: Array<[string, string, string]> = [
    // Llama 3.x: the system header, the tools in the first user turn, ipython results.
    ["llama-3_1", "llama3-json", "Environment: ipython\nCutting Knowledge Date"],
    ["llama-3_2", "llama3-json", "Environment: ipython\nCutting Knowledge Date"],
    // Hermes 3: Nous's tool block opening the system turn, results in a tool turn.
    ["hermes3_llama-3_1", "hermes", "<|im_start|>tool\n<tool_response>\n"],
  ];
  for (const [name, protocolName, mark] of cases) {
    it(`${name} with ${protocolName}`, async () => {
      const tools = [{ name: "calculator", description: "Evaluates.", parameters: { type: "object", properties: { expression: { type: "string", description: "e.g. 6 * 7" } } } }];
      const messages: ChatMessage[] = [
        { role: "user", content: "What is 6 * 7?" },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "calculator", arguments: { expression: "6 * 7" } }], protocol: protocolName },
        { role: "tool", toolCallId: "c1", name: "calculator", content: "42" },
      ];
      for (const systemPrompt of ["", "You are careful."]) {
        const { prompt, templateMessages, template } = renderModelPrompt({ modelId: MODELS[name]!, protocol: getProtocol(protocolName)!, tools, messages, systemPrompt });
        expect(prompt).toContain(mark);
        const chat = template.chatTurns!(templateMessages)!;
        expect(chat.turns.at(-1)?.role).toBe("tool");
        expect((await webLlmConversation(template as ModelChatTemplate, chat)).getPromptArray().join("")).toBe(prompt);
      }
    });
  }
});
