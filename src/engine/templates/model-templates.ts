// The conversation templates of the model families we support, as their mlc-chat-config.json
// files carry them (mlc-llm's conversation_template registry: qwen2, qwen3, llama-3_1,
// hermes3_llama-3_1, chatml, phi-3, gemma_instruction), with the corrections their Hugging Face
// chat templates call for (see FamilyRules and the notes below). No config can be downloaded here, so
// the strings live in the repo; the test checks our rendering against WebLLM's own formatter.
import { chatTemplateFromConv, type ConvTemplate, type ConvTemplateExtras, type ModelChatTemplate } from "./conv-template.ts";

const chatmlTokens = ["<|im_start|>", "<|im_end|>", "<|endoftext|>"];
const LLAMA3_BOS = "<|begin_of_text|>";

// Qwen2 / 2.5 and Qwen3 write their turns alike; they differ in name (and in the think tags of
// the extras below).
const qwenTurns = {
  system_template: "<|im_start|>system\n{system_message}<|im_end|>\n",
  system_message: "You are a helpful assistant.",
  roles: { user: "<|im_start|>user", assistant: "<|im_start|>assistant" },
  seps: ["<|im_end|>\n"],
  role_content_sep: "\n",
  role_empty_sep: "\n",
  stop_str: ["<|endoftext|>", "<|im_end|>"],
  stop_token_ids: [151643, 151645],
} satisfies Omit<ConvTemplate, "name">;

export const convTemplates = {
  qwen3: { name: "qwen3", ...qwenTurns },
  qwen2: { name: "qwen2", ...qwenTurns },
  "llama-3_1": {
    name: "llama-3_1",
    system_template: "<|start_header_id|>system<|end_header_id|>\n\n{system_message}<|eot_id|>",
    system_message: "You are a helpful, respectful and honest assistant.",
    roles: { user: "<|start_header_id|>user", assistant: "<|start_header_id|>assistant", tool: "<|start_header_id|>ipython" },
    seps: ["<|eot_id|>"],
    role_content_sep: "<|end_header_id|>\n\n",
    role_empty_sep: "<|end_header_id|>\n\n",
    stop_str: [],
    stop_token_ids: [128001, 128008, 128009],
    system_prefix_token_ids: [128000],
    add_role_after_system_message: true,
  },
  "hermes3_llama-3_1": {
    // mlc-llm's hermes3_llama-3_1: ChatML on a Llama 3.1 tokenizer. Its stop ids are Llama 3.1's
    // <|end_of_text|>, <|eom_id|>, <|eot_id|> and Hermes 3's own <|im_end|> (128040); Hermes 2
    // Pro's <|im_end|> was 128003. The default system message is ours: the lab always sends one.
    name: "hermes3_llama-3_1",
    system_template: "<|im_start|>system\n{system_message}<|im_end|>\n",
    system_message: "You are Hermes 3, a helpful assistant.",
    roles: { user: "<|im_start|>user", assistant: "<|im_start|>assistant", tool: "<|im_start|>tool" },
    seps: ["<|im_end|>\n"],
    role_content_sep: "\n",
    role_empty_sep: "\n",
    stop_str: ["<|im_end|>"],
    stop_token_ids: [128001, 128008, 128009, 128040],
  },
  chatml: {
    name: "chatml",
    system_template: "<|im_start|>system\n{system_message}<|im_end|>\n",
    system_message: "A conversation between a user and an LLM-based AI assistant. The assistant gives helpful and honest answers.",
    roles: { user: "<|im_start|>user", assistant: "<|im_start|>assistant" },
    seps: ["<|im_end|>\n"],
    role_content_sep: "\n",
    role_empty_sep: "\n",
    stop_str: ["<|im_end|>"],
    stop_token_ids: [2],
  },
  "phi-3": {
    name: "phi-3",
    // mlc-llm's phi-3 writes "<|system|>\n{system}" and no <|end|>; Phi-3.5's own template
    // closes the system block like every other turn.
    system_template: "<|system|>\n{system_message}<|end|>\n",
    system_message: "You are a helpful digital assistant. Please provide safe, ethical and accurate information to the user.",
    roles: { user: "<|user|>", assistant: "<|assistant|>" },
    seps: ["<|end|>\n"],
    role_content_sep: "\n",
    role_empty_sep: "\n",
    stop_str: ["<|endoftext|>"],
    stop_token_ids: [32000, 32001, 32007],
    system_prefix_token_ids: [1],
  },
  gemma_instruction: {
    name: "gemma_instruction",
    system_template: "<bos>{system_message}",
    system_message: "",
    roles: { user: "<start_of_turn>user", assistant: "<start_of_turn>model" },
    seps: ["<end_of_turn>\n"],
    role_content_sep: "\n",
    role_empty_sep: "\n",
    stop_str: ["<end_of_turn>"],
    stop_token_ids: [1, 107],
    system_prefix_token_ids: [2],
  },
} satisfies Record<string, ConvTemplate>;

