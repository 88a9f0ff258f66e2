// SmolLM2 Instruct (360M, 1.7B): plain ChatML, no trained tool format of its own that the lab has.
import { chatmlTurns, CHATML_TOKENS } from "./chatml-turns.ts";
import { penaltiesOff, REPLY_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

export const smollm2: ModelFamily = {
  id: "smollm2",
  label: "SmolLM2",
  templateName: "chatml",
  templateLabel: "ChatML (SmolLM2, generic)",
  webllmIds: /^smollm2-/i,
  webllmModels: {
    records: [
      { model_id: "SmolLM2-1.7B-Instruct-q4f16_1-MLC", model: "SmolLM2-1.7B-Instruct-q4f16_1-MLC", model_lib: "SmolLM2-1.7B-Instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 1774.19, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "SmolLM2-1.7B-Instruct-q4f32_1-MLC", model: "SmolLM2-1.7B-Instruct-q4f32_1-MLC", model_lib: "SmolLM2-1.7B-Instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 2692.38, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "SmolLM2-360M-Instruct-q4f16_1-MLC", model: "SmolLM2-360M-Instruct-q4f16_1-MLC", model_lib: "SmolLM2-360M-Instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 376.06, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "SmolLM2-360M-Instruct-q4f32_1-MLC", model: "SmolLM2-360M-Instruct-q4f32_1-MLC", model_lib: "SmolLM2-360M-Instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 579.61, low_resource_required: true, overrides: { context_window_size: 4096 } },
    ],
    promptStart: "<|im_start|>system\n",
    endTokens: ["<|im_end|>", "<|endoftext|>"],
  },
  serverNames: /smollm/i,
  conv: {
    template: {
      name: "chatml",
      ...chatmlTurns,
      // SmolLM2's own template writes this when no system message is given (WebLLM's chatml another).
      system_message: "You are a helpful AI assistant named SmolLM, trained by Hugging Face",
      stop_str: ["<|im_end|>"],
      stop_token_ids: [2],
    },
    // <|im_end|> (id 2) ends a turn, but the model may also end with <|endoftext|> (id 0), which
    // the conv_template does not list: as a stop string WebLLM stops there and never shows it.
    extras: { extraStop: ["<|endoftext|>"], controlTokens: [...CHATML_TOKENS] },
  },
  controlTokens: CHATML_TOKENS,
  protocol: { fallback: "xml", why: "no trained tool format the lab has; tags are the easiest to follow" },
  sampling: () => ({ label: "SmolLM2", source: "SmolLM2's model card example", maxTokens: REPLY_MAX_TOKENS, temperature: 0.2, topP: 0.9, ...penaltiesOff }),
  kvState: "kv_cache",
  contextNotes: "8,192 tokens native; WebLLM's builds run 4,096.",
};
