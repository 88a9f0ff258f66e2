// Qwen3.5 (0.8B, 2B, 4B, 9B in WebLLM 0.2.86's list): ChatML with think blocks, trained on the
// XML tool calls of Qwen3-Coder (<tool_call><function=…><parameter=…>), which the lab's
// qwen3-coder protocol reads. A hybrid model: Gated DeltaNet (recurrent) layers beside attention,
// so WebLLM keeps a recurrent state next to its KV cache (see kvState below).
// The registered protocols (not the registry of built-ins): a prompt is rendered only through
// renderPrompt, whose module loads the built-in protocols, so this family file need not.
import { getProtocol } from "../protocols/registered-protocols.ts";
import type { ToolFraming, ToolSpec } from "../types.ts";
import { chatmlTurns, CHATML_TOKENS } from "./chatml-turns.ts";
import { QWEN_STOP } from "./qwen3.ts";
import { penaltiesOff, REPLY_MAX_TOKENS, THINKING_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";
import { pyJson } from "./py-json.ts";

const toolJson = (tool: ToolSpec) => pyJson({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } });

/**
 * Qwen3.5's own tool section (its chat template's words), written before the system text; calls
 * follow the reply's text after a blank line, one <tool_call> a line; results are the
 * qwen3-coder protocol's <tool_response> blocks in one user turn.
 */
export const qwen35ToolFraming: ToolFraming = {
  protocol: "qwen3-coder",
  placement: "system-start",
  toolSection: (tools) =>
    `# Tools\n\nYou have access to the following functions:\n\n<tools>${tools.map((tool) => `\n${toolJson(tool)}`).join("")}\n</tools>` +
    "\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n- Required parameters MUST be specified\n- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n</IMPORTANT>",
  renderAssistant: (message) => {
    const protocol = getProtocol("qwen3-coder");
    const text = message.content.trim();
    if (!message.toolCalls?.length || !protocol) return protocol ? protocol.renderAssistant(message) : message.content;
    // The protocol's calls (its escaping of markers in values included), one a line.
    const calls = protocol.renderAssistant({ ...message, content: "" });
    return text ? `${text}\n\n${calls}` : calls;
  },
};

const controlTokens = [...CHATML_TOKENS, "<think>", "</think>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"];

export const qwen3_5: ModelFamily = {
  id: "qwen3.5",
  label: "Qwen3.5",
  templateName: "qwen3_5",
  templateLabel: "Qwen3.5 (ChatML, think blocks, XML calls)",
  webllmIds: /^qwen3\.5-\d/i,
  webllmModels: {
    records: [
      { model_id: "Qwen3.5-0.8B-q4f16_1-MLC", model: "Qwen3.5-0.8B-q4f16_1-MLC", model_lib: "Qwen3.5-0.8B-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 1629.49, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3.5-0.8B-q4f32_1-MLC", model: "Qwen3.5-0.8B-q4f32_1-MLC", model_lib: "Qwen3.5-0.8B-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 1894.19, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3.5-2B-q4f16_1-MLC", model: "Qwen3.5-2B-q4f16_1-MLC", model_lib: "Qwen3.5-2B-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 2245.44, low_resource_required: false, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3.5-2B-q4f32_1-MLC", model: "Qwen3.5-2B-q4f32_1-MLC", model_lib: "Qwen3.5-2B-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 2591.55, low_resource_required: false, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3.5-4B-q4f16_1-MLC", model: "Qwen3.5-4B-q4f16_1-MLC", model_lib: "Qwen3.5-4B-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 3867.82, low_resource_required: false, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3.5-4B-q4f32_1-MLC", model: "Qwen3.5-4B-q4f32_1-MLC", model_lib: "Qwen3.5-4B-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 4680.36, low_resource_required: false, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3.5-9B-q4f16_1-MLC", model: "Qwen3.5-9B-q4f16_1-MLC", model_lib: "Qwen3.5-9B-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 6433.01, low_resource_required: false, overrides: { context_window_size: 4096 } },
      { model_id: "Qwen3.5-9B-q4f32_1-MLC", model: "Qwen3.5-9B-q4f32_1-MLC", model_lib: "Qwen3.5-9B-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 7544.74, low_resource_required: false, overrides: { context_window_size: 4096 } },
    ],
    promptStart: "<|im_start|>system\n",
    endTokens: ["<|im_end|>", "<|endoftext|>"],
  },
  serverNames: /qwen-?3\.5/i,
  conv: {
    // No system turn unless there is a system message or tools; every turn's text trimmed; every
    // assistant turn after the last query keeps a think block, an empty one too.
    template: { name: "qwen3_5", ...chatmlTurns, system_message: "", render_empty_system_message: false, ...QWEN_STOP },
    extras: {
      controlTokens,
      supportsThinkingToggle: true,
      // With thinking on the template opens the reply with "<think>\n": the model writes its reasoning without the tag.
      rules: { trimContent: true, thinkBlocksAfterLastQuery: true, emptyThinkBlocks: true, thinkingOpener: "<think>\n" },
      toolFraming: qwen35ToolFraming,
    },
  },
  // The model cards: thinking off by default for the small 0.8B and 2B, on for 4B and 9B.
  thinking: { defaultOn: true, otherwiseFor: /qwen-?3\.5-(0\.8|2)b/i },
  controlTokens,
  protocol: { trained: "qwen3-coder", fallback: "qwen3-coder", why: "Qwen3.5 was trained on Qwen3-Coder's XML tool calls" },
  sampling: (thinking) =>
    thinking
      ? { label: "Qwen3.5, thinking on", source: "Qwen3's recommended values for thinking mode (Qwen3.5's own not checked here)", maxTokens: THINKING_MAX_TOKENS, temperature: 0.6, topP: 0.95, ...penaltiesOff }
      : { label: "Qwen3.5, thinking off", source: "Qwen3's recommended values for non-thinking mode (Qwen3.5's own not checked here)", maxTokens: REPLY_MAX_TOKENS, temperature: 0.7, topP: 0.8, ...penaltiesOff },
  kvState: "hybrid",
  contextNotes: "WebLLM's builds run 4,096 tokens (the native window is not checked here).",
};
