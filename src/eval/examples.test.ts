// The example results the Evaluate view opens before any run (public/eval/examples/, written by
// scripts/build-eval-examples.ts from the committed real-model files): every case holds its log
// and it reads back, every row is there, verdicts are today's scoring of the recorded logs, and
// each file stays within its size.
import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { readCaseLog } from "./case-log.ts";
import { readResultsFile } from "./results-file.ts";
import { scoreRecordedCase } from "./run-case.ts";
import { categoryOf } from "./suite.ts";

const FILES = ["smollm2-135m-instruct-q4_1.json", "gemma-3-270m-q4_k_m.json"];
/** Fetched only when a person clicks "Open the example results"; each file stays under this. */
const MAX_BYTES = 4_000_000;

describe("the bundled example results", () => {
  for (const name of FILES) {
    it(`${name}: every case opens (its log reads back), every row is there, verdicts are today's scoring of its log`, () => {
      const path = new URL(`../../public/eval/examples/${name}`, import.meta.url);
      expect(statSync(path).size).toBeLessThan(MAX_BYTES);
      const results = readResultsFile(readFileSync(path, "utf8"), categoryOf);
      const rows = new Set(results.map((r) => `${r.protocol}${r.constrained ? " +c" : ""}`));
      expect([...rows].sort()).toEqual(["hermes", "hermes +c", "llama3-json", "llama3-json +c", "pythonic", "pythonic +c", "xml", "xml +c"]);
      for (const result of results) {
        expect(result.log, `${result.id} ${result.protocol}`).toBeDefined();
        const events = readCaseLog(result.log!);
        expect(events.some((e) => e.type === "output-delta" && (e.tokens?.length ?? 0) > 0)).toBe(true);
        const verdict = scoreRecordedCase({ testCase: bfclCase(result.id), events, protocol: getProtocol(result.protocol)!, mode: result.mode });
        expect({ pass: result.pass, strictPass: result.strictPass, reason: result.reason }).toEqual({ pass: verdict.pass, strictPass: verdict.strictPass, reason: verdict.reason });
      }
    });
  }
});
