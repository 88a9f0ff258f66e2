// Phi-3.5 mini: <|system|>/<|user|>/<|assistant|> blocks closed by <|end|>; no tool format.
import { labDefaults } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const controlTokens = ["<s>", "<|system|>", "<|user|>", "<|assistant|>", "<|end|>", "<|endoftext|>"];

export const phi3: ModelFamily = {
  id: "phi3",
  label: "Phi-3.5",
  templateName: "phi-3",
  templateLabel: "Phi-3 / 3.5",
  webllmIds: /^phi-3\.5-mini/i,
  webllmModels: {
    // paramsB: the ids do not spell the size (3.8B, the model card).
    records: [
      { model_id: "Phi-3.5-mini-instruct-q4f16_1-MLC", model: "Phi-3.5-mini-instruct-q4f16_1-MLC", model_lib: "Phi-3.5-mini-instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 3672.07, low_resource_required: false, overrides: { context_window_size: 4096 }, paramsB: 3.8 },
      { model_id: "Phi-3.5-mini-instruct-q4f32_1-MLC", model: "Phi-3.5-mini-instruct-q4f32_1-MLC", model_lib: "Phi-3.5-mini-instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 5483.12, low_resource_required: false, overrides: { context_window_size: 4096 }, paramsB: 3.8 },
      { model_id: "Phi-3.5-mini-instruct-q4f16_1-MLC-1k", model: "Phi-3.5-mini-instruct-q4f16_1-MLC", model_lib: "Phi-3.5-mini-instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 2520.07, low_resource_required: true, overrides: { context_window_size: 1024 }, paramsB: 3.8 },
      { model_id: "Phi-3.5-mini-instruct-q4f32_1-MLC-1k", model: "Phi-3.5-mini-instruct-q4f32_1-MLC", model_lib: "Phi-3.5-mini-instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 3179.12, low_resource_required: true, overrides: { context_window_size: 1024 }, paramsB: 3.8 },
    ],
    promptStart: "<s><|system|>\n",
    endTokens: ["<|end|>", "<|endoftext|>"],
  },
  serverNames: /phi-?3/i,
  conv: {
    template: {
      name: "phi-3",
      // mlc-llm's phi-3 writes "<|system|>\n{system}" and no <|end|>; Phi-3.5's own template
      // closes the system block like every other turn.
      system_template: "<|system|>\n{system_message}<|end|>\n",
      // Phi-3.5's own template writes no system block for an empty or absent system message.
      system_message: "",
      render_empty_system_message: false,
      roles: { user: "<|user|>", assistant: "<|assistant|>" },
      seps: ["<|end|>\n"],
      role_content_sep: "\n",
      role_empty_sep: "\n",
      stop_str: ["<|endoftext|>"],
      stop_token_ids: [32000, 32001, 32007],
      system_prefix_token_ids: [1],
    },
    extras: { prefixText: "<s>", extraStop: ["<|end|>", "<|endoftext|>"], controlTokens },
  },
  controlTokens,
  protocol: { fallback: "xml", why: "no trained tool format; tags are the easiest to follow" },
  sampling: () => labDefaults("Phi-3.5"),
  kvState: "kv_cache",
  contextNotes: "131,072 tokens native; WebLLM's builds run 4,096 (and 1,024 in the -1k variants, too small for tools).",
};
