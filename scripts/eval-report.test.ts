import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { EngineChunk } from "toolcall-middleware/types.ts";
import { bfclCase } from "../src/eval/bfcl-fixtures.test-helper.ts";
import { caseLogOf } from "../src/eval/case-log.ts";
import { runEvalCase, type EvalResult } from "../src/eval/run-case.ts";
import { evalReport } from "./eval-report.ts";
import { inertReportText } from "./report-text.ts";

const result = (id: string, category: string, protocol: string, callP: number | null | undefined, pass = false): EvalResult => ({ id, category, protocol, mode: "prompt", constrained: false, repeat: 0, pass, strictPass: pass, reason: "", calls: [], durationMs: 0, runId: "", ...(callP !== undefined ? { callP } : {}) });

describe("eval report", () => {
  it("names where each file was made, draws the matrix, and averages call p where a call is expected and where not (an opener outside the top 5 counts 0)", () => {
    const report = evalReport([
      {
        name: "a.json",
        run: { date: "2026-11-27T13:49:50.000Z", machine: { cpu: "Xeon", cores: 2 }, model: { id: "smollm2", sha256: "b179c9523d0e6a0f98a3" }, llamaCpp: { commit: "de3ff815ea7d559ee917f063901b8986f038abc6", parallelSlots: 2 }, settings: { temperature: 0 }, durationSeconds: 100, casesPerSecond: 0.04 },
        results: [result("simple_python_0", "simple_python", "hermes", 0.5, true), result("simple_python_1", "simple_python", "hermes", null), result("irrelevance_0", "irrelevance", "hermes", 0.1, true)],
      },
      { name: "old.json", run: undefined, results: [result("simple_python_0", "simple_python", "xml", undefined)] },
    ]);
    expect(report).toContain("- `a.json`: 3 cases on 2026-11-27 13:49 UTC, Xeon × 2 cores; model smollm2 (sha256 b179c9523d0e…), llama.cpp de3ff815ea7d (2 slots); temperature 0; 100 s, 0.04 cases/s");
    expect(report).toContain("- `old.json`: 1 cases (the file does not say where it was made)");
    expect(report).toMatch(/\nhermes\s+50% \[\d+%–\d+%\] strict 50% n=2\s+100%/);
    expect(report).toContain("| hermes | 0.250 (2; 1) | 0.100 (1; 0) |");
    expect(report).toContain("| xml | – | – |");
  });

  it("with the server's CPU time and, from the cases' logs, where the time went (prefill, decode, how replies ended)", async () => {
    const run = await runEvalCase({
      engine: {
        name: "llama.cpp-like",
        async *generate(): AsyncGenerator<EngineChunk> {
          yield { type: "text", text: "It is sunny." };
          yield { type: "usage", usage: { promptTokens: 300, reusedTokens: 64, prefilledTokens: 236, prefillTokensPerSecond: 118, completionTokens: 40, decodeTokensPerSecond: 20, finishReason: "stop" } };
        },
      },
      mode: "prompt",
      protocol: getProtocol("hermes")!,
      testCase: bfclCase("irrelevance_0"),
      constrained: false,
    });
    const report = evalReport([
      {
        name: "timed.json",
        run: { date: "2026-11-27T15:00:00.000Z", machine: { cpu: "Xeon", cores: 2 }, model: { id: "smollm2" }, llamaCpp: { commit: "de3ff815ea7d559ee917f063901b8986f038abc6", parallelSlots: 2, servers: 2, threads: 1, waitPolicy: "passive", cpuSeconds: 7.5 }, settings: { temperature: 0 }, durationSeconds: 4, casesPerSecond: 0.25 },
        results: [{ ...run!.result, ...caseLogOf(run!.events) }],
      },
    ]);
    expect(report).toContain("llama.cpp de3ff815ea7d (2 servers, 2 slots, 1 thread each, OMP_WAIT_POLICY=passive)");
    expect(report).toContain("4 s, 0.25 cases/s; llama-server CPU 7.5 s (7.50 s a case)");
    expect(report).toMatch(/\nprotocol\s+cases\s+prompt tok\s+reused\s+reply tok\s+stop\s+max-tokens\s+repetition\s+other\s+prefill s\s+decode s\n[- ]+\nhermes\s+1\s+300\s+64\s+40\s+1\s+0\s+0\s+0\s+2\.0\s+2\.0\n/);
  });

  it("prints what a file says inert: no terminal escape codes, no HTML, no live links, in the listing, the matrix and the call p table", () => {
    const evil = "\u001b]0;pwned\u0007\u001b[2J<img src=x onerror=alert(1)>[click](javascript:alert(1))";
    const report = evalReport([
      {
        name: "evil\u001b[31m.json",
        run: { date: "2026-11-27T13:49:50.000Z", machine: { cpu: evil, cores: 2 }, model: { id: `m${evil}` }, settings: { [`k${evil}`]: `v${evil}` }, durationSeconds: 1, casesPerSecond: 1 },
        results: [result("simple_python_0", `simple_python${evil}`, `hermes${evil}`, 0.5, true)],
      },
    ]);
    // No control character but the report's own newlines.
    expect([...report].filter((ch) => ch !== "\n" && (ch.charCodeAt(0) < 0x20 || (ch.charCodeAt(0) >= 0x7f && ch.charCodeAt(0) <= 0x9f)))).toEqual([]);
    expect(report).not.toContain("<img");
    expect(report).not.toContain("](javascript:");
    const shown = "\\u{1b}\\u{5d}0;pwned\\u{7}\\u{1b}\\u{5b}2J\\u{3c}img src=x onerror=alert(1)\\u{3e}\\u{5b}click\\u{5d}(javascript:alert(1))";
    expect(report).toContain(`model m${shown}; k${shown} v${shown}; 1 s`);
    expect(report).toContain(`\nhermes${shown}  100%`);
    expect(report).toContain(`| hermes${shown} | 0.500 (1; 0) |`);
    expect(report).toContain("- `evil\\u{1b}\\u{5b}31m.json`: 1 cases");
    // The report's own Markdown is untouched.
    expect(report).toContain("| protocol | call expected:");
  });

  it("leaves ordinary names as they are", () => {
    expect(inertReportText("smollm2-135m-instruct-q4_1.json")).toBe("smollm2-135m-instruct-q4_1.json");
    expect(inertReportText("Intel(R) Xeon(R) Processor")).toBe("Intel(R) Xeon(R) Processor");
    expect(inertReportText("hermes · 2026-11-27 ×")).toBe("hermes · 2026-11-27 ×");
  });
});
