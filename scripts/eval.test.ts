// The eval command against the project's OpenAI-compatible test server, which answers the eval
// questions itself (right, wrong or repairable, e2e/openai-server/eval-replies.ts).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evalAnswerer, type EvalBehaviour } from "../e2e/openai-server/eval-replies.ts";
import { startOpenAiTestServer, type OpenAiTestServer } from "../e2e/openai-server/server.ts";
import { bfclCategory, bfclFile } from "../src/eval/bfcl-fixtures.test-helper.ts";
import { readCaseLog } from "../src/eval/case-log.ts";
import type { ResultsFile } from "../src/eval/results-file.ts";
import { runEvalCommand, totalCpuSeconds } from "./eval.ts";

const dir = mkdtempSync(join(tmpdir(), "eval-command-"));
const cases = [...bfclCategory("simple_python"), ...bfclCategory("parallel"), ...bfclCategory("irrelevance")];
const behaviours: Record<string, EvalBehaviour> = { simple_python_0: "right", simple_python_1: "wrong", simple_python_2: "repairable", irrelevance_0: "right", irrelevance_1: "wrong" };
let server: OpenAiTestServer;

beforeAll(async () => {
  server = await startOpenAiTestServer({ models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }], answer: evalAnswerer(cases, (id) => behaviours[id] ?? "right") });
});
afterAll(() => server.close());

