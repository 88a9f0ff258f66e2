// Gemma 2 (2B it): <start_of_turn>user/model turns, no system role (the system text opens the
// first user turn, as Gemma 3's template writes it), no tool format.
import { labDefaults } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

export const GEMMA_TOKENS = ["<bos>", "<start_of_turn>", "<end_of_turn>", "<eos>"];

export const gemma2: ModelFamily = {
  id: "gemma2",
  label: "Gemma 2",
  templateName: "gemma_instruction",
  templateLabel: "Gemma",
  webllmIds: /^gemma-2-2b-it-/i,
  webllmModels: {
    records: [
      { model_id: "gemma-2-2b-it-q4f16_1-MLC", model: "gemma-2-2b-it-q4f16_1-MLC", model_lib: "gemma-2-2b-it-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 1895.3, low_resource_required: false, overrides: { context_window_size: 4096 } },
      { model_id: "gemma-2-2b-it-q4f32_1-MLC", model: "gemma-2-2b-it-q4f32_1-MLC", model_lib: "gemma-2-2b-it-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 2508.75, low_resource_required: false, overrides: { context_window_size: 4096 } },
      { model_id: "gemma-2-2b-it-q4f16_1-MLC-1k", model: "gemma-2-2b-it-q4f16_1-MLC", model_lib: "gemma-2-2b-it-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 1583.3, low_resource_required: true, overrides: { context_window_size: 1024 } },
      { model_id: "gemma-2-2b-it-q4f32_1-MLC-1k", model: "gemma-2-2b-it-q4f32_1-MLC", model_lib: "gemma-2-2b-it-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 1884.75, low_resource_required: true, overrides: { context_window_size: 1024 } },
    ],
    promptStart: "<bos><start_of_turn>user\n",
    endTokens: ["<end_of_turn>", "<eos>"],
  },
  serverNames: /gemma/i,
  ggufArchitecture: "gemma2",
  conv: {
    template: {
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
    // The system_template already starts with <bos> as text; its prefix id is the same token,
    // so it is not written twice.
    extras: { extraStop: ["<eos>"], controlTokens: GEMMA_TOKENS, rules: { trimContent: true, systemInFirstTurn: true } },
  },
  controlTokens: GEMMA_TOKENS,
  protocol: { fallback: "xml", why: "no trained tool format; tags are the easiest to follow" },
  sampling: () => labDefaults("Gemma 2"),
  kvState: "kv_cache",
  contextNotes: "8,192 tokens native; WebLLM's builds run 4,096 (and 1,024 in the -1k variants, too small for tools).",
};
