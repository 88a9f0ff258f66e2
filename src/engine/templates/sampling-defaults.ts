// Sampling values that fit each model family, sent explicitly with every step (and recorded in
// its step-start) so that a run can be reproduced and compared: WebLLM otherwise falls back to
// the values of the model's mlc-chat-config, which the lab would neither show nor record.
import { convTemplateNameForModel, type ConvTemplateName } from "./model-templates.ts";

export interface SamplingDefaults {
  /** What the values are for, e.g. "Qwen3, thinking on". */
  label: string;
  /** Where the values come from. */
  source: string;
  maxTokens: number;
  temperature: number;
  topP: number;
  /** 1 = off. */
  repetitionPenalty: number;
  /** 0 = off. */
  presencePenalty: number;
  frequencyPenalty: number;
}

/** A thinking model writes its reasoning first: 1,024 tokens cut many think blocks short. */
const THINKING_MAX_TOKENS = 4096;
const REPLY_MAX_TOKENS = 2048;

// A repetition penalty is off for every family, whatever its own generation config says
// (Qwen2.5's is 1.05): it multiplies down every token already seen, and a tool call's JSON
// repeats quotes, braces, colons and commas by nature.
const penaltiesOff = { repetitionPenalty: 1, presencePenalty: 0, frequencyPenalty: 0 } as const;

const LLAMA3 = { temperature: 0.6, topP: 0.9, source: "Llama 3.x's generation_config.json" };

function familyDefaults(template: ConvTemplateName | undefined, thinking: boolean): SamplingDefaults {
  switch (template) {
    case "qwen3":
      return thinking
        ? { label: "Qwen3, thinking on", source: "Qwen3's recommended values for thinking mode (model card)", maxTokens: THINKING_MAX_TOKENS, temperature: 0.6, topP: 0.95, ...penaltiesOff }
        : { label: "Qwen3, thinking off", source: "Qwen3's recommended values for non-thinking mode (model card)", maxTokens: REPLY_MAX_TOKENS, temperature: 0.7, topP: 0.8, ...penaltiesOff };
    case "qwen2":
      return { label: "Qwen2.5", source: "Qwen2.5's generation_config.json, without its repetition penalty", maxTokens: REPLY_MAX_TOKENS, temperature: 0.7, topP: 0.8, ...penaltiesOff };
    case "hermes3_llama-3_1":
      return { label: "Hermes 3 (Llama 3.2)", ...LLAMA3, maxTokens: REPLY_MAX_TOKENS, ...penaltiesOff };
    case "llama-3_1":
      return { label: "Llama 3.2", ...LLAMA3, maxTokens: REPLY_MAX_TOKENS, ...penaltiesOff };
    case "chatml":
      return { label: "SmolLM2", source: "SmolLM2's model card example", maxTokens: REPLY_MAX_TOKENS, temperature: 0.2, topP: 0.9, ...penaltiesOff };
    default:
      return {
        label: template === "phi-3" ? "Phi-3.5" : template === "gemma_instruction" ? "Gemma 2" : "this model",
        source: "the lab's defaults (the family publishes no sampling values we rely on)",
        maxTokens: REPLY_MAX_TOKENS,
        temperature: 0.6,
        topP: 0.9,
        ...penaltiesOff,
      };
  }
}

/** The defaults for a WebLLM model id (or null for the replay engine, which plays Qwen3). */
export function samplingDefaultsFor(modelId: string | null, thinking: boolean): SamplingDefaults {
  return familyDefaults(modelId === null ? "qwen3" : convTemplateNameForModel(modelId), thinking);
}
