// The model families as the lab's first screen needs them, without their templates: the model
// picker's list, a model's family, sampling defaults, thinking default and recommended protocol,
// the server pane's template names. It reads the light index (family-index-data.ts, written from
// the registry); whatever renders a prompt takes the full family from registry.ts, which loads
// on demand in the page (`loadFamilyRegistry`). The lookups are the registry's own (family-lookup.ts).
import { familyIndexEntries } from "./family-index-data.ts";
import type { FamilyIndexEntry } from "./family-index-entry.ts";
import { findServerFamily, findTemplateFamily, findWebLlmFamily, recommendedProtocolOf, thinkingDefaultOn, type ProtocolRecommendation } from "./family-lookup.ts";
import { labDefaults, type SamplingDefaults } from "./sampling.ts";
import type { WebLlmModelRecord } from "./types.ts";

export type { FamilyIndexEntry };
export { familyIndexEntries };

/** The families in full (templates included): registry.ts, a module of its own in the page. */
export function loadFamilyRegistry(): Promise<typeof import("./registry.ts")> {
  return import("./registry.ts");
}

export function familyEntryById(id: string): FamilyIndexEntry | undefined {
  return familyIndexEntries.find((family) => family.id === id);
}

export function familyEntryOfWebLlmModel(modelId: string): FamilyIndexEntry | undefined {
  return findWebLlmFamily(familyIndexEntries, modelId);
}

export function familyEntryOfServerModel(modelName: string): FamilyIndexEntry | undefined {
  return findServerFamily(familyIndexEntries, modelName);
}

/** The family of a WebLLM id or a server model name. */
export function familyEntryOfModel(model: string): FamilyIndexEntry | undefined {
  return familyEntryOfWebLlmModel(model) ?? familyEntryOfServerModel(model);
}

export function familyEntryOfTemplateName(name: string): FamilyIndexEntry | undefined {
  return findTemplateFamily(familyIndexEntries, name);
}

/** WebLLM's prebuilt-model records of every family, in registry order: the model picker's list. */
export const webllmModelRecords: readonly WebLlmModelRecord[] = familyIndexEntries.flatMap((family) => family.webllmModels?.records ?? []);

/** A family's sampling values (`ModelFamily.sampling`). */
export function familySampling(family: FamilyIndexEntry, thinking: boolean): SamplingDefaults {
  return thinking ? family.sampling.thinkingOn : family.sampling.thinkingOff;
}

/** The replay engine's family (its transcripts are Qwen3's): registry.ts's REPLAY_FAMILY. */
export const REPLAY_FAMILY_ID = "qwen3";

/** The sampling defaults for a model (WebLLM id or server name); null is the replay engine (Qwen3). */
export function samplingDefaultsFor(model: string | null, thinking: boolean): SamplingDefaults {
  const family = model === null ? familyEntryById(REPLAY_FAMILY_ID) : familyEntryOfModel(model);
  return family ? familySampling(family, thinking) : labDefaults("this model");
}

/** Whether thinking is on by default for a model of this family (on where the family has no switch). */
export function familyThinkingDefault(family: FamilyIndexEntry | undefined, model: string): boolean {
  return family?.thinking ? thinkingDefaultOn(family.thinking, model) : true;
}

export function recommendedProtocol(model: string): ProtocolRecommendation {
  return recommendedProtocolOf(familyEntryOfModel(model));
}

export { recommendedProtocolOf, type ProtocolRecommendation };
