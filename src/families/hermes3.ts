// Hermes 3 (Llama 3.2 3B, Llama 3.1 8B): ChatML on a Llama 3 tokenizer; Nous Research's own
// <tool_call> format, which the hermes protocol is named after.
import { chatmlTurns, CHATML_TOKENS } from "./chatml-turns.ts";
import { LLAMA3_BOS, LLAMA3_END_TOKENS } from "./llama3.ts";
import { LLAMA3_SAMPLING, penaltiesOff, REPLY_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const controlTokens = [LLAMA3_BOS, ...CHATML_TOKENS, ...LLAMA3_END_TOKENS, "<tool_call>", "</tool_call>"];

export const hermes3: ModelFamily = {
  id: "hermes3",
  label: "Hermes 3",
  templateName: "hermes3_llama-3_1",
  templateLabel: "Hermes 3 (ChatML on Llama 3)",
  webllmIds: /^hermes-3-llama-3\.2-/i,
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
    extras: { prefixText: LLAMA3_BOS, extraStop: LLAMA3_END_TOKENS, controlTokens },
  },
  controlTokens,
  protocol: { trained: "hermes", fallback: "hermes", why: "Hermes models define the <tool_call> format" },
  sampling: () => ({ label: "Hermes 3 (Llama 3.2)", ...LLAMA3_SAMPLING, maxTokens: REPLY_MAX_TOKENS, ...penaltiesOff }),
  kvState: "kv_cache",
  contextNotes: "131,072 tokens native (Llama 3.x); WebLLM's builds run 4,096.",
};
