// DeepSeek V3.2 (deepseek-ai/DeepSeek-V3.2, -Exp; server only). DeepSeek ships V3.2 without a Jinja
// chat template: its encoder is Python (encoding/encoding_dsv32.py in the model repository, which
// vLLM and SGLang vendor). This family writes what that encoder writes:
//   <｜begin▁of▁sentence｜>{system}\n\n## Tools\n…</functions>\n<｜User｜>…<｜Assistant｜></think>
//   \n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="…">\n<｜DSML｜parameter …>…</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls><｜end▁of▁sentence｜>
//   \n\n<function_results>\n<result>…</result>\n</function_results>\n\n<think>
// llama.cpp's models/templates/DeepSeek-V3.2.jinja (a Jinja rewrite of the encoder, the fixture the
// parity test renders) differs in three ways, stated in parity-deepseek-v32.test.ts.
import type { ChatTemplate, ToolCall, ToolFraming, ToolSpec } from "../types.ts";
import { encodeMarkerEscapes } from "../protocols/protect-markers.ts";
import { pyJson } from "./py-json.ts";
import { labDefaults } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const BOS = "<｜begin▁of▁sentence｜>";
const EOS = "<｜end▁of▁sentence｜>";
const USER = "<｜User｜>";
const ASSISTANT = "<｜Assistant｜>";
const THINK = "<think>";
const THINK_END = "</think>";
const DSML = "｜DSML｜";
const controlTokens = [BOS, EOS, USER, ASSISTANT, THINK, THINK_END];

/** The encoder's TOOLS_SYSTEM_TEMPLATE, each tool one line of JSON (json.dumps, ensure_ascii=False) of its function object. */
export function deepseekV32ToolSection(tools: ToolSpec[]): string {
  return [
    "## Tools",
    "You have access to a set of tools you can use to answer the user's question.",
    `You can invoke functions by writing a "<${DSML}function_calls>" block like the following as part of your reply to the user:`,
    `<${DSML}function_calls>`,
    `<${DSML}invoke name="$FUNCTION_NAME">`,
    `<${DSML}parameter name="$PARAMETER_NAME" string="true|false">$PARAMETER_VALUE</${DSML}parameter>`,
    "...",
    `</${DSML}invoke>`,
    `<${DSML}invoke name="$FUNCTION_NAME2">`,
    "...",
    `</${DSML}invoke>`,
    `</${DSML}function_calls>`,
    'String and scalar parameters should be specified as is without any escaping or quotes, while lists and objects should use JSON format. The "string" attribute should be set to "true" for string type parameters and "false" for other types (numbers, booleans, arrays, objects).',
    "If the thinking_mode is enabled, then after function results you should strongly consider outputting a thinking block. Here is an example:",
    `<${DSML}function_calls>`,
    "...",
    `</${DSML}function_calls>`,
    "<function_results>",
    "...",
    "</function_results>",
    `${THINK}...thinking about results${THINK_END}`,
    "Here are the functions available in JSONSchema format:",
    "<functions>",
    ...tools.map((tool) => pyJson({ name: tool.name, description: tool.description, parameters: tool.parameters })),
    "</functions>",
    "",
  ].join("\n");
}

const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** One invoke as the encoder writes it: its parameters one a line, strings as they are, other values as JSON. */
function invoke(call: ToolCall): string {
  const params = Object.entries(call.arguments).map(([key, value]) => {
    const text = typeof value === "string";
    return `<${DSML}parameter name="${attribute(key)}" string="${text}">${encodeMarkerEscapes(text ? value : pyJson(value))}</${DSML}parameter>`;
  });
  return `<${DSML}invoke name="${attribute(call.name)}">\n${params.join("\n")}\n</${DSML}invoke>`;
}

/**
 * The encoder's writing of the deepseek-v32 protocol: its own tool prompt, a turn's calls after a
 * blank line, each result its own tool message (the template gathers one turn's results in
 * <function_results>).
 */
export const deepseekV32ToolFraming: ToolFraming = {
  protocol: "deepseek-v32",
  toolSection: deepseekV32ToolSection,
  toolResultRole: "tool",
  renderAssistant: (message) =>
    message.toolCalls?.length ? `${message.content}\n\n<${DSML}function_calls>\n${message.toolCalls.map(invoke).join("\n")}\n</${DSML}function_calls>` : message.content,
  renderToolResult: (message, escape = (text) => text) => `<result>${escape(message.content)}</result>`,
};

function deepseekV32Template(thinking: boolean): ChatTemplate {
  const marker = (open: boolean) => (open && thinking ? THINK : THINK_END);
  return {
    name: "deepseek-v3.2",
    stop: [EOS],
  controlTokens,
    toolFraming: deepseekV32ToolFraming,
    render(messages, { addGenerationPrompt }) {
      const lastUser = messages.findLastIndex((message) => message.role === "user");
      let out = BOS + messages.filter((message) => message.role === "system").map((message) => message.content).join("\n\n");
      let open = false;
      for (const [i, message] of messages.entries()) {
        if (message.role === "user") {
          // The user's turn opens the assistant's: thinking only after the last question.
          out += `${USER}${message.content}${ASSISTANT}${marker(i === lastUser)}`;
          open = true;
        } else if (message.role === "tool") {
          if (messages[i - 1]?.role !== "tool") out += "\n\n<function_results>";
          out += `\n${message.content}`;
          open = messages[i + 1]?.role !== "tool";
          if (open) out += `\n</function_results>\n\n${marker(i >= lastUser)}`;
        } else if (message.role === "assistant") {
          // Reasoning is written back (closed) only in the current question's loop, in thinking mode.
          const reasoning = thinking && i > lastUser ? `${message.reasoning ?? ""}${THINK_END}` : "";
          out += `${reasoning}${message.content}${EOS}`;
          open = false;
        }
      }
      if (addGenerationPrompt && !open) out += ASSISTANT + marker(true);
      return out;
    },
  };
}

export const deepseekV32: ModelFamily = {
  id: "deepseek-v3.2",
  label: "DeepSeek V3.2",
  templateName: "deepseek-v3.2",
  templateLabel: "DeepSeek V3.2",
  serverNames: /deepseek-v3\.2/i,
  // Thinking unset is on, as llama.cpp's template defaults enable_thinking to true.
  template: ({ enableThinking }) => deepseekV32Template(enableThinking !== false),
  // The thinking mode; on unless switched off.
  thinking: { defaultOn: true },
  controlTokens,
  protocol: { trained: "deepseek-v32", fallback: "deepseek-v32", why: "DeepSeek V3.2 was trained on its <｜DSML｜function_calls> format" },
  sampling: () => labDefaults("DeepSeek V3.2"),
  kvState: "kv_cache",
  contextNotes: "131,072 tokens.",
};