export type ConvTemplateName = keyof typeof convTemplates;

export const convTemplateExtras: Record<ConvTemplateName, ConvTemplateExtras> = {
  qwen3: {
    controlTokens: [...chatmlTokens, "<think>", "</think>", "<tool_call>", "</tool_call>"],
    supportsThinkingToggle: true,
    rules: { thinkBlocksAfterLastQuery: true },
  },
  qwen2: { controlTokens: [...chatmlTokens, "<tool_call>", "</tool_call>"] },
  "llama-3_1": {
    prefixText: LLAMA3_BOS,
    extraStop: ["<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"],
    controlTokens: [LLAMA3_BOS, "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"],
    rules: { trimContent: true, systemPreamble: llama32SystemPreamble },
  },
  // Llama 3 based: WebLLM's raw path encodes without special tokens and this conv_template has
  // no system_prefix_token_ids, so the BOS the model was trained with is written here.
  "hermes3_llama-3_1": {
    prefixText: LLAMA3_BOS,
    extraStop: ["<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"],
    controlTokens: [LLAMA3_BOS, ...chatmlTokens, "<|eot_id|>", "<|eom_id|>", "<|end_of_text|>", "<tool_call>", "</tool_call>"],
  },
  // SmolLM2: <|im_end|> (id 2) ends a turn, but the model may also end with <|endoftext|> (id 0),
  // which the conv_template does not list: as a stop string WebLLM stops there and never shows it.
  chatml: { extraStop: ["<|endoftext|>"], controlTokens: chatmlTokens },
  "phi-3": {
    prefixText: "<s>",
    extraStop: ["<|end|>", "<|endoftext|>"],
    controlTokens: ["<s>", "<|system|>", "<|user|>", "<|assistant|>", "<|end|>", "<|endoftext|>"],
  },
  // Gemma's system_template already starts with <bos> as text; its prefix id is the same token,
  // so it is not written twice.
  gemma_instruction: {
    extraStop: ["<eos>"],
    controlTokens: ["<bos>", "<start_of_turn>", "<end_of_turn>", "<eos>"],
    rules: { trimContent: true, systemInFirstTurn: true },
  },
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Llama 3.2's chat template opens every system turn with its knowledge cut-off and the date of
 * the request (strftime "%d %b %Y"); mlc-llm's llama-3_1 conv_template leaves both out.
 */
function llama32SystemPreamble(today: Date): string {
  const day = String(today.getDate()).padStart(2, "0");
  return `Cutting Knowledge Date: December 2023\nToday Date: ${day} ${MONTHS[today.getMonth()]} ${today.getFullYear()}\n\n`;
}

/** Which conv_template a WebLLM model id uses, by family. */
export function convTemplateNameForModel(modelId: string): ConvTemplateName | undefined {
  const id = modelId.toLowerCase();
  if (id.startsWith("qwen3-")) return "qwen3";
  if (id.startsWith("qwen2.5-") || id.startsWith("qwen2-")) return "qwen2";
  if (id.startsWith("hermes-3-")) return "hermes3_llama-3_1";
  if (id.startsWith("llama-3.2-") || id.startsWith("llama-3.1-")) return "llama-3_1";
  if (id.startsWith("smollm2-")) return "chatml";
  if (id.startsWith("phi-3")) return "phi-3";
  if (id.startsWith("gemma-2-") || id.startsWith("gemma-2b-")) return "gemma_instruction";
  return undefined;
}

export function chatTemplateForModel(modelId: string, settings: { enableThinking?: boolean } = {}): ModelChatTemplate | undefined {
  const name = convTemplateNameForModel(modelId);
  return name ? chatTemplateFromConv(convTemplates[name], convTemplateExtras[name], settings) : undefined;
}

/** The template the replay engine's prompts are shown with: Qwen3's ChatML, like the default model. */
export function replayChatTemplate(settings: { enableThinking?: boolean } = {}): ModelChatTemplate {
  return chatTemplateFromConv(convTemplates.qwen3, convTemplateExtras.qwen3, settings);
}
