// The generation settings a turn sends: the conversation's own values where the person set
// them, else the model family's defaults — every field explicit, so that the step-start records
// exactly what the engine was asked for.
import type { SamplingDefaults } from "toolcall-middleware/families/sampling.ts";
import type { GenerationSettings } from "toolcall-middleware/types.ts";
import type { SamplingSettings } from "../domain/conversation.ts";

export type SamplingField = Exclude<keyof SamplingSettings, "seed">;

/** A seed for a turn that has none set: any 32-bit unsigned integer. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 32);
}

/** The value a field takes this turn: the person's own, else the family default. */
export function effectiveValue(settings: Partial<SamplingSettings>, defaults: SamplingDefaults, field: SamplingField): number {
  return settings[field] ?? defaults[field];
}

export function generationFor(settings: Partial<SamplingSettings>, defaults: SamplingDefaults, seed: () => number = randomSeed): GenerationSettings {
  const value = (field: SamplingField) => effectiveValue(settings, defaults, field);
  return {
    maxTokens: value("maxTokens"),
    temperature: value("temperature"),
    topP: value("topP"),
    repetitionPenalty: value("repetitionPenalty"),
    presencePenalty: value("presencePenalty"),
    frequencyPenalty: value("frequencyPenalty"),
    seed: settings.seed ?? seed(),
  };
}
