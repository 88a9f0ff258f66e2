// Qwen3 (0.6B–8B in WebLLM's list): ChatML with think blocks, trained on Hermes-style
// <tool_call> JSON. Its own chat template matches the lab's prompt in every tool scenario
// (family-templates.test.ts renders it with tools).
import { chatmlTurns, CHATML_TOKENS } from "./chatml-turns.ts";
import { penaltiesOff, REPLY_MAX_TOKENS, THINKING_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

export const QWEN_STOP = { stop_str: ["<|endoftext|>", "<|im_end|>"], stop_token_ids: [151643, 151645] };

export const qwen3: ModelFamily = {
  id: "qwen3",
  label: "Qwen3",
  templateName: "qwen3",
  templateLabel: "Qwen3 (ChatML, think blocks)",
  webllmIds: /^qwen3-\d/i,
  webllmModels: {
    records: [
      { model_id: "Qwen3-0.6B-q4f16_1-MLC", model: "Qwen3-0.6B-q4f16_1-MLC", model_lib: "Qwen3-0.6B-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 1403.34, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3-0.6B-q4f32_1-MLC", model: "Qwen3-0.6B-q4f32_1-MLC", model_lib: "Qwen3-0.6B-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 1924.98, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3-1.7B-q4f16_1-MLC", model: "Qwen3-1.7B-q4f16_1-MLC", model_lib: "Qwen3-1.7B-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 2036.66, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3-1.7B-q4f32_1-MLC", model: "Qwen3-1.7B-q4f32_1-MLC", model_lib: "Qwen3-1.7B-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 2635.44, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3-4B-q4f16_1-MLC", model: "Qwen3-4B-q4f16_1-MLC", model_lib: "Qwen3-4B-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 3431.59, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3-4B-q4f32_1-MLC", model: "Qwen3-4B-q4f32_1-MLC", model_lib: "Qwen3-4B-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 4327.71, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3-8B-q4f16_1-MLC", model: "Qwen3-8B-q4f16_1-MLC", model_lib: "Qwen3-8B-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 5695.78, low_resource_required: false, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3-8B-q4f32_1-MLC", model: "Qwen3-8B-q4f32_1-MLC", model_lib: "Qwen3-8B-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 6852.55, low_resource_required: false, overrides: { context_window_size: 4096 } },
    ],
    promptStart: "<|im_start|>system\n",
    endTokens: ["<|im_end|>", "<|endoftext|>"],
  },
  serverNames: /qwen-?3/i,
  ggufArchitecture: "qwen3",
  conv: {
    // No system message unless one is given, as Qwen3's own template (WebLLM's conv_template says "You are a helpful assistant.").
    template: { name: "qwen3", ...chatmlTurns, system_message: "", render_empty_system_message: false, ...QWEN_STOP },
    extras: {
  controlTokens: [...CHATML_TOKENS, "<think>", "</think>", "<tool_call>", "</tool_call>"],
      supportsThinkingToggle: true,
      rules: { thinkBlocksAfterLastQuery: true },
    },
  },
  // enable_thinking; the template's default is on.
  thinking: { defaultOn: true },
  controlTokens: [...CHATML_TOKENS, "<think>", "</think>", "<tool_call>", "</tool_call>"],
  protocol: { trained: "hermes", fallback: "hermes", why: "Qwen3 was trained on Hermes-style <tool_call> JSON" },
  sampling: (thinking) =>
    thinking
      ? { label: "Qwen3, thinking on", source: "Qwen3's recommended values for thinking mode (model card)", maxTokens: THINKING_MAX_TOKENS, temperature: 0.6, topP: 0.95, ...penaltiesOff }
      : { label: "Qwen3, thinking off", source: "Qwen3's recommended values for non-thinking mode (model card)", maxTokens: REPLY_MAX_TOKENS, temperature: 0.7, topP: 0.8, ...penaltiesOff },
  kvState: "kv_cache",
  contextNotes: "32,768 tokens native (131,072 with YaRN); WebLLM's builds run 4,096.",
};
