// Hermes 2 Pro (Llama 3 8B in WebLLM's list): ChatML on a Llama 3 tokenizer, Nous's own
// function-calling prompt (its current template's is Hermes 3's); its <|im_end|> is token 128003.
import { hermes3 } from "./hermes3.ts";
import type { ModelFamily } from "./types.ts";

const hermes3Conv = hermes3.conv!;

export const hermes2pro: ModelFamily = {
  ...hermes3,
  id: "hermes2pro",
  label: "Hermes 2 Pro",
  templateName: "hermes2_pro_llama3",
  templateLabel: "Hermes 2 Pro (ChatML on Llama 3)",
  webllmIds: /^hermes-2-pro-llama-3-8b-/i,
  serverNames: /hermes-2-pro/i,
  conv: {
    // mlc-llm's hermes2_pro_llama3: Llama 3's <|end_of_text|> and Hermes 2 Pro's own <|im_end|>.
    template: { ...hermes3Conv.template, name: "hermes2_pro_llama3", stop_token_ids: [128001, 128003] },
    // Its current tool_use template writes tools, calls and results as Hermes 3's does.
    extras: hermes3Conv.extras,
  },
  sampling: (thinking) => ({ ...hermes3.sampling(thinking), label: "Hermes 2 Pro (Llama 3)" }),
  contextNotes: "8,192 tokens native (Llama 3); WebLLM's builds run 4,096.",
};
