// `npm run --silent eval -- --base-url <URL ending in /v1> --model <id> --mode prompt|native
//   [--protocols hermes,xml,...] [--constrained] --suite <questions file | builtin | category>
//   [--answers <possible_answer file>] --out <results.json> [--limit N] [--concurrency N]
//   [--template <family>] [--idle-timeout <seconds>] [--resume] [--both-constraints] [--stop-repetition] [--no-logs]`
// or, instead of --base-url and --model, `--llama-server <model id of models/models.json>
// [--parallel N] [--threads T] [--servers S] [--port P]`: the command starts llama.cpp's llama-server with that model on
// 127.0.0.1 itself (`npm run models` and `npm run llama-server` first), S of them (default 1) with
// N slots and T threads each (S × N cases sent at once unless --concurrency says otherwise), and
// stops them when done.
// The results file is rewritten after every finished case, so a stopped or killed run loses only
// the cases in flight; `--resume` reads it back and runs only the cases it does not hold yet.
// --both-constraints runs each case free and then constrained, the two one after the other on one
// connection, so the second finds the (identical) prompt in the server's cache. --stop-repetition
// stops a reply that has fallen into a loop (repetition-stop.ts); the file's settings say so.
// Each case keeps its step's event log (prompt, raw output and token probabilities, parse events)
// in the file, so it opens in the Evaluate view's debugger (src/eval/case-log.ts); `--no-logs`
// writes verdicts only (a large run: about 40 KB a case at 256 tokens with their probabilities,
// and the file is rewritten after every case).
// Runs BFCL-style cases against an OpenAI-compatible server with the lab's own suites, scorer and
// middleware (src/eval/): prompt mode renders each prompt with the model's chat template and
// streams /v1/completions; native mode sends the tools to /v1/chat/completions. Writes the
// results file, shows a progress line on stderr while it runs and prints the matrix at the end.
// A case that fails to run is recorded as failed with its reason, and the run goes on.
import { setMaxListeners } from "node:events";
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { listModels, OpenAiEngine, type OpenAiMode } from "../src/engine/openai/openai-engine.ts";
import { probeLlamaCpp } from "../src/engine/openai/llama-cpp-probe.ts";
import { startLlamaServer, type LlamaServer } from "./real-models/llama-server-process.ts";
import { ServerFailure } from "../src/engine/openai/server-failure.ts";
import { inferServerTemplate, serverChatTemplate, serverTemplateNames, type ServerTemplateName } from "toolcall-middleware/families/server-templates.ts";
import { BUILTIN_CATEGORIES, isBuiltinCategory, loadBuiltinSuite, sampleCases } from "../src/eval/builtin-suite.ts";
import { matrixTable } from "../src/eval/matrix-table.ts";
import { caseLogOf } from "../src/eval/case-log.ts";
import { readResultsFile, readRunInfo, resultsFileText, toResultsFile, type RunInfo } from "../src/eval/results-file.ts";
import { failedResult, readsValuesAsText, runEvalCase, type EvalResult } from "../src/eval/run-case.ts";
import { jobKey, planJobs, runJobs, samePrompt } from "../src/eval/run-matrix.ts";
import { categoryOf, importBfclSuite, type EvalCase } from "../src/eval/suite.ts";
import { withTokenDeadline } from "../src/eval/token-deadline.ts";
import { caseTiming, timedResults, timingTable, type CaseTiming } from "../src/eval/case-timing.ts";
import { withRepetitionStop } from "../src/eval/repetition-stop.ts";
import { resendWhenUnanswered } from "./resend-unanswered.ts";
import { getProtocol, listProtocols } from "toolcall-middleware/protocols/registry.ts";

const USAGE =
  "usage: npm run --silent eval -- (--base-url <URL ending in /v1> --model <id> | --llama-server <model id of models/models.json>) --mode prompt|native [--protocols hermes,xml,...] [--constrained] --suite <questions file | builtin | category> [--answers <file>] --out <results.json> [--limit N] [--concurrency N] [--template <family>] [--idle-timeout <seconds without a token before a case fails; default 120>] [--parallel <llama-server slots; default 1>] [--threads <llama-server threads; default 2>] [--servers <llama-servers started, each with --parallel slots; default 1>] [--port <llama-server port>] [--resume] [--stop-repetition] [--both-constraints] [--no-logs <verdicts only: no step log per case>]";

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stderr is a terminal (the progress line then rewrites itself). */
  interactive?: boolean;
  signal?: AbortSignal;
}

