import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { readCaseLog } from "./case-log.ts";
import { caseTiming } from "./case-timing.ts";
import { QUICK_CPU_PRESET, quickPresetEstimate } from "./quick-preset.ts";
import { readResultsFile } from "./results-file.ts";
import { categoryOf } from "./suite.ts";

describe("the quick CPU preset", () => {
  it("its cases are built-in cases, and what it says of each is what SmolLM2 did in the committed results", () => {
    const committed = readResultsFile(readFileSync(new URL("../../eval-results/smollm2-135m-instruct-q4_1.hermes.constrained-off.json", import.meta.url), "utf8"), categoryOf);
    const categories = new Set<string>();
    for (const quick of QUICK_CPU_PRESET.cases) {
      expect(bfclCase(quick.id).id).toBe(quick.id);
      const recorded = committed.find((r) => r.id === quick.id)!;
      const timing = caseTiming(readCaseLog(recorded.log!));
      expect(timing.promptTokens).toBe(quick.promptTokens);
      categories.add(recorded.category);
      if (quick.shows.endsWith("a pass")) expect(recorded.pass).toBe(true);
      if (quick.shows.endsWith("a fail")) expect(recorded).toMatchObject({ pass: false, reason: expect.stringMatching(/^made 0 calls/) });
      // A reply that ran past the preset's budget there is cut at it here.
      if (quick.shows.endsWith("cut off at max tokens")) expect(timing.completionTokens).toBeGreaterThan(QUICK_CPU_PRESET.maxTokens);
      else expect(timing.completionTokens).toBeLessThanOrEqual(QUICK_CPU_PRESET.maxTokens);
    }
    // A call case and irrelevance cases.
    expect([...categories].sort()).toEqual(["irrelevance", "simple_python"]);
  });

  it("what it will take: its prompt tokens at the prefill rate, its replies' budget at the decode rate", () => {
    const estimate = quickPresetEstimate({ prefillTokensPerSecond: 12, decodeTokensPerSecond: 6, source: "test" });
    expect(estimate.promptTokens).toBe(744);
    expect(estimate.replyTokens).toBe(96);
    expect(estimate.prefill).toBeCloseTo(62, 6);
    expect(estimate.decode).toBeCloseTo(16, 6);
    expect(estimate.total).toBeCloseTo(78, 6);
  });
});
