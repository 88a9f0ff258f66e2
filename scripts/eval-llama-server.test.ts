// `npm run eval -- --llama-server ID` end to end with the real models: the command starts
// llama-server itself, runs 5 BFCL cases, writes the results file and stops the server. Asserted:
// the file's structure and that every case ran (a score is the model's, not the lab's).
//
// Needs llama-server and the models (`npm run llama-server`, `npm run models`; `npm test` runs
// both first): skipped without them on a person's machine, failing under CI.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readCaseLog } from "../src/eval/case-log.ts";
import { timedResults } from "../src/eval/case-timing.ts";
import type { EvalResult } from "../src/eval/run-case.ts";
import type { ResultsFile } from "../src/eval/results-file.ts";
import { runEvalCommand } from "./eval.ts";
import { manifestModel, realModelsForTests } from "./real-models/llama-server-process.ts";

const SMOLLM2 = "smollm2-135m-instruct-q4_1";
const GEMMA3 = "gemma-3-270m-q4_k_m";
// Under CI a missing binary or model fails here (realModelsForTests throws); elsewhere the tests skip with the reason.
const real = realModelsForTests([SMOLLM2, GEMMA3]);
const missing = real.run ? undefined : real.why;
const dir = mkdtempSync(join(tmpdir(), "eval-llama-server-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function evalOn(args: string[]): Promise<{ code: number; stderr: string; file: ResultsFile }> {
  let stderr = "";
  const out = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  const code = await runEvalCommand([...args, "--suite", "simple_python", "--limit", "5", "--max-tokens", "64", ...(args.includes("--parallel") ? [] : ["--concurrency", "1"]), "--out", out], { stdout: () => {}, stderr: (t) => (stderr += t) });
  expect(code, stderr).toBe(0);
  return { code, stderr, file: JSON.parse(readFileSync(out, "utf8")) as ResultsFile };
}

function expectAllRan(file: ResultsFile, mode: "prompt" | "native", protocol: string) {
  expect(file.results).toHaveLength(5);
  for (const result of file.results) {
    expect(result).toMatchObject({ mode, protocol, constrained: false, category: "simple_python" });
    expect(result.id).toMatch(/^simple_python_\d+$/);
    expect(typeof result.pass).toBe("boolean");
    // Every case reached the model and back: a verdict, or a reply the model ran past the small
    // token budget (the eval records that as a case that could not finish), never a server error.
    expect(result.reason).toMatch(/^(?!the case failed to run)|^cut off at max tokens \(\d+\)$/);
  }
  expect(file.summary).toContainEqual(expect.objectContaining({ protocol, mode, category: "simple_python", n: 5 }));
}

describe.skipIf(missing !== undefined)("npm run eval -- --llama-server", () => {
  it("SmolLM2, prompt mode (xml), 2 slots: the command starts the server, runs the cases, writes the results with the model's sha256 and llama.cpp's commit", { timeout: 300_000 }, async () => {
    const run = await evalOn(["--llama-server", SMOLLM2, "--mode", "prompt", "--protocols", "xml", "--parallel", "2"]);
    expect(run.stderr).toContain(`starting llama-server with ${SMOLLM2}`);
    expect(run.stderr).toContain("2 at a time");
    expect(run.file.run).toMatchObject({ model: { id: SMOLLM2, sha256: manifestModel(SMOLLM2).sha256 }, llamaCpp: { commit: real.run ? real.build.commit : "", parallelSlots: 2 } });
    expect(run.file.run!.llamaCpp!.commit).toMatch(/^[0-9a-f]{40}$/);
    // The server's CPU time over the cases, as /proc reports it (Linux), is recorded and printed.
    if (process.platform === "linux") {
      expect(run.file.run!.llamaCpp!.cpuSeconds).toBeGreaterThan(0);
      expect(run.stderr).toMatch(/llama-server used [\d.]+ CPU-seconds \([\d.]+ a case\)/);
    }
    // Where each case's time went: llama-server's own prefill and decode timings reach the log.
    const timed = timedResults(run.file.results as EvalResult[]);
    expect(timed).toHaveLength(5);
    for (const { timing } of timed) {
      expect(timing.prefillMs).toBeGreaterThan(0);
      expect(timing.decodeMs).toBeGreaterThan(0);
      expect(timing.promptTokens).toBeGreaterThan(timing.completionTokens ?? 0);
    }
    expect(run.stderr).toContain("SmolLM2-135M-Instruct.Q4_1.gguf (template chatml)");
    expectAllRan(run.file, "prompt", "xml");
    // Each case keeps its step's log, with the tokens' probabilities llama-server reported.
    for (const result of run.file.results) {
      const events = readCaseLog(result.log!);
      expect(events.find((event) => event.type === "step-start")).toMatchObject({ template: "chatml", probabilities: { topK: 5 } });
      const tokens = events.flatMap((event) => (event.type === "output-delta" ? (event.tokens ?? []) : []));
      expect(tokens.length).toBeGreaterThan(0);
      expect(tokens.every((token) => token.p >= 0 && token.p <= 1 && (token.top?.length ?? 0) > 0)).toBe(true);
    }
  });

  // Two slots of one server, or two servers of one slot and one thread each (--servers): either
  // way a case's constrained run goes where its free run went and finds the prompt in that cache.
  it.each([
    { how: "one server with 2 slots", args: ["--parallel", "2"], llamaCpp: { parallelSlots: 2, threads: 2 } },
    { how: "--servers 2 --threads 1", args: ["--servers", "2", "--threads", "1"], llamaCpp: { parallelSlots: 2, servers: 2, threads: 1 } },
  ])("SmolLM2, --both-constraints, $how: each constrained run finds its prompt in llama-server's cache, left there by the free run just before", { timeout: 300_000 }, async ({ args, llamaCpp }) => {
    let stderr = "";
    const out = join(dir, `both-${args.join("")}.json`);
    const code = await runEvalCommand(["--llama-server", SMOLLM2, ...args, "--mode", "prompt", "--protocols", "hermes", "--both-constraints", "--suite", "simple_python", "--limit", "3", "--max-tokens", "16", "--out", out], { stdout: () => {}, stderr: (t) => (stderr += t) });
    expect(code, stderr).toBe(0);
    const file = JSON.parse(readFileSync(out, "utf8")) as ResultsFile;
    // The file says how the server(s) ran: slots, servers, threads and how their threads wait.
    expect(file.run!.llamaCpp).toMatchObject({ ...llamaCpp, waitPolicy: process.env.OMP_WAIT_POLICY ?? "passive" });
    if (args.includes("--servers")) expect(stderr).toContain(`starting 2 llama-servers with ${SMOLLM2}`);
    expect(stderr).toContain("2 at a time");
    const timed = timedResults(file.results as EvalResult[]);
    expect(timed).toHaveLength(6);
    for (const { result, timing } of timed.filter((t) => t.result.constrained)) {
      const free = timed.find((t) => !t.result.constrained && (t.result as EvalResult).id === (result as EvalResult).id)!;
      expect(timing.promptTokens).toBe(free.timing.promptTokens);
      // llama.cpp evaluates at least the prompt's last token again; the rest comes from the cache.
      expect(timing.reusedTokens).toBeGreaterThanOrEqual(timing.promptTokens! - 2);
      expect(timing.prefilledTokens).toBeLessThanOrEqual(2);
    }
  });

  it("SmolLM2, native mode: llama.cpp's own template and tool-call parser", { timeout: 300_000 }, async () => {
    const run = await evalOn(["--llama-server", SMOLLM2, "--mode", "native"]);
    expectAllRan(run.file, "native", "native");
  });

  it("Gemma 3 270M, prompt mode (pythonic)", { timeout: 300_000 }, async () => {
    const run = await evalOn(["--llama-server", GEMMA3, "--mode", "prompt", "--protocols", "pythonic"]);
    expect(run.stderr).toContain("(template gemma3_instruction)");
    expectAllRan(run.file, "prompt", "pythonic");
  });

  it("--llama-server with --base-url is a usage error", async () => {
    let stderr = "";
    const code = await runEvalCommand(["--llama-server", SMOLLM2, "--base-url", "http://127.0.0.1:1/v1", "--mode", "prompt", "--suite", "simple_python", "--out", join(dir, "x.json")], { stdout: () => {}, stderr: (t) => (stderr += t) });
    expect(code).toBe(2);
    expect(stderr).toContain("--llama-server starts its own server");
  });
});
