// Mistral 7B Instruct v0.3 (WebLLM's list and servers) and its [INST] relatives on servers.
// Tokenizer v3 (sentencepiece): `<s>[INST] user[/INST] reply</s>`, the
// system text in front of the last user message. With tools its template writes the mistral
// protocol its own way (v3ToolFraming), checked against mistral-common's v3 template in
// src/engine/templates/parity-mistral.test.ts.
import type { ToolFraming } from "../types.ts";
import type { ConvTemplate, WrittenTurn } from "./conv-types.ts";
import { callObjectWithId, mistralToolsJson, resultJson } from "./mistral-tools.ts";
import { labDefaults } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const controlTokens = ["<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]"];

const TOOL_CALLS = "[TOOL_CALLS] [";

/**
 * v0.3's writing of the mistral protocol (mistral-common's v3 template): `[AVAILABLE_TOOLS] […]`
 * before the last [INST]; calls `[TOOL_CALLS] [{"name", "arguments", "id"}…]` straight after
 * [/INST] (no space, no reply text: the template refuses both); each result
 * `[TOOL_RESULTS] {"content": …, "call_id": …}[/TOOL_RESULTS]`, its content parsed as JSON where
 * it is JSON, as mistral-common's tokenizer does (the Jinja template parses numbers only).
 */
export const v3ToolFraming: ToolFraming = {
  protocol: "mistral",
  placement: "last-user",
  toolResultRole: "tool",
  toolSection: (tools) => `[AVAILABLE_TOOLS] ${mistralToolsJson(tools)}[/AVAILABLE_TOOLS]`,
  renderAssistant: (message) => (message.toolCalls?.length ? `${TOOL_CALLS}${message.toolCalls.map(callObjectWithId).join(", ")}]` : message.content),
  renderToolResult: (message, escape = (text) => text) => `[TOOL_RESULTS] ${resultJson(escape(message.content), message.toolCallId)}[/TOOL_RESULTS]`,
};

/**
 * v0.3's turns (mistral-common's v3 template): `<s>` first, `[INST] text[/INST]` with the system
 * text in front of the last user message's text and the tool list before that [INST], a reply
 * after a space (a call turn straight after [/INST] or the results), `</s>` after each reply
 * (the conv_template's assistant role), results as they are written.
 */
function writeV3Turn(turn: WrittenTurn): string {
  const open = turn.first ? "<s>" : "";
  if (turn.role === "user") return `${open}${turn.header ?? ""}[INST] ${turn.lastUser && turn.system ? `${turn.system}\n\n` : ""}${turn.text}[/INST]`;
  if (turn.role === "assistant") return open + (turn.text.startsWith(TOOL_CALLS) || turn.text.startsWith(" ") ? turn.text : ` ${turn.text}`);
  return open + turn.text;
}

/**
 * The conv_template the lab loads v0.3 with (WebLLM's build names mlc-llm's `mistral_default`,
 * `[INST] system [INST] user [/INST]`, which is not v0.3's format): roles that write nothing
 * around a turn but the `</s>` after a reply, every turn's text written by writeV3Turn.
 */
const v3Conv: ConvTemplate = {
  name: "mistral",
  system_template: "",
  system_message: "",
  render_empty_system_message: false,
  roles: { user: "", assistant: "", tool: "" },
  role_templates: { user: "{user_message}", assistant: "{assistant_message}</s>", tool: "{tool_message}" },
  seps: [""],
  role_content_sep: "",
  role_empty_sep: "",
  stop_str: ["</s>"],
  stop_token_ids: [2],
};

export const mistral: ModelFamily = {
  id: "mistral",
  label: "Mistral",
  templateName: "mistral",
  templateLabel: "Mistral v0.3 ([INST])",
  webllmIds: /^Mistral-7B-Instruct-v0\.3-/i,
  webllmModels: {
    records: [
      { model_id: "Mistral-7B-Instruct-v0.3-q4f16_1-MLC", model: "Mistral-7B-Instruct-v0.3-q4f16_1-MLC", model_lib: "Mistral-7B-Instruct-v0.3-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 4573.39, low_resource_required: false, overrides: { context_window_size: 4096 } },
      { model_id: "Mistral-7B-Instruct-v0.3-q4f32_1-MLC", model: "Mistral-7B-Instruct-v0.3-q4f32_1-MLC", model_lib: "Mistral-7B-Instruct-v0.3-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 5619.27, low_resource_required: false, overrides: { context_window_size: 4096 } },
    ],
    promptStart: "<s>[INST] S\n\nHi[/INST]",
    endTokens: ["</s>"],
  },
  catalogLabel: "Mistral 7B v0.3",
  serverNames: /mistral|mixtral|ministral|codestral/i,
  conv: { template: v3Conv, extras: { controlTokens, toolFraming: v3ToolFraming, rules: { writeTurn: writeV3Turn } } },
  controlTokens,
  protocol: { trained: "mistral", fallback: "mistral", why: "Mistral's instruct models were trained on [TOOL_CALLS]" },
  sampling: () => labDefaults("Mistral"),
  kvState: "kv_cache",
  contextNotes: "32,768 tokens; WebLLM's builds run 4,096, which holds the eight built-in tools' prompt (~1.1k tokens).",
};
