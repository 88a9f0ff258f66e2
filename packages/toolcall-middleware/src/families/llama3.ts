// Llama 3.1 / 3.2 Instruct: Meta's header format, trained on JSON tool calls
// ({"name": …, "parameters": …}) with results in an `ipython` turn.
import type { ToolCall, ToolFraming, ToolSpec } from "../types.ts";
import { LLAMA3_SAMPLING, penaltiesOff, REPLY_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";
import { jsonResultValue } from "./json-result.ts";
import { pyJson } from "./py-json.ts";

export const LLAMA3_BOS = "<|begin_of_text|>";
export const LLAMA3_END_TOKENS = ["<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"];

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Meta's chat templates open every system turn with the knowledge cut-off and a date; mlc-llm's
 * llama-3_1 conv_template leaves both out. Llama 3.2's writes the date of the request (strftime
 * "%d %b %Y"); Llama 3.1's (and 3.3's) writes its fixed default, since servers pass no
 * `date_string`.
 */
export function llama32SystemPreamble(today: Date): string {
  const day = String(today.getDate()).padStart(2, "0");
  return `Cutting Knowledge Date: December 2023\nToday Date: ${day} ${MONTHS[today.getMonth()]} ${today.getFullYear()}\n\n`;
}

/** Llama 3.1's template: `date_string` defaults to "26 Jul 2024", whatever the day. */
export const llama31SystemPreamble = () => "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n";

/** `<|` inside a JSON string is written `\u003c|`: the same JSON, and no control token a call could forge. */
const inertJson = (json: string) => json.replaceAll("<|", "\\u003c|");

/** Each tool as the template's `tojson(indent=4)` writes it (the same as JSON.stringify with 4 spaces for these values). */
const indentedTool = (tool: ToolSpec) => JSON.stringify({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } }, null, 4);

const llamaCall = (call: ToolCall) => inertJson(`{"name": "${call.name}", "parameters": ${pyJson(call.arguments)}}`);

/**
 * Meta's own writing of its JSON tool calls (Llama 3.1's chat template; Llama 3.2's text models
 * use the same, with today's date): the system turn opens with "Environment: ipython", the tools
 * go in front of the first user message, in Meta's words (its missing spaces after "call." and
 * "value}." included: that is the text the model was trained on); a call is written back as bare
 * JSON without the assistant's text; a result is an `ipython` turn: a result whose text is JSON
 * is that value as the template's `tojson` writes it (Python's spacing), as Meta's prompt-format
 * docs show results (a client passes the tool's output as a value), and plain text is a JSON
 * string (`tojson` again, since a string "is iterable"). The template refuses parallel
 * calls ("This model only supports single tool-calls at once!"); the lab writes them as the
 * protocol reads them, separated by "; ".
 */
export const llama3ToolFraming: ToolFraming = {
  protocol: "llama3-json",
  placement: "first-user",
  systemHeader: "Environment: ipython\n",
  toolSection: (tools) =>
    "Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.\n\n" +
    'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.Do not use variables.\n\n' +
    tools.map((tool) => `${indentedTool(tool)}\n\n`).join(""),
  renderAssistant: (message) => (message.toolCalls?.length ? message.toolCalls.map(llamaCall).join("; ") : message.content),
  renderToolResult: (message, escape = (text) => text) => {
    const json = jsonResultValue(message.content, escape);
    return inertJson(json ? pyJson(json.value) : JSON.stringify(escape(message.content)));
  },
};

const controlTokens = [LLAMA3_BOS, "<|start_header_id|>", "<|end_header_id|>", ...LLAMA3_END_TOKENS];

/** mlc-llm's llama-3_1 conv_template (Llama 3.1 and 3.2 builds), under a name, with the date a template writes. */
export function llamaConv(name: string, systemPreamble: (today: Date) => string): NonNullable<ModelFamily["conv"]> {
  return {
    template: {
      name,
      system_template: "<|start_header_id|>system<|end_header_id|>\n\n{system_message}<|eot_id|>",
      // Meta's template always writes the system turn (its date lines), with an empty message when none is given.
      system_message: "",
      roles: { user: "<|start_header_id|>user", assistant: "<|start_header_id|>assistant", tool: "<|start_header_id|>ipython" },
      seps: ["<|eot_id|>"],
      role_content_sep: "<|end_header_id|>\n\n",
      role_empty_sep: "<|end_header_id|>\n\n",
      stop_str: [],
      stop_token_ids: [128001, 128008, 128009],
      system_prefix_token_ids: [128000],
      add_role_after_system_message: true,
    },
    extras: {
      prefixText: LLAMA3_BOS,
      extraStop: LLAMA3_END_TOKENS,
      controlTokens,
      rules: { trimContent: true, systemPreamble },
      toolFraming: llama3ToolFraming,
    },
  };
}

/** What Llama 3.1 and 3.2 share beside their template (Llama 3.2 is its own family for its date). */
export const llamaCommon = {
  controlTokens,
  protocol: { trained: "llama3-json", fallback: "llama3-json", why: "Llama 3.1/3.2 were trained on Meta's JSON tool calls" },
  sampling: () => ({ label: "Llama 3.x", ...LLAMA3_SAMPLING, maxTokens: REPLY_MAX_TOKENS, ...penaltiesOff }),
  kvState: "kv_cache",
  contextNotes: "131,072 tokens native; WebLLM's builds run 4,096.",
} satisfies Partial<ModelFamily>;

/** Llama 3.1 (and 3.3, whose template is 3.1's): the template's fixed date. */
export const llama3: ModelFamily = {
  id: "llama3",
  label: "Llama 3.1",
  templateName: "llama-3_1",
  templateLabel: "Llama 3.1 / 3.3",
  webllmIds: /^llama-3\.1-\d/i,
  serverNames: /llama-?3/i,
  conv: llamaConv("llama-3_1", llama31SystemPreamble),
  ...llamaCommon,
};
