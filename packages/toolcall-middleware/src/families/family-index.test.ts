// The light family index the lab's first screen reads must say what the registry says, and its
// lookups must find what the registry's find.
import { describe, expect, test } from "vitest";
import { familyIndexEntry } from "./family-index-entry.ts";
import {
  familyEntryById,
  familyEntryOfModel,
  familyEntryOfServerModel,
  familyEntryOfTemplateName,
  familyEntryOfWebLlmModel,
  familyIndexEntries,
  familySampling,
  familyThinkingDefault,
  REPLAY_FAMILY_ID,
  recommendedProtocol as indexRecommendedProtocol,
  samplingDefaultsFor as indexSamplingDefaultsFor,
  webllmModelRecords as indexWebllmModelRecords,
} from "./family-index.ts";
import { thinkingDefaultOn } from "./family-lookup.ts";
import {
  families,
  familyOfModel,
  familyOfServerModel,
  familyOfTemplateName,
  familyOfWebLlmModel,
  recommendedProtocol,
  REPLAY_FAMILY,
  samplingDefaultsFor,
  webllmModelRecords,
} from "./registry.ts";

describe("the light family index", () => {
  test("holds every registered family's light fields, in registry order (else run `npx tsx scripts/write-family-index.ts`)", () => {
    expect(familyIndexEntries).toEqual(families.map(familyIndexEntry));
  });

  test("gives each family's sampling values and the replay engine's family as the registry does", () => {
    expect(REPLAY_FAMILY_ID).toBe(REPLAY_FAMILY.id);
    for (const family of families) {
      const entry = familyEntryById(family.id)!;
      for (const thinking of [true, false]) expect(familySampling(entry, thinking)).toEqual(family.sampling(thinking));
    }
  });

  // Ids and names each family is found by, plus some no family has and an over-long one.
  const names = [
    ...webllmModelRecords.map((record) => record.model_id),
    "Qwen/Qwen3.5-2B",
    "Qwen/Qwen3.5-9B",
    "meta-llama/Llama-3.1-8B-Instruct",
    "NousResearch/Hermes-3-Llama-3.1-8B",
    "moonshotai/Kimi-K2-Thinking",
    "openai/gpt-oss-20b",
    "zai-org/GLM-4.7",
    "unknown-model",
    `qwen3-${"x".repeat(300)}`,
  ];

  test.each(names)("finds the registry's family for %s", (name) => {
    expect(familyEntryOfWebLlmModel(name)?.id).toBe(familyOfWebLlmModel(name)?.id);
    expect(familyEntryOfServerModel(name)?.id).toBe(familyOfServerModel(name)?.id);
    expect(familyEntryOfModel(name)?.id).toBe(familyOfModel(name)?.id);
    expect(indexRecommendedProtocol(name)).toEqual(recommendedProtocol(name));
    for (const thinking of [true, false]) expect(indexSamplingDefaultsFor(name, thinking)).toEqual(samplingDefaultsFor(name, thinking));
    const family = familyOfModel(name);
    expect(familyThinkingDefault(familyEntryOfModel(name), name)).toBe(family?.thinking ? thinkingDefaultOn(family.thinking, name) : true);
  });

  test("finds a family by a recorded template name, older names and thinking suffixes included", () => {
    const templateNames = families.flatMap((family) => [family.templateName, `${family.templateName} (thinking off)`, ...(family.formerTemplateNames ?? [])]);
    for (const name of [...templateNames, "no-such-template"]) expect(familyEntryOfTemplateName(name)?.id).toBe(familyOfTemplateName(name)?.id);
    expect(indexSamplingDefaultsFor(null, true)).toEqual(samplingDefaultsFor(null, true));
    expect(indexWebllmModelRecords).toEqual(webllmModelRecords);
  });

  test("Qwen3.5's small models think off by default, its larger ones on", () => {
    const entry = familyEntryById("qwen3.5");
    expect(familyThinkingDefault(entry, "Qwen3.5-2B-q4f16_1-MLC")).toBe(false);
    expect(familyThinkingDefault(entry, "Qwen3.5-9B-q4f16_1-MLC")).toBe(true);
    expect(familyThinkingDefault(undefined, "anything")).toBe(true);
  });
});
