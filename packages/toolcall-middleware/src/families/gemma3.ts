// Gemma 3 (1B it in WebLLM's list): Gemma 2's turns; its own template writes the system text at
// the start of the first user turn. No tool tokens: Google's function-calling guide prompts for
// Python-style calls, so the pythonic protocol is recommended (no trained format to match).
import { gemma2, GEMMA_TOKENS } from "./gemma2.ts";
import { labDefaults } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

export const gemma3: ModelFamily = {
  id: "gemma3",
  label: "Gemma 3",
  templateName: "gemma3_instruction",
  templateLabel: "Gemma 3",
  webllmIds: /^gemma3-1b-it-/i,
  webllmModels: {
    records: [
      { model_id: "gemma3-1b-it-q4f16_1-MLC", model: "gemma3-1b-it-q4f16_1-MLC", model_lib: "gemma3-1b-it-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 711.07, low_resource_required: true, overrides: { context_window_size: 4096 } },
    ],
    promptStart: "<bos><start_of_turn>user\n",
    endTokens: ["<end_of_turn>", "<eos>"],
  },
  serverNames: /gemma-?3(?!n)/i,
  ggufArchitecture: "gemma3",
  conv: { template: { ...gemma2.conv!.template, name: "gemma3_instruction" }, extras: gemma2.conv!.extras },
  controlTokens: GEMMA_TOKENS,
  protocol: { fallback: "pythonic", why: "Gemma 3 has no tool tokens; Google's function-calling guide prompts for Python-style calls" },
  sampling: () => labDefaults("Gemma 3"),
  kvState: "kv_cache",
  contextNotes: "32,768 tokens native (1B); WebLLM's build runs 4,096.",
};
