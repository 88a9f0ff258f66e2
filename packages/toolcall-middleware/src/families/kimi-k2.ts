// Kimi K2 (server only): Moonshot's `<|im_user|>user<|im_middle|>…<|im_end|>` turns, tools as a
// JSON list in a `tool_declare` system turn, calls in a <|tool_calls_section_begin|> with ids
// `functions.NAME:IDX`, each result a system-class turn named after its tool that begins
// `## Return of ID`. Two templates: K2-Thinking's (think blocks; fixtures/moonshotai-Kimi-K2-Thinking.jinja,
// byte for byte) and K2-Instruct's (no think blocks; see kimiInstructToolFraming).
import { protectJson } from "../protocols/protect-markers.ts";
import type { ChatMessage, ChatTemplate, ToolCall, ToolFraming, ToolSpec } from "../types.ts";
import { pyJson } from "./py-json.ts";
import { penaltiesOff, REPLY_MAX_TOKENS, THINKING_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const SECTION_BEGIN = "<|tool_calls_section_begin|>";
const SECTION_END = "<|tool_calls_section_end|>";
const controlTokens = ["<|im_system|>", "<|im_user|>", "<|im_assistant|>", "<|im_middle|>", "<|im_end|>", SECTION_BEGIN, SECTION_END, "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>", "<think>", "</think>"];
const DEFAULT_SYSTEM = "You are Kimi, an AI assistant created by Moonshot AI.";
const KIMI_ID = /^functions\.([^:<\s]+):\d+$/;

/**
 * A call's id as Kimi writes it, `functions.NAME:IDX` (IDX counts the calls of one turn from 0).
 * A server's ids have that form already; the lab's own (`…:call_K`, K counting a step's calls
 * from 1) become `functions.NAME:K-1`, the same for a call and its result.
 */
export function kimiCallId(id: string, name: string, fallbackIndex: number): string {
  if (KIMI_ID.test(id)) return id;
  const counted = /(?:^|:)call_(\d+)$/.exec(id);
  return `functions.${name}:${counted ? Number(counted[1]) - 1 : fallbackIndex}`;
}

const kimiCall = (call: ToolCall, index: number) =>
  `<|tool_call_begin|>${kimiCallId(call.id, call.name, index)}<|tool_call_argument_begin|>${protectJson(pyJson(call.arguments))}<|tool_call_end|>`;

const openAiTool = (tool: ToolSpec) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } });

function kimiFraming(toolsJson: (tools: ToolSpec[]) => string): ToolFraming {
  return {
    protocol: "kimi-k2",
    placement: "system-start",
    toolResultRole: "tool",
    toolSection: (tools) => `<|im_system|>tool_declare<|im_middle|>${protectJson(toolsJson(tools))}<|im_end|>`,
    renderAssistant: (message) => {
      const calls = message.toolCalls ?? [];
      return message.content.trim() + (calls.length > 0 ? SECTION_BEGIN + calls.map(kimiCall).join("") + SECTION_END : "");
    },
    renderToolResult: (message: Extract<ChatMessage, { role: "tool" }>, escape = (text: string) => text) => `## Return of ${kimiCallId(message.toolCallId, message.name ?? "tool", 0)}\n${escape(message.content)}`,
  };
}

/** K2-Thinking's template: the tool list as `tojson` writes it (", " and ": "). */
export const kimiThinkingToolFraming = kimiFraming((tools) => pyJson(tools.map(openAiTool)));
/**
 * K2-Instruct: its current template (the model repository's chat_template.jinja since Moonshot's
 * 2025-08-11 update, not among the fixtures) writes the tool list compactly (separators "," and
 * ":"), calls and results as K2-Thinking's does, and no think blocks. The fixture of K2-Instruct
 * (llama.cpp's moonshotai-Kimi-K2.jinja, a template of llama.cpp's tests) is followed for turns
 * without calls only: it writes a result's header with a backslash and an "n" for the line break.
 */
export const kimiInstructToolFraming = kimiFraming((tools) => JSON.stringify(tools.map(openAiTool)));

