// A case's event log in a results file: written with the verdict, read back exactly (prompt,
// output, token probabilities, parse events), bounded, and refused with a message when broken.
import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Engine, LoopEvent, TokenProbability } from "toolcall-middleware/types.ts";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { CASE_LOG_ENCODING, caseLogOf, readCaseLog, type CaseLog } from "./case-log.ts";
import { readResultsFile, resultsFileText, toResultsFile } from "./results-file.ts";
import { runEvalCase } from "./run-case.ts";
import { categoryOf } from "./suite.ts";

const token = (text: string, p: number, ...others: Array<[string, number]>): TokenProbability => ({ text, p, id: text.length, top: [{ text, p }, ...others.map(([t, q]) => ({ text: t, p: q }))] });

/** Answers no call, starting with "I" (p 0.81), a call's opener the third alternative. */
const engine: Engine = {
  name: "with probabilities",
  tokenProbabilities: { supported: true },
  generate: async function* () {
    yield { type: "text", text: "I", tokens: [token("I", 0.81, ["The", 0.1], ["<tool_call>", 0.04])] };
    yield { type: "text", text: " cannot.", tokens: [token(" cannot.", 0.6, [" can", 0.2])] };
    yield { type: "usage", usage: { completionTokens: 2, finishReason: "stop" } };
  },
};

async function evalCase(): Promise<{ events: LoopEvent[]; text: string }> {
  const run = await runEvalCase({ engine, mode: "prompt", protocol: getProtocol("hermes")!, testCase: bfclCase("simple_python_0"), constrained: false });
  const result = { ...run!.result, ...caseLogOf(run!.events) };
  return { events: run!.events, text: resultsFileText(toResultsFile([result])) };
}

describe("a case's log in a results file", () => {
  it("reads back from the file's text as the very events recorded: prompt, output tokens with their alternatives, parse events", async () => {
    const { events, text } = await evalCase();
    const [read] = readResultsFile(text, categoryOf);
    expect(read!.log?.encoding).toBe(CASE_LOG_ENCODING);
    const back = readCaseLog(read!.log!);
    expect(back).toEqual(events);
    const deltas = back.filter((e) => e.type === "output-delta");
    expect(deltas.flatMap((e) => (e.type === "output-delta" ? (e.tokens ?? []) : [])).map((t) => [t.text, t.p, t.top?.length])).toEqual([
      ["I", 0.81, 3],
      [" cannot.", 0.6, 2],
    ]);
    expect(back.some((e) => e.type === "step-start" && e.prompt.includes("calculate_triangle_area"))).toBe(true);
  });

  it("the file is indented JSON with each log on one line (its records would otherwise take a line each)", async () => {
    const { text } = await evalCase();
    const lines = text.split("\n");
    const logLine = lines.find((line) => line.trimStart().startsWith('"log": '));
    expect(logLine).toBeDefined();
    expect(() => JSON.parse(logLine!.trim().replace(/^"log": /, "").replace(/,$/, "")) as unknown).not.toThrow();
    expect(lines.filter((line) => line.includes('"log"'))).toHaveLength(1);
    // The rest is as JSON.stringify(file, null, 2) writes it.
    const parsed = JSON.parse(text) as { results: Array<{ log?: unknown }> };
    const withoutLog = { ...parsed, results: parsed.results.map(({ log: _log, ...rest }) => rest) };
    expect(resultsFileText(withoutLog as never)).toBe(`${JSON.stringify(withoutLog, null, 2)}\n`);
  });

  it("a log longer than the bound is left out and the entry says why; a case that did not run has none", async () => {
    const { events } = await evalCase();
    const kept = caseLogOf(events);
    expect("log" in kept).toBe(true);
    const size = JSON.stringify((kept as { log: CaseLog }).log).length;
    const omitted = caseLogOf(events, size - 1);
    expect(omitted).toEqual({ logOmitted: `its encoded log took ${size.toLocaleString("en-US")} characters, more than the ${(size - 1).toLocaleString("en-US")} a results file keeps per case` });
    expect(caseLogOf([])).toEqual({});
    const file = toResultsFile([{ ...(await evalCase().then(({ text }) => readResultsFile(text, categoryOf)[0]!)), log: undefined, ...omitted }]);
    expect(file.results[0]).not.toHaveProperty("log");
    expect(readResultsFile(resultsFileText(file), categoryOf)[0]!.logOmitted).toMatch(/^its encoded log took/);
  });

  it("an older file without logs still reads (no log on its results)", async () => {
    const { text } = await evalCase();
    const parsed = JSON.parse(text) as { results: Array<Record<string, unknown>> };
    const old = JSON.stringify({ results: parsed.results.map(({ log: _log, ...rest }) => rest) });
    const [read] = readResultsFile(old, categoryOf);
    expect(read!.log).toBeUndefined();
    expect(read!.id).toBe("simple_python_0");
  });

  it("a broken log is refused with where it is wrong, never shown half-read", async () => {
    const { text } = await evalCase();
    const log = readResultsFile(text, categoryOf)[0]!.log!;
    // A reference to a long string that was never written.
    const dangling: CaseLog = { ...log, events: log.events.map((record, index) => (index === 1 ? { ...(record as object), prompt: { $: "str", n: 99 } } : record)) };
    expect(() => readCaseLog(dangling)).toThrow(/^its log could not be read: event record 1\.prompt: /);
    // An event of a shape the log's schema refuses.
    const misshapen: CaseLog = { ...log, events: [{ type: "step-start", runId: "r" }] };
    expect(() => readCaseLog(misshapen)).toThrow(/^its log could not be read: event 0/);
    // A wrong encoding name is refused by the file's reader, naming the field.
    const wrongEncoding = text.replace(`"encoding":"${CASE_LOG_ENCODING}"`, '"encoding":"shared-text-9"');
    expect(() => readResultsFile(wrongEncoding, categoryOf)).toThrow(/^not an eval results file: results\.0\.log\.encoding/);
  });

  it("references may not stand for more than the bound: a small log asking for one text many times is refused", () => {
    const long = "x".repeat(10_000);
    const events: LoopEvent[] = [{ type: "run-start", runId: "r", at: 0, protocol: "hermes", messages: [{ role: "user", content: long }], tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } }];
    const encoded = caseLogOf(events) as { log: CaseLog };
    const first = encoded.log.events[0] as { messages: Array<{ content: unknown }> };
    expect(first.messages[0]!.content).toBe(long);
    // 1,000 messages each a reference to that text: 10 million characters referenced by a 45 KB log.
    const bomb: CaseLog = { ...encoded.log, events: [{ ...first, messages: [{ role: "user", content: long }, ...Array.from({ length: 1_000 }, () => ({ role: "user", content: { $: "str", n: 0 } }))] }] };
    expect(() => readCaseLog(bomb)).toThrow(/stand for more text than the lab reads from one file/);
  });
});
