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
  webllmModels: {
    records: [
      { model_id: "Llama-3.2-1B-Instruct-q4f32_1-MLC", model: "Llama-3.2-1B-Instruct-q4f32_1-MLC", model_lib: "Llama-3.2-1B-Instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 1128.82, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Llama-3.2-1B-Instruct-q4f16_1-MLC", model: "Llama-3.2-1B-Instruct-q4f16_1-MLC", model_lib: "Llama-3.2-1B-Instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 879.04, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Llama-3.2-3B-Instruct-q4f32_1-MLC", model: "Llama-3.2-3B-Instruct-q4f32_1-MLC", model_lib: "Llama-3.2-3B-Instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 2951.51, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Llama-3.2-3B-Instruct-q4f16_1-MLC", model: "Llama-3.2-3B-Instruct-q4f16_1-MLC", model_lib: "Llama-3.2-3B-Instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 2263.69, low_resource_required: true, overrides: { context_window_size: 4096 } },
    ],
    promptStart: "<|begin_of_text|><|start_header_id|>system",
    endTokens: ["<|eot_id|>", "<|eom_id|>", "<|end_of_text|>"],
  },
  serverNames: /llama-?3\.2/i,
  conv: llamaConv("llama-3_2", llama32SystemPreamble),
  ...llamaCommon,
};
