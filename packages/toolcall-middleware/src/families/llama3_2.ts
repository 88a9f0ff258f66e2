// Llama 3.2 Instruct (1B, 3B): Llama 3.1's format and tool framing (llama3.ts), but its template
// writes the date of the request where 3.1's writes a fixed one.
import { llama32SystemPreamble, llamaCommon, llamaConv } from "./llama3.ts";
import type { ModelFamily } from "./types.ts";

export const llama3_2: ModelFamily = {
  id: "llama3.2",
  label: "Llama 3.2",
  // mlc-llm's builds name its llama-3_1 conv_template; the lab records its own name, so a step says which date it wrote.
  templateName: "llama-3_2",
  templateLabel: "Llama 3.2",
  webllmIds: /^llama-3\.2-\d/i,
  serverNames: /llama-?3\.2/i,
  conv: llamaConv("llama-3_2", llama32SystemPreamble),
  ...llamaCommon,
};
