// Llama 3.1 / 3.2 Instruct: Meta's header format, trained on JSON tool calls
// ({"name": …, "parameters": …}) with results in an `ipython` turn.
import { LLAMA3_SAMPLING, penaltiesOff, REPLY_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

export const LLAMA3_BOS = "<|begin_of_text|>";
export const LLAMA3_END_TOKENS = ["<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"];

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Llama 3.2's chat template opens every system turn with its knowledge cut-off and the date of
 * the request (strftime "%d %b %Y"); mlc-llm's llama-3_1 conv_template leaves both out.
 */
export function llama32SystemPreamble(today: Date): string {
  const day = String(today.getDate()).padStart(2, "0");
  return `Cutting Knowledge Date: December 2023\nToday Date: ${day} ${MONTHS[today.getMonth()]} ${today.getFullYear()}\n\n`;
}

const controlTokens = [LLAMA3_BOS, "<|start_header_id|>", "<|end_header_id|>", ...LLAMA3_END_TOKENS];

export const llama3: ModelFamily = {
  id: "llama3",
  label: "Llama 3.x",
  templateName: "llama-3_1",
  templateLabel: "Llama 3.1 / 3.2",
  webllmIds: /^llama-3\.[12]-\d/i,
  catalogLabel: (modelId) => (/^llama-3\.1/i.test(modelId) ? "Llama 3.1" : "Llama 3.2"),
  serverNames: /llama-?3/i,
  conv: {
    template: {
      name: "llama-3_1",
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
      rules: { trimContent: true, systemPreamble: llama32SystemPreamble },
    },
  },
  controlTokens,
  protocol: { trained: "llama3-json", fallback: "llama3-json", why: "Llama 3.1/3.2 were trained on Meta's JSON tool calls" },
  sampling: () => ({ label: "Llama 3.x", ...LLAMA3_SAMPLING, maxTokens: REPLY_MAX_TOKENS, ...penaltiesOff }),
  kvState: "kv_cache",
  contextNotes: "131,072 tokens native; WebLLM's builds run 4,096.",
};
