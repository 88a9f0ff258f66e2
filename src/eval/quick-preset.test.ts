import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { readCaseLog } from "./case-log.ts";
import { caseTiming } from "./case-timing.ts";
import { chatTemplateForModel } from "toolcall-middleware/families/registry.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Engine } from "toolcall-middleware/types.ts";
import { casePromptStart, QUICK_CPU_PRESET, quickPresetEstimate } from "./quick-preset.ts";
import { runEvalCase } from "./run-case.ts";
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

  it("each case's prompt start, read ahead into the cache, is the start of the prompt the case then sends, up to its own message", async () => {
    const template = chatTemplateForModel("SmolLM2-135M-Instruct-q0f32-MLC")!;
    const protocol = getProtocol(QUICK_CPU_PRESET.protocol)!;
    for (const quick of QUICK_CPU_PRESET.cases) {
      const testCase = bfclCase(quick.id);
      const sent: string[] = [];
      const engine: Engine = {
        name: "records the prompt",
        async *generate(prompt) {
          sent.push(prompt);
          yield { type: "text", text: "No tool fits." };
        },
      };
      await runEvalCase({ engine, mode: "prompt", protocol, testCase, constrained: false, template });
      const start = await casePromptStart(testCase, protocol, template);
      const prompt = sent[0]!;
      expect(prompt.startsWith(start)).toBe(true);
      // The start holds the case's tool section; what is left is the message and the reply's opening.
      expect(start).toContain(testCase.tools[0]!.name);
      const rest = prompt.slice(start.length);
      const message = String(testCase.messages.at(-1)!.content);
      expect(rest).toContain(message);
      expect(rest.length).toBeLessThan(message.length + 64);
    }
  });
});
