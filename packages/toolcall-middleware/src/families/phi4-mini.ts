// Phi-4-mini-instruct (3.8B; WebLLM 0.2.86 ships q4f16 and q4f32 builds): <|system|>, <|user|>,
// <|assistant|> blocks closed by <|end|>, with no newlines; trained on tool calling with the
// tools as a JSON list inside <|tool|>…<|/tool|> in the system block (the phi4-mini protocol).
import { protectJson } from "../protocols/protect-markers.ts";
import type { ToolFraming, ToolSpec } from "../types.ts";
import { pyJson } from "./py-json.ts";
import { labDefaults } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const controlTokens = ["<|system|>", "<|user|>", "<|assistant|>", "<|end|>", "<|endoftext|>", "<|tool|>", "<|/tool|>", "<|tool_call|>", "<|/tool_call|>", "<|tool_response|>"];

const toolList = (tools: ToolSpec[]) => pyJson(tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })));

/**
 * Microsoft's own writing of the tool list (its chat template and model card): the system
 * message, then right after it (no separator) `<|tool|>` + the tools as one JSON list (json.dumps
 * spelling) + `<|/tool|>`, all in the system block. Without a system message the model card's
 * "You are a helpful assistant with some tools." stands in (the template takes tools only on a
 * system message). Calls are the protocol's `functools[…]`; results are `<|tool_response|>`
 * turns (see the conv_template's tool role).
 */
export const phi4MiniToolFraming: ToolFraming = {
  protocol: "phi4-mini",
  systemJoin: "",
  defaultSystem: "You are a helpful assistant with some tools.",
  toolSection: (tools) => `<|tool|>${protectJson(toolList(tools))}<|/tool|>`,
};

export const phi4Mini: ModelFamily = {
  id: "phi4-mini",
  label: "Phi-4-mini",
  templateName: "phi-4",
  templateLabel: "Phi-4-mini (<|tool|> list in the system block)",
  webllmIds: /^phi-4-mini-instruct-/i,
  webllmModels: {
    // paramsB: the ids do not spell the size (3.8B, the model card).
    records: [
      { model_id: "Phi-4-mini-instruct-q4f16_1-MLC", model: "Phi-4-mini-instruct-q4f16_1-MLC", model_lib: "Phi-4-mini-instruct-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 3437.58, low_resource_required: false, overrides: { context_window_size: 4096 }, paramsB: 3.8 },
      { model_id: "Phi-4-mini-instruct-q4f32_1-MLC", model: "Phi-4-mini-instruct-q4f32_1-MLC", model_lib: "Phi-4-mini-instruct-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 4220.59, low_resource_required: false, overrides: { context_window_size: 4096 }, paramsB: 3.8 },
    ],
    promptStart: "<|system|>S<|end|>",
    endTokens: ["<|end|>", "<|endoftext|>"],
  },
  serverNames: /phi-?4-mini/i,
  conv: {
    template: {
      // mlc-llm's "phi-4" conv_template (conversation_template/phi.py, added with Phi-4-mini in
      // mlc-llm #3268) writes "<|system|>\n…<|end|>\n" blocks, a default system message and the
      // prefix id 200022 (<|system|>) on top of its system_template's own <|system|>; Microsoft's
      // template writes the blocks without newlines, no system block unless given one, no prefix.
      // The lab loads the model with this conv_template (chat-options.ts), so WebLLM's chat path
      // writes the official text. Which conv_template WebLLM's own mlc-chat-config.json carries
      // was not checked here (the Hugging Face repo mlc-ai/Phi-4-mini-instruct-* is not at hand).
      name: "phi-4",
      system_template: "<|system|>{system_message}<|end|>",
      system_message: "",
      render_empty_system_message: false,
      // Microsoft's template writes a tool turn as `<|tool|>…<|end|>` (it writes every role as
      // `<|role|>`), the token that opens the tool list; llama.cpp's edit of it writes results after
      // <|tool_response|>, the tokenizer's own result token, which the lab follows.
      roles: { user: "<|user|>", assistant: "<|assistant|>", tool: "<|tool_response|>" },
      seps: ["<|end|>"],
      role_content_sep: "",
      role_empty_sep: "",
      stop_str: ["<|endoftext|>", "<|end|>"],
      stop_token_ids: [199999, 200020],
    },
    extras: { controlTokens, toolFraming: phi4MiniToolFraming },
  },
  controlTokens,
  protocol: { trained: "phi4-mini", fallback: "phi4-mini", why: "Phi-4-mini was trained on tool lists in <|tool|>…<|/tool|>" },
  // The model card's examples decode greedily and its generation_config sets no sampling values.
  sampling: () => labDefaults("Phi-4-mini"),
  kvState: "kv_cache",
  contextNotes: "131,072 tokens native; WebLLM's builds run 4,096 (the eight built-in tools fit).",
};
