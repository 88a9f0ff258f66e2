// The thinking switch belongs to a model: it shows what the person set for that model, and where
// they set nothing, the model's own default (its family's `thinking.defaultOn`: Qwen3.5 off for
// 0.8B and 2B, on for 4B and 9B). Choosing another model therefore shows that model's default, not
// a value left over from the model before; the person's setting for a model comes back with it.
import { familyEntryOfTemplateName, familyEntryOfWebLlmModel, familyThinkingDefault } from "toolcall-middleware/families/family-index.ts";

/** What the person set, by model (a WebLLM id or a server's model name). */
export type ThinkingChoices = Readonly<Record<string, boolean>>;

/** The model the switch is for, and its default where the person set nothing. */
export interface ThinkingSubject {
  model: string;
  defaultOn: boolean;
}

/** At most this many models' settings are kept (the oldest set goes first). */
export const MAX_THINKING_CHOICES = 100;
const MAX_MODEL_CHARS = 256;

/** The stored choices, or none when the stored text is missing or not what this file writes. */
export function readThinkingChoices(stored: string | null): ThinkingChoices {
  if (!stored) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
  const kept = Object.entries(parsed).filter(([model, on]) => model.length <= MAX_MODEL_CHARS && typeof on === "boolean");
  return Object.fromEntries(kept.slice(-MAX_THINKING_CHOICES));
}

/** The choices with the person's setting for one model, it becoming the newest. */
export function withThinkingChoice(choices: ThinkingChoices, model: string, on: boolean): ThinkingChoices {
  if (model.length > MAX_MODEL_CHARS) return choices;
  const others = Object.entries(choices).filter(([m]) => m !== model);
  return Object.fromEntries([...others, [model, on] as const].slice(-MAX_THINKING_CHOICES));
}

/** The switch's value for a subject: the person's setting for its model, else its default. */
export function thinkingFor(choices: ThinkingChoices, subject: ThinkingSubject): boolean {
  return Object.hasOwn(choices, subject.model) ? choices[subject.model]! : subject.defaultOn;
}

/** A WebLLM model's subject: its family's default, on where the family declares none (Qwen3's template). */
export function webllmThinkingSubject(modelId: string): ThinkingSubject {
  return { model: modelId, defaultOn: familyThinkingDefault(familyEntryOfWebLlmModel(modelId), modelId) };
}

/** A server model's subject: the default of the family whose template prompt mode uses, for that model's name. */
export function serverThinkingSubject(model: string, templateName: string | undefined): ThinkingSubject {
  const family = templateName ? familyEntryOfTemplateName(templateName) : undefined;
  return { model, defaultOn: familyThinkingDefault(family, model) };
}

/** What the engine store knows that decides which model the switch is for. */
export interface ThinkingSubjectState {
  kind: string;
  serverThinkingSubject: ThinkingSubject | null;
  loadedModelId: string | null;
  selectedModelId: string;
}

/** The model the switch is for: the server's in the server engine, else the WebLLM model's (also the replay and CPU kinds, which have no switch of their own). */
export function thinkingSubjectOf(state: ThinkingSubjectState): ThinkingSubject {
  if (state.kind === "openai" && state.serverThinkingSubject) return state.serverThinkingSubject;
  return webllmThinkingSubject(state.loadedModelId ?? state.selectedModelId);
}

/** The line under the switch: whose value it shows, so a change of model explains itself. */
export function thinkingNote(choices: ThinkingChoices, subject: ThinkingSubject): string {
  const byDefault = subject.defaultOn ? "on" : "off";
  return Object.hasOwn(choices, subject.model) ? `Set by you for this model (${byDefault} by default).` : `This model's default (${byDefault}).`;
}
