import { describe, expect, it } from "vitest";
import { bfclCategory } from "./bfcl-fixtures.test-helper.ts";
import { sampleCases } from "./builtin-suite.ts";
import { readResultsFile, readResultsFileInSlices, readRunInfo, resultsCsv, resultsFileTooLarge, RESULTS_FILE_MAX_CHARS, toResultsFile, type RunInfo } from "./results-file.ts";
import type { EvalResult } from "./run-case.ts";
import { categoryOf } from "./suite.ts";

const result = (id: string, pass: boolean, reason = ""): EvalResult => ({ id, category: categoryOf(id), protocol: "hermes", mode: "prompt", constrained: false, repeat: 0, pass, strictPass: pass, reason, calls: [{ name: "f", arguments: { a: "x, \"y\"" } }], durationMs: 3, runId: "r" });

describe("results file", () => {
  it("writes the issue's shape and reads it back (an older file without category gets it from the id)", () => {
    const results = [result("simple_python_0", true), result("simple_python_1", false, "number: 6 is not one of [5]")];
    const file = toResultsFile(results);
    expect(Object.keys(file.results[0]!).sort()).toEqual(["calls", "category", "constrained", "id", "mode", "pass", "protocol", "reason", "repeat", "strictPass"]);
    expect(file.summary).toEqual([{ protocol: "hermes", mode: "prompt", constrained: false, category: "simple_python", n: 2, pass: 0.5, strictPass: 0.5 }]);
    const back = readResultsFile(JSON.stringify({ results: file.results.map(({ category: _c, ...rest }) => rest) }), categoryOf);
    expect(back.map((r) => [r.id, r.category, r.pass, r.reason])).toEqual([
      ["simple_python_0", "simple_python", true, ""],
      ["simple_python_1", "simple_python", false, "number: 6 is not one of [5]"],
    ]);
    expect(() => readResultsFile("{", categoryOf)).toThrow(/^not JSON/);
    expect(() => readResultsFile('{"results": [{"id": 1}]}', categoryOf)).toThrow(/^not an eval results file: results\.0\.id/);
  });

  it("in the page: refuses a file over the size cap before parsing it, and checks results a slice at a time with a turn for the page between slices", async () => {
    const results = Array.from({ length: 100 }, (_, i) => result(`simple_python_${i}`, i % 2 === 0));
    const text = JSON.stringify(toResultsFile(results));
    let pauses = 0;
    const pause = async () => {
      pauses += 1;
    };
    expect(await readResultsFileInSlices(text, categoryOf, pause)).toEqual(readResultsFile(text, categoryOf));
    expect(pauses).toBeGreaterThanOrEqual(100 / 20);
    await expect(readResultsFileInSlices(text, categoryOf, pause, text.length - 1)).rejects.toThrow(/^the file is 0(\.\d)? MB; the lab opens results files of at most/);
    // One character over the default cap: refused by its length alone (the text is not JSON).
    await expect(readResultsFileInSlices("x".repeat(RESULTS_FILE_MAX_CHARS + 1), categoryOf, pause)).rejects.toThrow("the file is 32 MB; the lab opens results files of at most 32 MB");
    expect(resultsFileTooLarge(50 * 1024 * 1024)).toBe("the file is 50 MB; the lab opens results files of at most 32 MB (a run of 250 cases with their logs is about 11 MB)");
    expect(resultsFileTooLarge(RESULTS_FILE_MAX_CHARS)).toBeUndefined();
    // A bad result deep in the file is named by its place, as before.
    const bad = JSON.stringify({ results: [...toResultsFile(results).results.slice(0, 60), { id: 7 }] });
    await expect(readResultsFileInSlices(bad, categoryOf, pause)).rejects.toThrow(/^not an eval results file: results\.60\.id/);
  });

  it("keeps where the figures come from (date, machine, model sha256, llama.cpp commit); a file without it still imports", () => {
    const run: RunInfo = { date: "2026-11-27T13:45:08.822Z", machine: { cpu: "Intel(R) Xeon(R) Processor", cores: 2, memoryGiB: 24 }, model: { id: "smollm2-135m-instruct-q4_1", sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53" }, llamaCpp: { commit: "de3ff815ea7d559ee917f063901b8986f038abc6", parallelSlots: 2 }, settings: { mode: "prompt", temperature: 0 }, durationSeconds: 12.5, casesPerSecond: 0.16 };
    const text = JSON.stringify(toResultsFile([result("simple_python_0", true)], run));
    expect(readRunInfo(text)).toEqual(run);
    expect(readResultsFile(text, categoryOf)).toHaveLength(1);
    const old = JSON.stringify(toResultsFile([result("simple_python_0", true)]));
    expect(Object.keys(JSON.parse(old) as object)).toEqual(["results", "summary"]);
    expect(readRunInfo(old)).toBeUndefined();
    expect(readResultsFile(old, categoryOf)).toHaveLength(1);
    expect(() => readResultsFile(JSON.stringify({ ...(JSON.parse(text) as object), run: { ...run, machine: { cores: 2 } } }), categoryOf)).toThrow(/^not an eval results file: run\.machine\.cpu/);
  });

  it("CSV writes a cell a spreadsheet would run as a formula as text", () => {
    const hostile = { ...result("=HYPERLINK(\"http://x\")", false, "+1+cmd|' /C calc'!A0"), category: "@SUM(A1)", protocol: "-2+3" };
    const row = resultsCsv([hostile, result("simple_python_1", false, "\t=1+1")]).split("\n");
    expect(row[1]).toBe(`"'=HYPERLINK(""http://x"")",'@SUM(A1),0,'-2+3,prompt,false,false,false,'+1+cmd|' /C calc'!A0,"[{""name"":""f"",""arguments"":{""a"":""x, \\""y\\""""}}]"`);
    expect(row[2]).toContain(",'\t=1+1,");
    for (const line of row.slice(1, 3)) for (const cell of line.split(",")) expect(cell.replace(/^"/, "")).not.toMatch(/^[=+\-@]/);
  });

  it("reads back a call's argument named __proto__", () => {
    const file = toResultsFile([{ ...result("simple_python_0", true), calls: [{ name: "f", arguments: JSON.parse('{"__proto__": "x", "a": 1}') as Record<string, unknown> }] }]);
    const back = readResultsFile(JSON.stringify(file), categoryOf);
    expect(Object.keys(back[0]!.calls[0]!.arguments)).toEqual(["__proto__", "a"]);
  });

  it("CSV quotes cells with commas and quotes", () => {
    const csv = resultsCsv([result("simple_python_1", false, "a, b")]);
    expect(csv.split("\n")[0]).toBe("id,category,repeat,protocol,mode,constrained,pass,strictPass,reason,calls");
    expect(csv.split("\n")[1]).toBe('simple_python_1,simple_python,0,hermes,prompt,false,false,false,"a, b","[{""name"":""f"",""arguments"":{""a"":""x, \\""y\\""""}}]"');
  });

  it("samples cases per category, the same for the same seed", () => {
    const cases = [...bfclCategory("simple_python"), ...bfclCategory("irrelevance")];
    expect(sampleCases(cases, 2).map((c) => c.id)).toEqual(["simple_python_0", "simple_python_1", "irrelevance_0", "irrelevance_1"]);
    const seeded = sampleCases(cases, 3, 7).map((c) => c.id);
    expect(seeded).toEqual(sampleCases(cases, 3, 7).map((c) => c.id));
    expect(seeded).not.toEqual(sampleCases(cases, 3, 8).map((c) => c.id));
    expect(seeded.filter((id) => id.startsWith("irrelevance"))).toHaveLength(3);
  });
});
