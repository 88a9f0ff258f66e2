// MiniMax M2 / M2.1 (server only): `]~!b[` then `]~b]system`, `]~b]user`, `]~b]ai` and `]~b]tool`
// turns, each ended by `[e~[` and a line break; interleaved thinking (the think blocks of the
// current question's loop stay in the prompt); trained on the minimax-m2 protocol
// (<minimax:tool_call><invoke name=…><parameter name=…>). Written after MiniMax's own chat
// template (fixtures/MiniMax-M2.jinja, llama.cpp de3ff815's copy), byte for byte but for the
// reply's opening `<think>\n`, which the lab leaves to the model (the parity test states it).
import { encodeMarkerEscapes } from "../protocols/protect-markers.ts";
import type { ChatTemplate, ToolCall, ToolFraming, ToolSpec } from "../types.ts";
import { pyJson } from "./py-json.ts";
import { penaltiesOff, THINKING_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const OPEN = "<minimax:tool_call>";
const CLOSE = "</minimax:tool_call>";
const END = "[e~[";
const controlTokens = ["]~!b[", "]~b]", END, "<think>", "</think>", OPEN, CLOSE, "<invoke", "</invoke>", "<parameter", "</parameter>", "<response>", "</response>"];
const DEFAULT_SYSTEM = "You are a helpful assistant.";

const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
const toolJson = (tool: ToolSpec) => pyJson({ name: tool.name, description: tool.description, parameters: tool.parameters });

/** One <invoke> as the template writes it: a value that is not a string as `tojson` writes it. */
const invoke = (call: ToolCall) =>
  `<invoke name="${attribute(call.name)}">\n` +
  Object.entries(call.arguments)
    .map(([key, value]) => `<parameter name="${attribute(key)}">${encodeMarkerEscapes(typeof value === "string" ? value : pyJson(value))}</parameter>\n`)
    .join("") +
  "</invoke>\n";

/**
 * MiniMax's own writing of the minimax-m2 protocol: the tool section after the system text (its
 * default one when there is none); calls after the turn's text, one <invoke> a line; each result
 * a <response> on its own line, the results of one turn in one tool turn.
 */
export const minimaxToolFraming: ToolFraming = {
  protocol: "minimax-m2",
  defaultSystem: DEFAULT_SYSTEM,
  toolResultRole: "tool",
  toolSection: (tools) =>
    "# Tools\nYou may call one or more tools to assist with the user query.\nHere are the tools available in JSONSchema format:\n\n<tools>\n" +
    tools.map((tool) => `<tool>${toolJson(tool)}</tool>\n`).join("") +
    `</tools>\n\nWhen making tool calls, use XML format to invoke tools and pass parameters:\n\n${OPEN}\n<invoke name="tool-name-1">\n<parameter name="param-key-1">param-value-1</parameter>\n<parameter name="param-key-2">param-value-2</parameter>\n...\n</invoke>\n${CLOSE}`,
  renderAssistant: (message) => {
    const calls = message.toolCalls ?? [];
    return message.content.trim() + (calls.length > 0 ? `\n${OPEN}\n${calls.map(invoke).join("")}${CLOSE}` : "");
  },
  renderToolResult: (message, escape = (text) => text) => `<response>${escape(message.content)}</response>`,
};

const minimaxTemplate: ChatTemplate = {
  name: "minimax-m2",
  stop: [END],
  controlTokens,
  toolFraming: minimaxToolFraming,
  // The generation prompt is `]~b]ai\n`; the template also opens the think block (`<think>\n`),
  // which the lab leaves to the model, whose own tag the parser reads (as for Qwen3.5).
  render(messages, { addGenerationPrompt }) {
    const first = messages[0];
    const turns = first?.role === "system" ? messages.slice(1) : messages;
    let out = `]~!b[]~b]system\n${first?.role === "system" ? first.content : DEFAULT_SYSTEM}${END}\n`;
    const lastUser = turns.findLastIndex((m) => m.role === "user");
    turns.forEach((message, i) => {
      if (message.role === "assistant") {
        // Interleaved thinking: the reasoning of the turns after the last user message is written back.
        const think = message.reasoning && i > lastUser ? `<think>\n${message.reasoning}\n</think>\n\n` : "";
        out += `]~b]ai\n${think}${message.content}${END}\n`;
      } else if (message.role === "tool") {
        out += `${turns[i - 1]?.role === "tool" ? "" : "]~b]tool"}\n${message.content}${turns[i + 1]?.role === "tool" ? "" : `${END}\n`}`;
      } else out += `]~b]${message.role === "user" ? "user" : "system"}\n${message.content}${END}\n`;
    });
    if (addGenerationPrompt) out += "]~b]ai\n";
    return out;
  },
};

export const minimaxM2: ModelFamily = {
  id: "minimax-m2",
  label: "MiniMax M2",
  templateName: "minimax-m2",
  templateLabel: "MiniMax M2 (]~b]ai, interleaved thinking, <minimax:tool_call>)",
  serverNames: /minimax-?m2/i,
  template: () => minimaxTemplate,
  controlTokens,
  protocol: { trained: "minimax-m2", fallback: "xml", why: "MiniMax M2 was trained on <minimax:tool_call><invoke name=…><parameter name=…>" },
  sampling: () => ({ label: "MiniMax M2", source: "MiniMax-M2's model card (temperature 1.0, top-p 0.95; its top-k 40 is not sent)", maxTokens: THINKING_MAX_TOKENS, temperature: 1.0, topP: 0.95, ...penaltiesOff }),
  kvState: "kv_cache",
  contextNotes: "About 200k tokens (the model card's figure; not checked on its config here).",
};
