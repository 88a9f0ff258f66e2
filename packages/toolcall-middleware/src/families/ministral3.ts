// Ministral 3 Instruct (3B 2512 in WebLLM 0.2.86's list; 3B, 8B, 14B on servers): tokenizer v13
// (Tekken). The system text is a [SYSTEM_PROMPT] turn, `[INST]…[/INST]` without spaces; with
// tools, the list before the first user turn, calls `[TOOL_CALLS]NAME[ARGS]{…}` one after the
// other, results `[TOOL_RESULTS]…[/TOOL_RESULTS]` without ids. Checked against mistral-common's
// v13 template in parity-mistral.test.ts.
//
// WebLLM's build names mlc-llm's conv_template "ministral3" (python/mlc_llm/conversation_template/
// ministral3.py). The lab loads the model with its own copy of it (chat-path.ts), changed in two
// places: (1) no `{function_string}` after [/SYSTEM_PROMPT] — WebLLM 0.2.86 fills that placeholder
// in role templates only, so its own formatter would leave the literal text in every system
// prompt; (2) no default system message: mlc's is Le Chat's long prompt with `{today}` and
// `{yesterday}` placeholders WebLLM never fills, and mistral-common's template writes none.
import type { ToolFraming } from "../types.ts";
import { chatTemplateFromConv } from "./conv-template.ts";
import type { ConvTemplate } from "./conv-types.ts";
import { mistralToolsJson, namedArgsCalls, TEKKEN_CONTROL_TOKENS } from "./mistral-tools.ts";
import { penaltiesOff, REPLY_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

/**
 * v13's writing of the mistral protocol, as mistral-common's InstructTokenizerV13, its v13.jinja
 * and the Hugging Face template write it: the tool list just before the first [INST]
 * (`[AVAILABLE_TOOLS]…[/AVAILABLE_TOOLS][INST]text`). A server's prompt mode and render-prompt
 * with a server model name write that.
 */
export const v13ToolFraming: ToolFraming = {
  protocol: "mistral",
  placement: "before-first-user",
  toolResultRole: "tool",
  toolSection: (tools) => `[AVAILABLE_TOOLS]${mistralToolsJson(tools)}[/AVAILABLE_TOOLS]`,
  renderAssistant: (message) => (message.toolCalls?.length ? `${message.content}${namedArgsCalls(message.toolCalls, false)}` : message.content),
  // The conv_template's tool role writes [TOOL_RESULTS]…[/TOOL_RESULTS] around the text.
  renderToolResult: (message, escape = (text) => text) => escape(message.content),
};

/**
 * On WebLLM's chat path (a WebLLM model id) the tool list opens the first user turn's text, inside
 * its [INST] (`[INST][AVAILABLE_TOOLS]…[/AVAILABLE_TOOLS]text`): a conv_template has no slot
 * between the system turn and the first user turn, so WebLLM's formatter cannot write the list
 * before it. The same tokens, [INST] moved by one place; the one stated difference.
 */
export const chatPathToolFraming = (framing: ToolFraming): ToolFraming => ({ ...framing, placement: "first-user" });

/** The server's template of a conv family: its own framing, the tool list before the first [INST]. */
export const v13ServerTemplate =
  (conv: NonNullable<ModelFamily["conv"]>, framing: ToolFraming): NonNullable<ModelFamily["template"]> =>
  (settings) =>
    chatTemplateFromConv(conv.template, { ...conv.extras, toolFraming: framing }, settings);

/** mlc-llm's "ministral3" turns (see above for the two changes). */
export const ministral3Turns: Omit<ConvTemplate, "name" | "system_message"> = {
  system_template: "[SYSTEM_PROMPT]{system_message}[/SYSTEM_PROMPT]",
  render_empty_system_message: false,
  roles: { user: "", assistant: "", tool: "" },
  role_templates: { user: "[INST]{user_message}[/INST]", assistant: "{assistant_message}</s>", tool: "[TOOL_RESULTS]{tool_message}[/TOOL_RESULTS]" },
  seps: [""],
  role_content_sep: "",
  role_empty_sep: "",
  stop_str: ["</s>"],
  stop_token_ids: [2],
  system_prefix_token_ids: [1],
};

const ministral3Conv: NonNullable<ModelFamily["conv"]> = {
  template: { name: "ministral3", system_message: "", ...ministral3Turns },
  extras: { prefixText: "<s>", controlTokens: TEKKEN_CONTROL_TOKENS, toolFraming: chatPathToolFraming(v13ToolFraming) },
};

export const ministral3: ModelFamily = {
  id: "ministral3",
  label: "Ministral 3",
  templateName: "ministral3",
  templateLabel: "Ministral 3 (v13 Tekken, [TOOL_CALLS]NAME[ARGS])",
  webllmIds: /^Ministral-3-\d+B-Instruct-/i,
  webllmModels: {
    records: [
      { model_id: "Ministral-3-3B-Instruct-2512-BF16-q4f16_1-MLC", model: "Ministral-3-3B-Instruct-2512-BF16-q4f16_1-MLC", model_lib: "Ministral-3-3B-Instruct-2512-BF16-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 2863.69, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Ministral-3-3B-Instruct-2512-BF16-q4f32_1-MLC", model: "Ministral-3-3B-Instruct-2512-BF16-q4f32_1-MLC", model_lib: "Ministral-3-3B-Instruct-2512-BF16-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 3532.37, low_resource_required: true, overrides: { context_window_size: 4096 } },
    ],
    promptStart: "<s>[SYSTEM_PROMPT]",
    endTokens: ["</s>"],
  },
  catalogLabel: "Ministral 3 Instruct",
  // Hugging Face ids (Ministral-3-8B-Instruct-2512) and Ollama tags (ministral-3:8b); not the Base or Reasoning models.
  serverNames: /^(?:(?!ministral-?3[-:]\d)[^])*ministral-?3[-:]\d+b(?![^]*(?:reasoning|base))/i,
  conv: ministral3Conv,
  template: v13ServerTemplate(ministral3Conv, v13ToolFraming),
  controlTokens: TEKKEN_CONTROL_TOKENS,
  protocol: { trained: "mistral", fallback: "mistral", why: "Ministral 3 was trained on [TOOL_CALLS]NAME[ARGS]{…}" },
  // The model card recommends a temperature below 0.1 for everyday and production use.
  sampling: () => ({ label: "Ministral 3 Instruct", source: "Ministral 3's model card (temperature below 0.1), the lab's top-p", maxTokens: REPLY_MAX_TOKENS, temperature: 0.05, topP: 0.9, ...penaltiesOff }),
  kvState: "kv_cache",
  contextNotes: "256k tokens native; WebLLM's builds run 4,096, which holds the eight built-in tools' prompt (~1.3k tokens) and a short loop.",
};