async function command(args: string[]): Promise<{ code: number; stdout: string; stderr: string; file?: ResultsFile }> {
  let stdout = "";
  let stderr = "";
  const out = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  const code = await runEvalCommand([...args, "--out", out], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  let file: ResultsFile | undefined;
  try {
    file = JSON.parse(readFileSync(out, "utf8")) as ResultsFile;
  } catch {
    file = undefined;
  }
  return { code, stdout, stderr, ...(file ? { file } : {}) };
}

const base = () => ["--base-url", server.url, "--model", "Qwen/Qwen3-8B"];

describe("npm run eval", () => {
  // The stand-in drops a request before any answer as often as `drops` says for its prompt (the
  // first prompt it sees, then the second); a probe (no prompt) is always answered.
  async function droppingServer(drops: readonly number[]) {
    const seen = new Map<string, number>();
    const order: string[] = [];
    return startOpenAiTestServer({
      models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }],
      answer: evalAnswerer(cases, () => "right"),
      closeUnanswered: (request) => {
        const prompt = request.body?.prompt;
        if (typeof prompt !== "string") return false;
        if (!seen.has(prompt)) order.push(prompt);
        const sent = (seen.get(prompt) ?? 0) + 1;
        seen.set(prompt, sent);
        return sent <= (drops[order.indexOf(prompt)] ?? 0);
      },
    });
  }
  const noAnswer = /eval: no answer from http:\/\/127\.0\.0\.1:\d+\/v1\/completions \(fetch failed: other side closed \(UND_ERR_SOCKET\)\); sent again\./g;

  it("a case whose request got no answer at all (the connection closed under it) is sent again, up to twice, and runs; the run says so", async () => {
    // One question's request is dropped twice, the other's once: both run.
    const flaky = await droppingServer([2, 1]);
    try {
      const run = await command(["--base-url", flaky.url, "--model", "Qwen/Qwen3-8B", "--mode", "prompt", "--protocols", "hermes", "--suite", "simple_python", "--limit", "2"]);
      expect(run.code).toBe(0);
      expect(run.stderr).not.toMatch(/failed to run/);
      expect(run.file!.results.map((r) => r.pass)).toEqual([true, true]);
      expect(run.stderr.match(noAnswer)).toHaveLength(3);
    } finally {
      await flaky.close();
    }
  });

  it("a request that never gets an answer fails its case after two resends, saying the connection closed (no CORS outside a page)", async () => {
    const dead = await droppingServer([Infinity]);
    try {
      const run = await command(["--base-url", dead.url, "--model", "Qwen/Qwen3-8B", "--mode", "prompt", "--protocols", "hermes", "--suite", "simple_python", "--limit", "1"]);
      expect(run.stderr.match(noAnswer)).toHaveLength(2);
      const [result] = run.file!.results;
      expect(result!.pass).toBe(false);
      expect(result!.reason).toMatch(/^the case failed to run: ServerFailure: The server at http:\/\/127\.0\.0\.1:\d+ answers, but this request got no answer: its connection closed before a response\./);
      expect(result!.reason).not.toMatch(/CORS/);
    } finally {
      await dead.close();
    }
  });

  it("prompt mode, two protocols: the results file, the verdicts (right, wrong, repairable) and the matrix", async () => {
    server.requests.length = 0;
    const run = await command([...base(), "--mode", "prompt", "--protocols", "hermes,xml", "--suite", "simple_python", "--limit", "3"]);
    expect(run.stderr).not.toMatch(/failed to run/);
    expect(run.code).toBe(0);
    const results = run.file!.results;
    expect(results).toHaveLength(6);
    const verdict = (id: string, protocol: string) => results.find((r) => r.id === id && r.protocol === protocol);
    for (const protocol of ["hermes", "xml"]) {
      expect(verdict("simple_python_0", protocol)).toMatchObject({ mode: "prompt", constrained: false, pass: true, strictPass: true, reason: "", calls: [{ name: "calculate_triangle_area", arguments: { base: 10, height: 5, unit: "units" } }] });
      expect(verdict("simple_python_1", protocol)).toMatchObject({ pass: false, strictPass: false, reason: "number: 6 is not one of [5]" });
      expect(verdict("simple_python_2", protocol)).toMatchObject({ pass: true, strictPass: false, reason: expect.stringMatching(/^strict: repaired: /) });
    }
    expect(run.file!.summary).toContainEqual({ protocol: "hermes", mode: "prompt", constrained: false, category: "simple_python", n: 3, pass: 2 / 3, strictPass: 1 / 3 });
    // The prompt is rendered with the model's template (Qwen3 from its name), dotted names as they are.
    const prompts = server.requests.filter((r) => r.path === "/v1/completions").map((r) => String(r.body?.prompt));
    expect(prompts).toHaveLength(6);
    expect(prompts.every((p) => p.startsWith("<|im_start|>system"))).toBe(true);
    expect(prompts.some((p) => p.includes("math.factorial"))).toBe(true);
    // Each case keeps its step's log: the prompt the server was sent, and the calls it scored.
    for (const result of results) {
      const events = readCaseLog(result.log!);
      const stepStart = events.find((event) => event.type === "step-start");
      expect(stepStart?.type === "step-start" && prompts.includes(stepStart.prompt)).toBe(true);
      const calls = events.flatMap((event) => (event.type === "parse" && event.event.type === "tool-call-end" ? [{ name: event.event.call.name, arguments: event.event.call.arguments }] : []));
      expect(calls).toEqual(result.calls);
    }
    expect(run.stdout).toMatch(/^protocol\s+simple_python\s+all/);
    expect(run.stdout).toMatch(/\nhermes\s+67% \[\d+%–\d+%\] strict 33% n=3/);
    expect(run.stdout).toMatch(/\nxml\s+67%/);
    expect(run.stderr).toMatch(/eval: 6\/6 {2}pass 66\.7%/);
    // The file's size and how many cases kept their log.
    expect(run.stderr).toMatch(/eval: results written to .+\.json \([\d.]+ KB; 6 of 6 cases with their step's log\)/);
  });

  it("native mode: tools go to chat completions with _ for dots, calls are mapped back; irrelevance passes on no call", async () => {
    server.requests.length = 0;
    const questions = join(dir, "mine.jsonl");
    const answers = join(dir, "mine-answers.jsonl");
    writeFileSync(questions, bfclFile("simple_python.questions.jsonl").split("\n").slice(0, 2).join("\n"));
    writeFileSync(answers, bfclFile("simple_python.answers.jsonl"));
    const run = await command([...base(), "--mode", "native", "--suite", questions, "--answers", answers]);
    expect(run.code).toBe(0);
    expect(run.file!.results.map((r) => [r.id, r.protocol, r.pass])).toEqual([
      ["simple_python_0", "native", true],
      ["simple_python_1", "native", false],
    ]);
    expect(run.file!.results[1]!.calls).toEqual([{ name: "math.factorial", arguments: { number: 6 } }]);
    const sent = server.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => (r.body?.tools as Array<{ function: { name: string } }>).map((t) => t.function.name));
    expect(sent).toContainEqual(["math_factorial"]);

    const irrelevance = await command([...base(), "--mode", "native", "--suite", "irrelevance", "--limit", "2"]);
    expect(irrelevance.file!.results.map((r) => [r.id, r.pass, r.reason])).toEqual([
      ["irrelevance_0", true, ""],
      ["irrelevance_1", false, expect.stringMatching(/^no call was expected, but it called /)],
    ]);
  });

  it("--constrained sends the protocol's structural tag as response_format; a server that refuses it is reported", async () => {
    server.requests.length = 0;
    const run = await command([...base(), "--mode", "prompt", "--protocols", "hermes", "--constrained", "--suite", "simple_python", "--limit", "1", "--temperature", "0.7"]);
    expect(run.file!.results[0]).toMatchObject({ constrained: true, pass: true });
    const sent = server.requests.find((r) => r.path === "/v1/completions")?.body;
    expect(sent?.response_format).toMatchObject({ type: "structural_tag", format: { type: "triggered_tags" } });
    expect(sent?.temperature).toBe(0.7);

    server.script({ error: { status: 400, message: "response_format structural_tag is not supported" } });
    const refused = await command([...base(), "--mode", "prompt", "--constrained", "--suite", "simple_python", "--limit", "1"]);
    expect(refused.file!.results[0]).toMatchObject({ pass: false, reason: expect.stringMatching(/^the case failed to run: .*structural_tag is not supported/) });
    expect(refused.stderr).toMatch(/1 of 1 cases failed to run/);
  });

  it("--both-constraints runs each case free, then constrained after it (one prompt, sent twice in turn); with --constrained it is a usage error", async () => {
    server.requests.length = 0;
    const run = await command([...base(), "--mode", "prompt", "--protocols", "hermes", "--both-constraints", "--suite", "simple_python", "--limit", "3", "--concurrency", "2"]);
    expect(run.code).toBe(0);
    expect(run.file!.run!.settings).toMatchObject({ constrained: "both" });
    expect(run.file!.results.map((r) => `${r.id} ${r.constrained}`).sort()).toEqual(["simple_python_0 false", "simple_python_0 true", "simple_python_1 false", "simple_python_1 true", "simple_python_2 false", "simple_python_2 true"]);
    const sent = server.requests.filter((r) => r.path === "/v1/completions").map((r) => r.body!);
    expect(sent).toHaveLength(6);
    // Each prompt is sent twice: first free (no structural tag), then constrained; never the constrained one first.
    for (const prompt of new Set(sent.map((body) => String(body.prompt)))) {
      expect(sent.filter((body) => body.prompt === prompt).map((body) => body.response_format !== undefined)).toEqual([false, true]);
    }
    expect(run.stdout).toMatch(/\nhermes\s+\d+%/);
    expect(run.stdout).toMatch(/\nhermes \+constrained\s+\d+%/);

    const both = await command([...base(), "--mode", "prompt", "--constrained", "--both-constraints", "--suite", "simple_python"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("leave out --constrained");
  });

  it("a case that fails to run is recorded as failed with its reason, and the run goes on", async () => {
    server.script({ error: { status: 500, message: "out of memory" } });
    const run = await command([...base(), "--mode", "prompt", "--suite", "simple_python", "--limit", "3", "--concurrency", "1"]);
    expect(run.code).toBe(0);
    expect(run.file!.results).toHaveLength(3);
    expect(run.file!.results[0]).toMatchObject({ id: "simple_python_0", pass: false, reason: expect.stringMatching(/^the case failed to run: .*out of memory/) });
    expect(run.file!.results.slice(1).map((r) => r.id)).toEqual(["simple_python_1", "simple_python_2"]);
  });

  it("a server that sends only keep-alive comments: the case fails at its deadline without tokens, and the run goes on", async () => {
    server.script({ hold: true, keepAliveMs: 20 });
    // The deadline must also let the second case's first token arrive on a busy machine (0.3 s did
    // not, at load 7 in a fresh-clone run): 5 s, which the held case waits out.
    const run = await command([...base(), "--mode", "prompt", "--suite", "simple_python", "--limit", "2", "--concurrency", "1", "--idle-timeout", "5"]);
    expect(run.code).toBe(0);
    expect(run.file!.results).toHaveLength(2);
    expect(run.file!.results[0]).toMatchObject({ id: "simple_python_0", pass: false, reason: expect.stringMatching(/^the case failed to run: .*no token from the engine for 5 s/) });
    expect(run.file!.results[1]).toMatchObject({ id: "simple_python_1" });
    expect(run.file!.results[1]!.reason).not.toMatch(/failed to run/);
    expect(server.closedEarly()).toBeGreaterThan(0);
    const refused = await command([...base(), "--mode", "prompt", "--suite", "simple_python", "--idle-timeout", "soon"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--idle-timeout must be a number of seconds > 0, not "soon"/);
  });

  it("stopped before the end (Ctrl-C): the cases done are written, and the exit code is not 0", async () => {
    server.script({ hold: true, keepAliveMs: 20 });
    const controller = new AbortController();
    let stderr = "";
    const out = join(dir, "stopped.json");
    const running = runEvalCommand([...base(), "--mode", "prompt", "--suite", "simple_python", "--limit", "2", "--concurrency", "1", "--out", out], {
      stdout: () => undefined,
      stderr: (t) => {
        stderr += t;
        // Stopped once the first case's request is being held.
        if (t.includes("cases (")) setTimeout(() => controller.abort(), 200);
      },
      signal: controller.signal,
    });
    expect(await running).toBe(130);
    expect(stderr).toMatch(/eval: stopped; 0 of 2 cases done/);
    expect((JSON.parse(readFileSync(out, "utf8")) as ResultsFile).results).toHaveLength(0);
    server.release();
  });

  it("the results file says where its figures come from: date, machine, model, settings, time and cases/s", async () => {
    const before = Date.now();
    const run = await command([...base(), "--mode", "prompt", "--protocols", "hermes", "--suite", "simple_python", "--limit", "2", "--max-tokens", "99"]);
    expect(run.code).toBe(0);
    const info = run.file!.run!;
    expect(Date.parse(info.date)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(info.date)).toBeLessThanOrEqual(Date.now());
    expect(info.machine).toEqual({ cpu: cpus()[0]!.model.trim(), cores: cpus().length, memoryGiB: expect.any(Number) as number });
    // A server the command did not start: its model id only, no sha256 and no llama.cpp commit it could know.
    expect(info.model).toEqual({ id: "Qwen/Qwen3-8B" });
    expect(info.llamaCpp).toBeUndefined();
    expect(info.settings).toMatchObject({ suite: "simple_python", mode: "prompt", protocols: "hermes", constrained: false, temperature: 0, maxTokens: 99, casesPerCategory: 2 });
    expect(info.durationSeconds).toBeGreaterThanOrEqual(0);
    expect(run.stderr).toMatch(/eval: 2 cases in [\d.]+s \([\d.]+ cases\/s\)/);
  });

  it("prints where the time went: per protocol the cases, prompt and reply tokens, how replies ended; --stop-repetition is recorded", async () => {
    const run = await command([...base(), "--mode", "prompt", "--protocols", "hermes,xml", "--suite", "simple_python", "--limit", "2", "--stop-repetition"]);
    expect(run.code).toBe(0);
    expect(run.file!.run!.settings).toMatchObject({ stopRepetition: true });
    const table = run.stdout.slice(run.stdout.indexOf("\nprotocol  cases"));
    expect(table).toMatch(/^\nprotocol\s+cases\s+prompt tok\s+reused\s+reply tok\s+stop\s+max-tokens\s+repetition\s+other\s+prefill s\s+decode s\n/);
    // Both cases of each protocol ended by themselves (the stand-in server's replies are short).
    expect(table).toMatch(/\nhermes\s+2\s+\d+\s+\S+\s+\S+\s+2\s+0\s+0\s+0\s/);
    expect(table).toMatch(/\nxml\s+2\s+\d+\s+\S+\s+\S+\s+2\s+0\s+0\s+0\s/);
  });

  it("--resume runs only the cases the file does not hold, keeps the ones it does and the run's date", async () => {
    const out = join(dir, "resumed.json");
    const io = { stdout: () => undefined, stderr: () => undefined };
    const args = [...base(), "--mode", "prompt", "--protocols", "hermes,xml", "--suite", "simple_python", "--out", out];
    expect(await runEvalCommand([...args, "--limit", "2"], io)).toBe(0);
    const first = JSON.parse(readFileSync(out, "utf8")) as ResultsFile;
    expect(first.results).toHaveLength(4);
    expect(first.results.every((r) => r.log !== undefined)).toBe(true);
    server.requests.length = 0;
    let stderr = "";
    expect(await runEvalCommand([...args, "--limit", "3", "--resume"], { stdout: () => undefined, stderr: (t) => (stderr += t) })).toBe(0);
    expect(stderr).toContain("resuming");
    expect(stderr).toContain("4 of 6 cases already done");
    // The last line gives the whole file's figures and this session's own.
    expect(stderr).toMatch(/eval: 6 cases in [\d.]+s \([\d.]+ cases\/s\) \(this session: 2 cases in [\d.]+s, [\d.]+ cases\/s\)/);
    // Only simple_python_2 under both protocols was sent.
    const prompts = server.requests.filter((r) => r.path === "/v1/completions");
    expect(prompts).toHaveLength(2);
    const second = JSON.parse(readFileSync(out, "utf8")) as ResultsFile;
    expect(second.results.map((r) => `${r.protocol} ${r.id}`).sort()).toEqual(["hermes simple_python_0", "hermes simple_python_1", "hermes simple_python_2", "xml simple_python_0", "xml simple_python_1", "xml simple_python_2"]);
    // Kept as they were, their logs included.
    expect(second.results.slice(0, 4)).toEqual(first.results);
    expect(second.run!.date).toBe(first.run!.date);
    expect(second.summary).toContainEqual(expect.objectContaining({ protocol: "xml", category: "simple_python", n: 3 }));
    // A file of other settings (another protocol) is not mixed in: its results are not this run's.
    server.requests.length = 0;
    expect(await runEvalCommand([...args, "--protocols", "pythonic", "--limit", "1", "--resume"], io)).toBe(0);
    expect(server.requests.filter((r) => r.path === "/v1/completions")).toHaveLength(1);
    expect((JSON.parse(readFileSync(out, "utf8")) as ResultsFile).results.map((r) => r.protocol)).toEqual(["pythonic"]);
  });

  it("stopped after a case finished, then resumed: the finished case is kept and not sent again", async () => {
    const out = join(dir, "stop-resume.json");
    const args = [...base(), "--mode", "prompt", "--suite", "simple_python", "--limit", "3", "--concurrency", "1", "--out", out];
    const controller = new AbortController();
    const stopped = runEvalCommand(args, {
      stdout: () => undefined,
      stderr: (t) => {
        // The first case is done: the next one is held by the server, and the run is stopped then.
        if (t.startsWith("eval: 1/3")) {
          server.script({ hold: true, keepAliveMs: 20 });
          setTimeout(() => controller.abort(), 200);
        }
      },
      signal: controller.signal,
    });
    expect(await stopped).toBe(130);
    server.release();
    const kept = JSON.parse(readFileSync(out, "utf8")) as ResultsFile;
    expect(kept.results.map((r) => r.id)).toEqual(["simple_python_0"]);
    server.requests.length = 0;
    expect(await runEvalCommand([...args, "--resume"], { stdout: () => undefined, stderr: () => undefined })).toBe(0);
    const sent = server.requests.filter((r) => r.path === "/v1/completions").map((r) => String(r.body?.prompt));
    expect(sent).toHaveLength(2);
    expect(sent.some((p) => p.includes("calculate_triangle_area"))).toBe(false);
    expect((JSON.parse(readFileSync(out, "utf8")) as ResultsFile).results.map((r) => r.id)).toEqual(["simple_python_0", "simple_python_1", "simple_python_2"]);
  });

  it("the server's CPU time adds up over resumed sessions, and is unknown when a kept session did not record it", () => {
    const earlier = (cpuSeconds?: number) => ({ date: "2026-11-27T15:00:00.000Z", machine: { cpu: "x", cores: 2 }, model: { id: "m" }, llamaCpp: { commit: "c", ...(cpuSeconds !== undefined ? { cpuSeconds } : {}) }, settings: {} });
    expect(totalCpuSeconds(undefined, 12.5)).toBe(12.5);
    expect(totalCpuSeconds(earlier(30), 12.5)).toBe(42.5);
    expect(totalCpuSeconds(earlier(), 12.5)).toBeUndefined();
  });

  it("--no-logs writes verdicts only", async () => {
    const run = await command([...base(), "--mode", "prompt", "--suite", "simple_python", "--limit", "2", "--no-logs"]);
    expect(run.code).toBe(0);
    expect(run.file!.results).toHaveLength(2);
    expect(run.file!.results.some((r) => "log" in r || "logOmitted" in r)).toBe(false);
    expect(run.stderr).toMatch(/\(\d+\.\d KB; 0 of 2 cases with their step's log\)/);
    // Where the time went is still printed: this session's cases are timed from their events.
    expect(run.stdout).toMatch(/\nhermes\s+2\s+\d+/);
  });

  it("--parallel, --threads, --servers and --port without --llama-server are usage errors", async () => {
    for (const flag of ["--parallel", "--threads", "--servers", "--port"]) {
      const run = await command([...base(), "--mode", "prompt", "--suite", "simple_python", flag, "2"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("set up the llama-server that --llama-server starts");
    }
  });

  it("clear messages: unreachable server, unknown model, broken suite line, unknown protocol, template not inferred", async () => {
    const unreachable = await command(["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--mode", "prompt", "--suite", "simple_python"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^eval: No server answered at http:\/\/127\.0\.0\.1:9\.\n {2}Check that the server is running/);
    expect(unreachable.file).toBeUndefined();

    const unknownModel = await command(["--base-url", server.url, "--model", "llama-9000", "--mode", "prompt", "--suite", "simple_python"]);
    expect(unknownModel.stderr).toBe('eval: the server at ' + server.url + ' does not serve a model "llama-9000" (it serves: Qwen/Qwen3-8B).\n');

    const broken = join(dir, "broken.jsonl");
    writeFileSync(broken, `${bfclFile("simple_python.questions.jsonl").split("\n")[0]}\n{"id": "x", "question": [[{"role": "user"`);
    server.requests.length = 0;
    const brokenRun = await command([...base(), "--mode", "prompt", "--suite", broken, "--answers", join(dir, "mine-answers.jsonl")]);
    expect(brokenRun.code).toBe(1);
    expect(brokenRun.stderr).toMatch(/^eval: .*broken\.jsonl line 2: not JSON/);
    expect(server.requests).toHaveLength(0);

    const protocol = await command([...base(), "--mode", "prompt", "--protocols", "hermes,nope", "--suite", "simple_python"]);
    expect(protocol.code).toBe(2);
    expect(protocol.stderr).toMatch(/unknown protocol "nope" \(known: hermes, xml/);

    server.set({ models: [{ id: "my-finetune" }] });
    const template = await command(["--base-url", server.url, "--model", "my-finetune", "--mode", "prompt", "--suite", "simple_python"]);
    expect(template.stderr).toMatch(/cannot tell the chat template from the model name "my-finetune": pass --template/);
    server.set({ models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }] });
  });

  it("runs as npm run --silent eval (progress on stderr, the table on stdout)", async () => {
    const out = join(dir, "cli.json");
    const { stdout, stderr } = await promisify(execFile)("npm", ["run", "--silent", "eval", "--", ...base(), "--mode", "prompt", "--suite", "parallel", "--limit", "2", "--concurrency", "2", "--out", out], { encoding: "utf8" });
    expect(stderr).toMatch(/eval: 2\/2 {2}pass 100\.0%/);
    expect(stdout).toMatch(/^protocol\s+parallel\s+all\s+drift\s+call p\n/);
    expect((JSON.parse(readFileSync(out, "utf8")) as ResultsFile).results.every((r) => r.pass)).toBe(true);
  }, 60_000);
});
