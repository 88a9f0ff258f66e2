// Qwen2 / Qwen2.5 (0.5B–7B in WebLLM's list): ChatML, trained on Hermes-style <tool_call> JSON.
import { chatmlTurns, CHATML_TOKENS } from "./chatml-turns.ts";
import { QWEN_STOP } from "./qwen3.ts";
import { penaltiesOff, REPLY_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const QWEN25_DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.";

export const qwen2: ModelFamily = {
  id: "qwen2",
  label: "Qwen2.5",
  templateName: "qwen2",
  templateLabel: "Qwen2 / Qwen2.5 (ChatML)",
  webllmIds: /^qwen2\.5-\d/i,
  webllmModels: {
    records: [
      { model_id: "Qwen2.5-0.5B-Instruct-q4f16_1-MLC", model: "Qwen2.5-0.5B-Instruct-q4f16_1-MLC", model_lib: "Qwen2-0.5B-Instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 944.62, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen2.5-0.5B-Instruct-q4f32_1-MLC", model: "Qwen2.5-0.5B-Instruct-q4f32_1-MLC", model_lib: "Qwen2-0.5B-Instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 1060.2, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen2.5-1.5B-Instruct-q4f16_1-MLC", model: "Qwen2.5-1.5B-Instruct-q4f16_1-MLC", model_lib: "Qwen2-1.5B-Instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 1629.75, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen2.5-1.5B-Instruct-q4f32_1-MLC", model: "Qwen2.5-1.5B-Instruct-q4f32_1-MLC", model_lib: "Qwen2-1.5B-Instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 1888.97, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen2.5-3B-Instruct-q4f16_1-MLC", model: "Qwen2.5-3B-Instruct-q4f16_1-MLC", model_lib: "Qwen2.5-3B-Instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 2504.76, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen2.5-3B-Instruct-q4f32_1-MLC", model: "Qwen2.5-3B-Instruct-q4f32_1-MLC", model_lib: "Qwen2.5-3B-Instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 2893.64, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen2.5-7B-Instruct-q4f16_1-MLC", model: "Qwen2.5-7B-Instruct-q4f16_1-MLC", model_lib: "Qwen2-7B-Instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 5106.67, low_resource_required: false, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen2.5-7B-Instruct-q4f32_1-MLC", model: "Qwen2.5-7B-Instruct-q4f32_1-MLC", model_lib: "Qwen2-7B-Instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 5900.09, low_resource_required: false, overrides: { context_window_size: 4096 } },
    ],
    promptStart: "<|im_start|>system\n",
    endTokens: ["<|im_end|>", "<|endoftext|>"],
  },
  serverNames: /qwen-?2|qwq/i,
  ggufArchitecture: "qwen2",
  conv: {
    // Qwen2.5's own template writes this system message when none is given (and no tools are); WebLLM's conv_template another.
    template: { name: "qwen2", ...chatmlTurns, system_message: QWEN25_DEFAULT_SYSTEM, ...QWEN_STOP },
    extras: {
      controlTokens: [...CHATML_TOKENS, "<tool_call>", "</tool_call>"],
      // With tools and no system message, Qwen2.5's template still writes its default before them.
      toolFraming: { protocol: "hermes", defaultSystem: QWEN25_DEFAULT_SYSTEM },
    },
  },
  controlTokens: [...CHATML_TOKENS, "<tool_call>", "</tool_call>"],
  protocol: { trained: "hermes", fallback: "hermes", why: "Qwen2.5 was trained on Hermes-style <tool_call> JSON" },
  sampling: () => ({ label: "Qwen2.5", source: "Qwen2.5's generation_config.json, without its repetition penalty", maxTokens: REPLY_MAX_TOKENS, temperature: 0.7, topP: 0.8, ...penaltiesOff }),
  kvState: "kv_cache",
  contextNotes: "32,768 tokens native; WebLLM's builds run 4,096.",
};
