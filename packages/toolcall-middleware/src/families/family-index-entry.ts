// What the light family index (family-index.ts) holds of one family: the fields the lab's first
// screen reads (the model picker, the sampling shown in Settings, the thinking switch, the
// recommended protocol, the server pane's template names), as plain data; never a template.
// `npx tsx scripts/write-family-index.ts` writes the index from the registry with this function,
// and family-index.test.ts fails when the written index differs from what it gives today.
import type { SamplingDefaults } from "./sampling.ts";
import type { ModelFamily, WebLlmModelRecord } from "./types.ts";

export interface FamilyIndexEntry
  extends Pick<ModelFamily, "id" | "label" | "templateName" | "formerTemplateNames" | "templateLabel" | "webllmIds" | "catalogLabel" | "serverNames" | "ggufArchitecture" | "thinking" | "protocol"> {
  webllmModels?: { records: readonly WebLlmModelRecord[] };
  /** Whether the family's WebLLM template (its conv) honours the thinking switch. */
  supportsThinkingToggle?: true;
  /** The family's sampling values with thinking on and off (`ModelFamily.sampling(true|false)`). */
  sampling: { thinkingOn: SamplingDefaults; thinkingOff: SamplingDefaults };
}

const LIGHT_FIELDS = ["id", "label", "templateName", "formerTemplateNames", "templateLabel", "webllmIds", "catalogLabel", "serverNames", "ggufArchitecture", "thinking", "protocol"] as const;

export function familyIndexEntry(family: ModelFamily): FamilyIndexEntry {
  const entry: Record<string, unknown> = {};
  for (const field of LIGHT_FIELDS) if (family[field] !== undefined) entry[field] = family[field];
  if (family.webllmModels) entry.webllmModels = { records: family.webllmModels.records };
  if (family.conv?.extras.supportsThinkingToggle) entry.supportsThinkingToggle = true;
  entry.sampling = { thinkingOn: family.sampling(true), thinkingOff: family.sampling(false) };
  return entry as unknown as FamilyIndexEntry;
}