class UsageError extends Error {}

const publicDir = join(dirname(fileURLToPath(import.meta.url)), "..", "public");

/** Runs the command; resolves to its exit code (0 done, 1 failed, 2 usage, 130 stopped before the end). */
export async function runEvalCommand(argv: string[], io: CommandIo): Promise<number> {
  try {
    return await evaluate(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`eval: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ServerFailure) {
      io.stderr(`eval: ${error.message}${error.suggestion ? `\n  ${error.suggestion}` : ""}\n`);
      return 1;
    }
    io.stderr(`eval: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function evaluate(argv: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        "base-url": { type: "string" },
        model: { type: "string" },
        mode: { type: "string" },
        protocols: { type: "string" },
        constrained: { type: "boolean" },
        "both-constraints": { type: "boolean" },
        suite: { type: "string" },
        answers: { type: "string" },
        out: { type: "string" },
        limit: { type: "string" },
        concurrency: { type: "string" },
        template: { type: "string" },
        "api-key": { type: "string" },
        "max-tokens": { type: "string" },
        temperature: { type: "string" },
        "idle-timeout": { type: "string" },
        "llama-server": { type: "string" },
        parallel: { type: "string" },
        threads: { type: "string" },
        servers: { type: "string" },
        port: { type: "string" },
        resume: { type: "boolean" },
        "stop-repetition": { type: "boolean" },
        "no-logs": { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const options = parsed.values;
  const required = (name: "base-url" | "model" | "mode" | "suite" | "out") => {
    const value = options[name];
    if (!value) throw new UsageError(`--${name} is required.`);
    return value;
  };
  const llamaServerModel = options["llama-server"];
  if (llamaServerModel && (options["base-url"] || options.model)) throw new UsageError("--llama-server starts its own server: leave out --base-url and --model.");
  const baseUrl = llamaServerModel ? "" : required("base-url");
  const model = llamaServerModel ? "" : required("model");
  const modeOption = required("mode");
  if (modeOption !== "prompt" && modeOption !== "native") throw new UsageError(`--mode must be prompt or native, not "${modeOption}".`);
  const mode: OpenAiMode = modeOption;
  const suite = required("suite");
  const out = required("out");
  const limit = positiveInt(options.limit, "--limit");
  const parallel = positiveInt(options.parallel, "--parallel");
  const port = positiveInt(options.port, "--port");
  const threads = positiveInt(options.threads, "--threads");
  const serverCount = positiveInt(options.servers, "--servers");
  if (!llamaServerModel && (parallel !== undefined || port !== undefined || threads !== undefined || serverCount !== undefined)) throw new UsageError("--parallel, --threads, --servers and --port set up the llama-server that --llama-server starts.");
  if (serverCount !== undefined && serverCount > 1 && port !== undefined) throw new UsageError("--port fixes one server's port: leave it out with --servers.");
  const concurrency = positiveInt(options.concurrency, "--concurrency") ?? (llamaServerModel ? (parallel ?? 1) * (serverCount ?? 1) : 4);
  const maxTokens = positiveInt(options["max-tokens"], "--max-tokens") ?? 512;
  const idleTimeoutSeconds = options["idle-timeout"] === undefined ? DEFAULT_IDLE_TIMEOUT_SECONDS : Number(options["idle-timeout"]);
  if (!Number.isFinite(idleTimeoutSeconds) || idleTimeoutSeconds <= 0) throw new UsageError(`--idle-timeout must be a number of seconds > 0, not "${options["idle-timeout"]}".`);
  const temperature = options.temperature === undefined ? 0 : Number(options.temperature);
  if (!Number.isFinite(temperature) || temperature < 0) throw new UsageError(`--temperature must be a number ≥ 0, not "${options.temperature}".`);
  const protocolNames = (options.protocols ?? "hermes").split(",").map((name) => name.trim()).filter(Boolean);
  for (const name of protocolNames) {
    if (!getProtocol(name)) throw new UsageError(`unknown protocol "${name}" (known: ${listProtocols().map((p) => p.name).join(", ")}).`);
  }
  if (mode === "native" && options.protocols) io.stderr("eval: native mode: the server's own template and parser make the calls; --protocols is ignored.\n");
  if (options.constrained && options["both-constraints"]) throw new UsageError("--both-constraints already runs every case constrained (and free): leave out --constrained.");
  if (mode === "native" && (options.constrained || options["both-constraints"])) io.stderr("eval: native mode: --constrained applies to prompt mode only; ignored.\n");
  const constraints = options["both-constraints"] ? [false, true] : options.constrained ? [true] : [false];
  const constraintText = constraints.length === 2 ? "free and constrained" : constraints[0] ? "constrained" : "";

  // The suite first: a broken line is reported before any request is sent.
  let cases = await loadSuite(suite, options.answers);
  if (limit !== undefined) cases = sampleCases(cases, limit);

  // A resumed run keeps what the file holds (its results and when it started) and adds the rest.
  const previous = options.resume && existsSync(out) ? readPrevious(out) : undefined;
  if (options.resume && !previous) io.stderr(`eval: --resume: ${out} does not exist yet; starting from the beginning.\n`);
  const settings: RunInfo["settings"] = { suite, mode, protocols: mode === "native" ? "native" : protocolNames.join(","), constrained: constraints.length === 2 ? "both" : constraints[0]!, temperature, maxTokens, ...(limit !== undefined ? { casesPerCategory: limit } : {}), concurrency, ...(options["stop-repetition"] ? { stopRepetition: true } : {}) };

  if (!llamaServerModel) return evaluateOn([{ baseUrl, model }], cases, { model: { id: model } }, () => undefined);
  const count = serverCount ?? 1;
  io.stderr(`eval: starting ${count === 1 ? "llama-server" : `${count} llama-servers`} with ${llamaServerModel}\n`);
  const servers: LlamaServer[] = [];
  try {
    // Several servers of one slot each (--servers) instead of one with several slots: on a small
    // machine a server per core, one thread each, never waits for its other thread (docs/real-model-evals.md).
    for (let index = 0; index < count; index += 1) {
      servers.push(await startLlamaServer({ modelId: llamaServerModel, ...(parallel !== undefined ? { parallel } : {}), ...(threads !== undefined ? { threads } : {}), ...(port !== undefined ? { port } : {}) }));
    }
    const targets = [];
    for (const server of servers) {
      const [served] = await listModels({ baseUrl: server.baseUrl, apiKey: server.apiKey });
      if (!served) throw new Error("llama-server lists no model");
      // Each server started here has a key of its own (llama-server-process.ts).
      targets.push({ baseUrl: server.baseUrl, model: served.id, apiKey: server.apiKey });
    }
    const first = servers[0]!;
    const runModel = { id: first.model.id, sha256: first.model.sha256, file: first.model.file };
    const llamaCpp = { commit: first.build.commit, parallelSlots: (parallel ?? 1) * count, ...(count > 1 ? { servers: count } : {}), threads: first.threads, waitPolicy: first.waitPolicy };
    const cpuSeconds = () => {
      const each = servers.map((server) => server.cpuSeconds());
      return each.every((value) => value !== undefined) ? each.reduce((sum, value) => sum + value, 0) : undefined;
    };
    return await evaluateOn(targets, cases, { model: runModel, llamaCpp }, cpuSeconds);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }

  async function evaluateOn(targets: { baseUrl: string; model: string; apiKey?: string }[], cases: EvalCase[], where: Pick<RunInfo, "model" | "llamaCpp">, serverCpuSeconds: () => number | undefined): Promise<number> {
    // The server and the model (several servers serve the same model: the first is asked).
    const { baseUrl, model } = targets[0]!;
    const apiKey = targets[0]!.apiKey ?? options["api-key"];
    const connection = { baseUrl, ...(apiKey ? { apiKey } : {}) };
    const models = await listModels(connection);
    const served = models.find((m) => m.id === model);
    if (!served) throw new Error(`the server at ${baseUrl} does not serve a model "${model}" (it serves: ${models.map((m) => m.id).join(", ") || "none"}).`);
    let templateName: ServerTemplateName | undefined;
    if (mode === "prompt") {
      if (options.template !== undefined) {
        if (!(serverTemplateNames as string[]).includes(options.template)) throw new UsageError(`unknown template "${options.template}" (known: ${serverTemplateNames.join(", ")}).`);
        templateName = options.template as ServerTemplateName;
      } else {
        templateName = inferServerTemplate(model);
        if (!templateName) throw new UsageError(`cannot tell the chat template from the model name "${model}": pass --template (one of ${serverTemplateNames.join(", ")}).`);
      }
    }
    const template = templateName ? serverChatTemplate(templateName) : undefined;
    // llama.cpp adds a BOS itself (prompt mode then leaves the template's out) and says what prompt it
    // renders from a native request (recorded with the step): see llama-cpp-probe.ts.
    const llamaCpp = await probeLlamaCpp(baseUrl, apiKey);
    // A request that got no answer at all is sent again, twice at most (resend-unanswered.ts), and the run says so.
    const resendingFetch = resendWhenUnanswered(globalThis.fetch.bind(globalThis), (url, why) => io.stderr(`eval: no answer from ${url} (${why}); sent again.\n`));
    // One engine per server; worker i sends its cases to server i mod n (a case's free and
    // constrained runs share a worker, so the second finds its prompt in that server's cache).
    const engines = targets.map((target) => {
      const servedEngine = new OpenAiEngine({ ...connection, ...(target.apiKey ? { apiKey: target.apiKey } : {}), baseUrl: target.baseUrl, model: target.model, mode, fetch: resendingFetch, ...(served.contextWindowSize !== undefined ? { contextWindowSize: served.contextWindowSize } : {}), constrain: constraints.includes(true), ...(llamaCpp ? { llamaCpp } : {}) });
      // Keep-alive comments are not tokens: a case with none for this long fails, and the run goes on.
      const withDeadline = withTokenDeadline(servedEngine, idleTimeoutSeconds * 1000);
      // Stated in the file's settings and counted in the timing table: a looping reply stops there.
      return options["stop-repetition"] ? withRepetitionStop(withDeadline) : withDeadline;
    });

    const jobs = planJobs({ cases, mode, protocols: protocolNames, constrained: constraints, repeats: 1 });
    const valuesAsText = new Map(protocolNames.map((name) => [name, readsValuesAsText(getProtocol(name)!)]));
    const planned = new Set(jobs.map((job) => job.key));
    const keyOf = (r: EvalResult) => jobKey({ id: r.id, protocol: r.protocol, mode: r.mode, constrained: r.constrained, repeat: r.repeat });
    // Only the previous results this run would make again: a file from other settings is not mixed in.
    const results: EvalResult[] = (previous?.results ?? []).filter((r) => planned.has(keyOf(r)));
    const done = new Set(results.map(keyOf));
    if (previous) io.stderr(`eval: resuming ${out}: ${done.size} of ${jobs.length} cases already done.\n`);
    const sessionTimings = new Map<string, CaseTiming>();
    const startedAt = performance.now();
    const cpuAtStart = serverCpuSeconds();
    const runInfo = (): RunInfo => {
      const durationSeconds = (previous?.run?.durationSeconds ?? 0) + (performance.now() - startedAt) / 1000;
      const cpuNow = serverCpuSeconds();
      // The server's CPU time while this run's cases ran (its start-up left out), added to the earlier sessions'.
      const cpuSeconds = where.llamaCpp && cpuNow !== undefined && cpuAtStart !== undefined ? totalCpuSeconds(done.size > 0 ? previous?.run : undefined, cpuNow - cpuAtStart) : undefined;
      return {
        date: previous?.run?.date ?? new Date(Date.now() - (performance.now() - startedAt)).toISOString(),
        machine: machineInfo(),
        ...where,
        ...(where.llamaCpp && cpuSeconds !== undefined ? { llamaCpp: { ...where.llamaCpp, cpuSeconds: Math.round(cpuSeconds * 10) / 10 } } : {}),
        settings,
        durationSeconds: Math.round(durationSeconds * 10) / 10,
        casesPerSecond: durationSeconds > 0 ? Math.round((results.length / durationSeconds) * 1000) / 1000 : 0,
      };
    };
    // Written whole to a side file and renamed: a run killed mid-write leaves the previous file intact.
    const save = () => {
      writeFileSync(`${out}.partial`, resultsFileText(toResultsFile(results, runInfo())));
      renameSync(`${out}.partial`, out);
    };
    const progress = progressLine(jobs.length - done.size, io);
    const resumedCount = results.length;
    const controller = new AbortController();
    // Each case in flight listens to this signal (16 at --concurrency 16): not a leak.
    setMaxListeners(0, controller.signal);
    io.signal?.addEventListener("abort", () => controller.abort(), { once: true });
    io.stderr(`eval: ${jobs.length} cases (${cases.length} questions × ${mode === "native" ? "native" : protocolNames.join(", ")}${constraintText ? `, ${constraintText}` : ""}) against ${model}${templateName ? ` (template ${templateName})` : ""}, ${concurrency} at a time\n`);
    await runJobs({
      jobs,
      concurrency,
      signal: controller.signal,
      done,
      // A case's free and constrained runs send one prompt: the second, sent on the same
      // connection once the first is done, finds it in the server's prompt cache (llama.cpp).
      together: samePrompt,
      run: async (job, signal, worker) => {
        const protocol = getProtocol(job.protocol === "native" ? "hermes" : job.protocol)!;
        try {
          const run = await runEvalCase({
            engine: engines[worker % engines.length]!,
            mode,
            protocol,
            testCase: job.testCase,
            constrained: job.constrained,
            repeat: job.repeat,
            ...(template ? { template } : {}),
            generation: { maxTokens, temperature },
            signal,
            valuesAsText: valuesAsText.get(job.protocol) ?? false,
          });
          if (run) sessionTimings.set(keyOf(run.result), caseTiming(run.events));
          // The step's log goes into the file with its verdict: the case opens in the debugger.
          return run ? { ...run.result, ...(options["no-logs"] ? {} : caseLogOf(run.events)) } : undefined;
        } catch (error) {
          return failedResult(job, error instanceof Error ? error.message : String(error));
        }
      },
      onDone: (_job, result) => {
        results.push(result);
        save();
        progress.update(results.slice(resumedCount));
      },
    });
    progress.end();

    save();
    io.stdout(`${matrixTable(results)}\n`);
    const info = runInfo();
    // This session's cases from their events (also under --no-logs), resumed ones from their logs.
    const timed = [...timedResults(results.filter((r) => !sessionTimings.has(keyOf(r)))), ...results.flatMap((result) => {
      const timing = sessionTimings.get(keyOf(result));
      return timing ? [{ result, timing }] : [];
    })];
    io.stdout(`\n${timingTable(timed)}\n`);
    const cpu = info.llamaCpp?.cpuSeconds;
    const cpuText = cpu !== undefined && results.length > 0 ? `; llama-server used ${cpu} CPU-seconds (${(cpu / results.length).toFixed(2)} a case)` : "";
    // A resumed run's figures add up its sessions; this session's own say how fast this setup went.
    const sessionCases = results.length - resumedCount;
    const sessionSeconds = (performance.now() - startedAt) / 1000;
    const sessionText = previous && sessionCases > 0 ? ` (this session: ${sessionCases} case${sessionCases === 1 ? "" : "s"} in ${sessionSeconds.toFixed(1)}s, ${(sessionCases / sessionSeconds).toFixed(3)} cases/s)` : "";
    io.stderr(`eval: ${results.length} cases in ${info.durationSeconds}s (${info.casesPerSecond} cases/s)${cpuText}${sessionText}\n`);
    const failedToRun = results.filter((r) => r.reason.startsWith("the case failed to run"));
    if (failedToRun.length > 0) io.stderr(`eval: ${failedToRun.length} of ${results.length} cases failed to run; the first: ${failedToRun[0]!.id}: ${failedToRun[0]!.reason}\n`);
    const unconstrained = results.find((r) => r.unconstrained);
    if (unconstrained) io.stderr(`eval: constrained decoding could not be used for some cases: ${unconstrained.unconstrained}\n`);
    const logged = results.filter((r) => r.log).length;
    io.stderr(`eval: results written to ${out} (${fileSize(statSync(out).size)}; ${logged} of ${results.length} cases with their step's log)\n`);
    if (controller.signal.aborted) {
      io.stderr(`eval: stopped; ${results.length} of ${jobs.length} cases done (--resume runs the rest).\n`);
      return STOPPED_EXIT_CODE;
    }
    return 0;
  }
}

/**
 * A run's server CPU time, all sessions together: unknown (undefined) when an earlier session
 * whose cases the file keeps did not record its own, rather than counting only this session's.
 */
export function totalCpuSeconds(earlier: RunInfo | undefined, session: number): number | undefined {
  if (!earlier) return session;
  const before = earlier.llamaCpp?.cpuSeconds;
  return before === undefined ? undefined : before + session;
}

function readPrevious(path: string): { results: EvalResult[]; run: RunInfo | undefined } {
  const text = readFileSync(path, "utf8");
  try {
    return { results: readResultsFile(text, categoryOf), run: readRunInfo(text) };
  } catch (error) {
    throw new Error(`--resume: ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** The machine the figures were measured on: a cases/s figure means little without it. */
function machineInfo(): RunInfo["machine"] {
  const cores = cpus();
  return { cpu: cores[0]?.model.trim() ?? "unknown", cores: cores.length, memoryGiB: Math.round(totalmem() / 2 ** 30) };
}

/** Seconds a case may go without a token before it fails (a server sending only keep-alives). */
const DEFAULT_IDLE_TIMEOUT_SECONDS = 120;
/** The exit code of a run stopped before its end (Ctrl-C): 128 + SIGINT, as shells report it. */
const STOPPED_EXIT_CODE = 130;

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive whole number, not "${value}".`);
  return n;
}

async function loadSuite(suite: string, answers: string | undefined): Promise<EvalCase[]> {
  const readPublic = (path: string) => Promise.resolve(readFileSync(join(publicDir, path), "utf8"));
  if (suite === "builtin") return loadBuiltinSuite(BUILTIN_CATEGORIES, readPublic);
  if (isBuiltinCategory(suite)) return loadBuiltinSuite([suite], readPublic);
  const read = (path: string) => {
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      throw new Error(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)} (a suite is a BFCL questions file, "builtin", or one of ${BUILTIN_CATEGORIES.join(", ")}).`, { cause: error });
    }
  };
  const imported = importBfclSuite({ questions: read(suite), ...(answers !== undefined ? { answers: read(answers) } : {}), questionsName: suite, ...(answers !== undefined ? { answersName: answers } : {}) });
  if (!imported.ok) throw new Error(imported.error);
  return imported.cases;
}

/** Done / total, pass rate so far, cases per second, time left: rewritten in place on a terminal, else a line each 10%. */
function progressLine(total: number, io: CommandIo): { update: (results: readonly EvalResult[]) => void; end: () => void } {
  const startedAt = performance.now();
  let lastShown = 0;
  let lastDecile = 0;
  let shownInteractive = false;
  const text = (results: readonly EvalResult[]) => {
    const done = results.length;
    const seconds = (performance.now() - startedAt) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const passed = results.filter((r) => r.pass).length;
    const strict = results.filter((r) => r.strictPass).length;
    const left = rate > 0 ? Math.ceil((total - done) / rate) : 0;
    return `eval: ${done}/${total}  pass ${pct(passed, done)}  strict ${pct(strict, done)}  ${rate.toFixed(1)} cases/s  ${left}s left`;
  };
  return {
    update(results) {
      if (io.interactive) {
        const now = performance.now();
        if (now - lastShown < 100 && results.length < total) return;
        lastShown = now;
        shownInteractive = true;
        io.stderr(`\r${text(results)}\x1b[K`);
        return;
      }
      const decile = Math.floor((results.length / total) * 10);
      if (decile > lastDecile || results.length === total) {
        lastDecile = decile;
        io.stderr(`${text(results)}\n`);
      }
    },
    end() {
      if (shownInteractive) io.stderr("\n");
    },
  };
}

/** A file's size for a person: the logs make results files large enough to watch. */
function fileSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

function pct(k: number, n: number): string {
  return n === 0 ? "–" : `${((k / n) * 100).toFixed(1)}%`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  const code = await runEvalCommand(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    interactive: process.stderr.isTTY === true,
    signal: controller.signal,
  });
  process.exitCode = code;
}
