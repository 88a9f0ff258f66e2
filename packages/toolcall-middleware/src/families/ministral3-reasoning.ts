// Ministral 3 Reasoning (3B 2512 in WebLLM 0.2.86's list; 3B, 8B, 14B on servers): Ministral 3's
// turns and tools (ministral3.ts), plus reasoning as `[THINK]…[/THINK]` before the reply, kept on
// every assistant turn written back (the model card asks to keep reasoning traces in multi-turn
// context; mistral-common's v13 think template writes them). Checked against that template in
// parity-mistral.test.ts.
//
// WebLLM's build names mlc-llm's conv_template "ministral3_reasoning": Ministral 3's turns, and
// as its default system message Mistral's reasoning instructions ("# HOW YOU SHOULD THINK AND
// ANSWER…", the model's provided system prompt), which the model needs to think in [THINK]. The
// lab keeps that default (written when the conversation's system prompt is empty) and drops the
// `{function_string}` placeholder as for the Instruct model.
import type { ToolFraming } from "../types.ts";
import { chatPathToolFraming, ministral3, ministral3Turns, v13ServerTemplate, v13ToolFraming } from "./ministral3.ts";
import { TEKKEN_CONTROL_TOKENS } from "./mistral-tools.ts";
import { penaltiesOff, THINKING_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

/** mlc-llm's ministral3_reasoning system message, verbatim. */
export const MINISTRAL3_REASONING_SYSTEM =
  "# HOW YOU SHOULD THINK AND ANSWER\n\n" +
  "First draft your thinking process (inner monologue) until you arrive at a response. " +
  "Format your response using Markdown, and use LaTeX for any mathematical equations. " +
  "Write both your thoughts and the response in the same language as the input.\n\n" +
  "Your thinking process must follow the template below:" +
  "[THINK]Your thoughts or/and draft, like working through an exercise on scratch paper. " +
  "Be as casual and as long as you want until you are confident to generate the response " +
  "to the user.[/THINK]Here, provide a self-contained response.";

/** v13's framing with each turn's reasoning written back as a [THINK] block. */
export const v13ThinkToolFraming: ToolFraming = {
  ...v13ToolFraming,
  renderAssistant: (message) => {
    const turn = v13ToolFraming.renderAssistant!(message);
    return message.reasoning ? `[THINK]${message.reasoning}[/THINK]${turn}` : turn;
  },
};

const reasoningConv: NonNullable<ModelFamily["conv"]> = {
  template: { name: "ministral3_reasoning", system_message: MINISTRAL3_REASONING_SYSTEM, ...ministral3Turns },
  extras: { prefixText: "<s>", controlTokens: TEKKEN_CONTROL_TOKENS, toolFraming: chatPathToolFraming(v13ThinkToolFraming) },
};

export const ministral3Reasoning: ModelFamily = {
  ...ministral3,
  id: "ministral3-reasoning",
  label: "Ministral 3 Reasoning",
  templateName: "ministral3_reasoning",
  templateLabel: "Ministral 3 Reasoning (v13 Tekken, [THINK] reasoning)",
  webllmIds: /^Ministral-3-\d+B-Reasoning-/i,
  webllmModels: {
    records: [
      { model_id: "Ministral-3-3B-Reasoning-2512-q4f16_1-MLC", model: "Ministral-3-3B-Reasoning-2512-q4f16_1-MLC", model_lib: "Ministral-3-3B-Reasoning-2512-q4f16_1_cs1k-webgpu.wasm", vram_required_MB: 2863.69, low_resource_required: true, overrides: { context_window_size: 4096 } },
      { model_id: "Ministral-3-3B-Reasoning-2512-q4f32_1-MLC", model: "Ministral-3-3B-Reasoning-2512-q4f32_1-MLC", model_lib: "Ministral-3-3B-Reasoning-2512-q4f32_1_cs1k-webgpu.wasm", vram_required_MB: 3532.37, low_resource_required: true, overrides: { context_window_size: 4096 } },
    ],
    promptStart: "<s>[SYSTEM_PROMPT]",
    endTokens: ["</s>"],
  },
  catalogLabel: "Ministral 3 Reasoning",
  serverNames: /^(?:(?!ministral-?3[-:]\d)[^])*ministral-?3[-:]\d+b[^]*?reasoning/i,
  conv: reasoningConv,
  template: v13ServerTemplate(reasoningConv, v13ThinkToolFraming),
  protocol: { trained: "mistral", fallback: "mistral", why: "Ministral 3 was trained on [TOOL_CALLS]NAME[ARGS]{…}, reasoning in [THINK]" },
  // The model card's recommended values for the Reasoning models.
  sampling: () => ({ label: "Ministral 3 Reasoning", source: "Ministral 3 Reasoning's model card (temperature 0.7, top-p 0.95)", maxTokens: THINKING_MAX_TOKENS, temperature: 0.7, topP: 0.95, ...penaltiesOff }),
};