function kimiTemplate(thinking: boolean): ChatTemplate {
  const framing = thinking ? kimiThinkingToolFraming : kimiInstructToolFraming;
  return {
    name: thinking ? "kimi-k2-thinking" : "kimi-k2",
    stop: ["<|im_end|>"],
    controlTokens,
    toolFraming: framing,
    render(messages, { addGenerationPrompt }) {
      let out = "";
      let rest = messages;
      // The tool list (placement "system-start") is a turn of its own before the system turn.
      const first = messages[0];
      let system: string | undefined;
      if (first?.role === "system") {
        const toolsEnd = first.content.startsWith("<|im_system|>tool_declare<|im_middle|>") ? first.content.indexOf("<|im_end|>") + "<|im_end|>".length : 0;
        out += first.content.slice(0, toolsEnd);
        system = first.content.slice(toolsEnd).replace(/^\n\n/, "");
        rest = messages.slice(1);
      }
      out += `<|im_system|>system<|im_middle|>${system || DEFAULT_SYSTEM}<|im_end|>`;
      // K2-Thinking keeps the reasoning of the turns after the last answer without calls.
      const lastAnswer = rest.findLastIndex((m) => m.role === "assistant" && !m.content.includes(SECTION_BEGIN));
      rest.forEach((message, i) => {
        if (message.role === "assistant") {
          const think = thinking ? `<think>${i > lastAnswer ? (message.reasoning ?? "") : ""}</think>` : "";
          out += `<|im_assistant|>assistant<|im_middle|>${think}${message.content}<|im_end|>`;
        } else if (message.role === "tool") {
          // The turn is named after the tool, which the call's id carries.
          const name = KIMI_ID.exec(/^## Return of (\S+)/.exec(message.content)?.[1] ?? "")?.[1] ?? "tool";
          out += `<|im_system|>${name}<|im_middle|>${message.content}<|im_end|>`;
        } else out += `<|im_${message.role}|>${message.role}<|im_middle|>${message.content}<|im_end|>`;
      });
      if (addGenerationPrompt) out += "<|im_assistant|>assistant<|im_middle|>";
      return out;
    },
  };
}

export const kimiK2Thinking: ModelFamily = {
  id: "kimi-k2-thinking",
  label: "Kimi K2 Thinking",
  templateName: "kimi-k2-thinking",
  templateLabel: "Kimi K2 Thinking (<|im_user|>, think blocks, tool sections)",
  serverNames: /^(?:(?!kimi-?k2)[^])*kimi-?k2[^]*?thinking/i,
  template: () => kimiTemplate(true),
  controlTokens,
  protocol: { trained: "kimi-k2", fallback: "hermes", why: "Kimi K2 was trained on <|tool_calls_section_begin|> with functions.NAME:IDX ids" },
  sampling: () => ({ label: "Kimi K2 Thinking", source: "Kimi-K2-Thinking's model card (temperature 1.0); the lab's top-p", maxTokens: THINKING_MAX_TOKENS, temperature: 1.0, topP: 0.9, ...penaltiesOff }),
  kvState: "kv_cache",
  contextNotes: "262,144 tokens.",
};

export const kimiK2: ModelFamily = {
  id: "kimi-k2",
  label: "Kimi K2",
  templateName: "kimi-k2",
  templateLabel: "Kimi K2 Instruct (<|im_user|>, tool sections)",
  serverNames: /kimi-?k2/i,
  template: () => kimiTemplate(false),
  controlTokens,
  protocol: { trained: "kimi-k2", fallback: "hermes", why: "Kimi K2 was trained on <|tool_calls_section_begin|> with functions.NAME:IDX ids" },
  sampling: () => ({ label: "Kimi K2 Instruct", source: "Kimi-K2-Instruct's model card (temperature 0.6); the lab's top-p", maxTokens: REPLY_MAX_TOKENS, temperature: 0.6, topP: 0.9, ...penaltiesOff }),
  kvState: "kv_cache",
  contextNotes: "Kimi-K2-Instruct: 131,072 tokens; -0905: 262,144.",
};
