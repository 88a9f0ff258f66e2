// Hermes 3 (Llama 3.2 3B, Llama 3.1 8B): ChatML on a Llama 3 tokenizer; Nous Research's own
// <tool_call> format, which the hermes protocol is named after.
import type { ToolCall, ToolFraming, ToolSpec } from "../types.ts";
import { chatmlTurns, CHATML_TOKENS } from "./chatml-turns.ts";
import { LLAMA3_BOS, LLAMA3_END_TOKENS } from "./llama3.ts";
import { LLAMA3_SAMPLING, penaltiesOff, REPLY_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";
import { pyJson } from "./py-json.ts";

/** `<` in JSON is written `\u003c`: the same JSON, and no tag or control token a value could forge. */
const inertJson = (json: string) => json.replaceAll("<", "\\u003c");

type Schema = { type?: unknown; additionalProperties?: unknown; description?: unknown };

/** The template's json_to_python_type macro (an array's item type comes out as Any, as the macro's `|items` makes it). */
function pythonType(schema: Schema): string {
  const basic: Record<string, string> = { string: "str", number: "float", integer: "int", boolean: "bool" };
  if (typeof schema.type === "string" && basic[schema.type]) return basic[schema.type]!;
  if (schema.type === "array") return "list[Any]";
  if (schema.type === "object") return schema.additionalProperties !== undefined && typeof schema.additionalProperties === "object" ? `dict[str, ${pythonType(schema.additionalProperties as Schema)}]` : "dict";
  if (Array.isArray(schema.type)) return `Union[${schema.type.map((type) => pythonType({ type })).join(",")}]`;
  return "Any";
}

/** One tool as Nous's template writes it: a Python-style signature and its Args in the description. */
function hermesTool(tool: ToolSpec): string {
  const properties = Object.entries((tool.parameters.properties ?? {}) as Record<string, Schema>);
  const signature = properties.map(([name, schema]) => `${name}: ${pythonType(schema)}`).join(", ");
  // The template writes the Args lines one after the other, without a newline between them.
  const args = properties.map(([name, schema], i) => `${i === 0 ? "    Args:\n" : ""}        ${name}(${pythonType(schema)}): ${typeof schema.description === "string" ? schema.description.trim() : ""}`).join("");
  const parameters = properties.length === 0 ? "{}" : pyJson(tool.parameters);
  return `{"type": "function", "function": {"name": "${tool.name}", "description": "${tool.name}(${signature}) - ${tool.description}\n\n${args}", "parameters": ${parameters}}`;
}

const hermesCall = (call: ToolCall) => `<tool_call>\n{"name": "${call.name}", "arguments": ${inertJson(pyJson(call.arguments))}}\n</tool_call>`;

/**
 * Nous's own function-calling prompt (the `tool_use` chat template of Hermes 3 and, in its
 * current version, Hermes 2 Pro; vLLM serves Hermes models with an earlier copy): the tool list
 * with Python-style signatures in a system turn of its own, a system message in a second system
 * turn after it; calls as `{"name": …, "arguments": …}` in <tool_call> tags, one a line, without
 * the reply's text; the results of one turn in one `tool` turn, each as it came in
 * <tool_response> tags, one a line, the turn closed `</tool_response>\n<|im_end|>\n` as Nous's
 * own function-calling format writes it (NousResearch/Hermes-Function-Calling's README, which the
 * model cards repeat). The template writes that newline before <|im_end|> only where the tool turn
 * is not the conversation's last message (its `loop.last` test, meant for the line between two
 * results) and never the newline after it (every other turn gets one): a stated difference, kept
 * so that a step's prompt is the next step's prefix and is the same wherever the turn stands.
 */
export const hermes3ToolFraming: ToolFraming = {
  protocol: "hermes",
  placement: "system-start",
  systemJoin: "<|im_end|>\n<|im_start|>system\n",
  toolResultRole: "tool",
  toolSection: (tools) =>
    "You are a function calling AI model. You are provided with function signatures within <tools></tools> XML tags. You may call one or more functions to assist with the user query. Don't make assumptions about what values to plug into functions. Here are the available tools: <tools> " +
    tools.map(hermesTool).join("\n") +
    // The schema's closing "}}" is the template's own (one brace too many).
    ' </tools>Use the following pydantic model json schema for each tool call you will make: {"properties": {"name": {"title": "Name", "type": "string"}, "arguments": {"title": "Arguments", "type": "object"}}, "required": ["name", "arguments"], "title": "FunctionCall", "type": "object"}}\n' +
    "For each function call return a json object with function name and arguments within <tool_call></tool_call> XML tags as follows:\n<tool_call>\n" +
    '{"name": <function-name>, "arguments": <args-dict>}\n</tool_call>',
  renderAssistant: (message) => (message.toolCalls?.length ? message.toolCalls.map(hermesCall).join("\n") : message.content),
  renderToolResult: (message, escape = (text) => text) => `<tool_response>\n${escape(message.content)}\n</tool_response>`,
  joinToolResults: (rendered) => `${rendered.join("\n")}\n`,
};

const controlTokens = [LLAMA3_BOS, ...CHATML_TOKENS, ...LLAMA3_END_TOKENS, "<tool_call>", "</tool_call>"];

export const hermes3: ModelFamily = {
  id: "hermes3",
  label: "Hermes 3",
  templateName: "hermes3_llama-3_1",
  templateLabel: "Hermes 3 (ChatML on Llama 3)",
  webllmIds: /^hermes-3-llama-3\.2-/i,
  webllmModels: {
    records: [
      { model_id: "Hermes-3-Llama-3.2-3B-q4f32_1-MLC", model: "Hermes-3-Llama-3.2-3B-q4f32_1-MLC", model_lib: "Llama-3.2-3B-Instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 2951.51, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Hermes-3-Llama-3.2-3B-q4f16_1-MLC", model: "Hermes-3-Llama-3.2-3B-q4f16_1-MLC", model_lib: "Llama-3.2-3B-Instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 2263.69, low_resource_required: true, overrides: { context_window_size: 4096 } },
    ],
    promptStart: "<|begin_of_text|><|im_start|>system\n",
    endTokens: ["<|im_end|>", "<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"],
  },
  serverNames: /hermes/i,
  conv: {
    template: {
      // mlc-llm's hermes3_llama-3_1: ChatML on a Llama 3.1 tokenizer. Its stop ids are Llama 3.1's
      // <|end_of_text|>, <|eom_id|>, <|eot_id|> and Hermes 3's own <|im_end|> (128040); Hermes 2
      // Pro's <|im_end|> was 128003. Hermes 3's own template writes no system turn unless given one.
      name: "hermes3_llama-3_1",
      ...chatmlTurns,
      system_message: "",
      render_empty_system_message: false,
      roles: { ...chatmlTurns.roles, tool: "<|im_start|>tool" },
      stop_str: ["<|im_end|>"],
      stop_token_ids: [128001, 128008, 128009, 128040],
    },
    // Llama 3 based: WebLLM's raw path encodes without special tokens and this conv_template has
    // no system_prefix_token_ids, so the BOS the model was trained with is written here.
    extras: { prefixText: LLAMA3_BOS, extraStop: LLAMA3_END_TOKENS, controlTokens, toolFraming: hermes3ToolFraming },
  },
  controlTokens,
  protocol: { trained: "hermes", fallback: "hermes", why: "Hermes models define the <tool_call> format" },
  sampling: () => ({ label: "Hermes 3 (Llama 3.2)", ...LLAMA3_SAMPLING, maxTokens: REPLY_MAX_TOKENS, ...penaltiesOff }),
  kvState: "kv_cache",
  contextNotes: "131,072 tokens native (Llama 3.x); WebLLM's builds run 4,096.",
};
