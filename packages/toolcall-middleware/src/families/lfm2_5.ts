// LFM2.5 (Liquid AI; server only): LFM2's ChatML turns, with a template of its own for tools:
// the tool list as plain JSON after "List of tools: " (no <|tool_list_start|>),
// calls as a pythonic list between <|tool_call_start|> and <|tool_call_end|> after the reply's
// text, results as the bare text of a `tool` turn. The lfm2 protocol reads its calls.
import { pythonLiteral } from "../protocols/pythonic/python-literal.ts";
import { protectJson } from "../protocols/protect-markers.ts";
import type { ToolCall, ToolFraming } from "../types.ts";
import { lfm2, LFM2_BOS, LFM2_TOKENS, openAiTool } from "./lfm2.ts";
import { pyJson } from "./py-json.ts";
import { labDefaults } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

/** The template's format_arg_value: a string in single quotes, a mapping as JSON, anything else as Python writes it. */
function argValue(value: unknown): string {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return protectJson(pyJson(value));
  return pythonLiteral(value);
}

const lfm25Call = (call: ToolCall) => `${call.name}(${Object.entries(call.arguments).map(([name, value]) => `${name}=${argValue(value)}`).join(", ")})`;

/**
 * LFM2.5's template (LFM2.5-8B-A1B's, as llama.cpp keeps it at de3ff815): the system message, a
 * newline and the tool list (each tool's `tojson`, the OpenAI shape, joined by ", " in brackets;
 * the earlier copy wrote a blank line and "Today's date" first); calls after the reply's text. Where the template
 * writes a string argument between single quotes as it is, the lab escapes quotes and
 * backslashes (Python's own literal), so that a value cannot end its string.
 */
export const lfm25ToolFraming: ToolFraming = {
  protocol: "lfm2",
  systemJoin: "\n",
  toolSection: (tools) => `List of tools: ${protectJson(pyJson(tools.map(openAiTool)))}`,
  toolResultRole: "tool",
  renderAssistant: (message) => (message.toolCalls?.length ? `${message.content}<|tool_call_start|>[${message.toolCalls.map(lfm25Call).join(", ")}]<|tool_call_end|>` : message.content),
  renderToolResult: (message, escape = (text) => text) => escape(message.content),
};

export const lfm2_5: ModelFamily = {
  ...lfm2,
  id: "lfm2.5",
  label: "LFM2.5",
  templateName: "lfm2_5",
  templateLabel: "LFM2.5 (ChatML, tool list, pythonic calls)",
  serverNames: /lfm-?2\.5/i,
  conv: { template: { ...lfm2.conv!.template, name: "lfm2_5" }, extras: { ...lfm2.conv!.extras, prefixText: LFM2_BOS, controlTokens: LFM2_TOKENS, toolFraming: lfm25ToolFraming } },
  protocol: { trained: "lfm2", fallback: "lfm2", why: "LFM2.5 was trained on LFM2's <|tool_call_start|>[f(a=1)] calls" },
  // Liquid's docs ("Text Generation and Prompting") for LFM2.5 text models: temperature 0.1, top_k 50,
  // top_p 0.1, repetition_penalty 1.05; the lab sends no top_k and keeps repetition penalties off.
  sampling: () => ({ ...labDefaults("LFM2.5"), temperature: 0.1, topP: 0.1, source: "Liquid's docs for LFM2.5 (temperature 0.1, top_p 0.1; top_k 50 not sent, repetition penalty off)" }),
  contextNotes: "32,768 tokens (LFM2.5 1.2B; not checked for the other sizes).",
};
