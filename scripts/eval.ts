// `npm run --silent eval -- --base-url <URL ending in /v1> --model <id> --mode prompt|native
//   [--protocols hermes,xml,...] [--constrained] --suite <questions file | builtin | category>
//   [--answers <possible_answer file>] --out <results.json> [--limit N] [--concurrency N]
//   [--template <family>] [--idle-timeout <seconds>]`
// Runs BFCL-style cases against an OpenAI-compatible server with the lab's own suites, scorer and
// middleware (src/eval/): prompt mode renders each prompt with the model's chat template and
// streams /v1/completions; native mode sends the tools to /v1/chat/completions. Writes the
// results file, shows a progress line on stderr while it runs and prints the matrix at the end.
// A case that fails to run is recorded as failed with its reason, and the run goes on.
import { setMaxListeners } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { listModels, OpenAiEngine, type OpenAiMode } from "../src/engine/openai/openai-engine.ts";
import { ServerFailure } from "../src/engine/openai/server-failure.ts";
import { inferServerTemplate, serverChatTemplate, serverTemplateNames, type ServerTemplateName } from "toolcall-middleware/families/server-templates.ts";
import { BUILTIN_CATEGORIES, isBuiltinCategory, loadBuiltinSuite, sampleCases } from "../src/eval/builtin-suite.ts";
import { matrixTable } from "../src/eval/matrix-table.ts";
import { toResultsFile } from "../src/eval/results-file.ts";
import { failedResult, readsValuesAsText, runEvalCase, type EvalResult } from "../src/eval/run-case.ts";
import { planJobs, runJobs } from "../src/eval/run-matrix.ts";
import { importBfclSuite, type EvalCase } from "../src/eval/suite.ts";
import { withTokenDeadline } from "../src/eval/token-deadline.ts";
import { getProtocol, listProtocols } from "toolcall-middleware/protocols/registry.ts";

const USAGE =
  "usage: npm run --silent eval -- --base-url <URL ending in /v1> --model <id> --mode prompt|native [--protocols hermes,xml,...] [--constrained] --suite <questions file | builtin | category> [--answers <file>] --out <results.json> [--limit N] [--concurrency N] [--template <family>] [--idle-timeout <seconds without a token before a case fails; default 120>]";

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
  const baseUrl = required("base-url");
  const model = required("model");
  const mode = required("mode");
  if (mode !== "prompt" && mode !== "native") throw new UsageError(`--mode must be prompt or native, not "${mode}".`);
  const suite = required("suite");
  const out = required("out");
  const limit = positiveInt(options.limit, "--limit");
  const concurrency = positiveInt(options.concurrency, "--concurrency") ?? 4;
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
  if (mode === "native" && options.constrained) io.stderr("eval: native mode: --constrained applies to prompt mode only; ignored.\n");

  // The suite first: a broken line is reported before any request is sent.
  let cases = await loadSuite(suite, options.answers);
  if (limit !== undefined) cases = sampleCases(cases, limit);

  // The server and the model.
  const connection = { baseUrl, ...(options["api-key"] ? { apiKey: options["api-key"] } : {}) };
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
  const servedEngine = new OpenAiEngine({ ...connection, model, mode: mode as OpenAiMode, ...(served.contextWindowSize !== undefined ? { contextWindowSize: served.contextWindowSize } : {}), constrain: Boolean(options.constrained) });
  // Keep-alive comments are not tokens: a case with none for this long fails, and the run goes on.
  const engine = withTokenDeadline(servedEngine, idleTimeoutSeconds * 1000);

  const jobs = planJobs({ cases, mode, protocols: protocolNames, constrained: options.constrained ? [true] : [false], repeats: 1 });
  const valuesAsText = new Map(protocolNames.map((name) => [name, readsValuesAsText(getProtocol(name)!)]));
  const results: EvalResult[] = [];
  const progress = progressLine(jobs.length, io);
  const controller = new AbortController();
  // Each case in flight listens to this signal (16 at --concurrency 16): not a leak.
  setMaxListeners(0, controller.signal);
  io.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  io.stderr(`eval: ${jobs.length} cases (${cases.length} questions × ${mode === "native" ? "native" : protocolNames.join(", ")}${options.constrained ? ", constrained" : ""}) against ${model}${templateName ? ` (template ${templateName})` : ""}, ${concurrency} at a time\n`);
  await runJobs({
    jobs,
    concurrency,
    signal: controller.signal,
    run: async (job, signal) => {
      const protocol = getProtocol(job.protocol === "native" ? "hermes" : job.protocol)!;
      try {
        const run = await runEvalCase({
          engine,
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
        return run?.result;
      } catch (error) {
        return failedResult(job, error instanceof Error ? error.message : String(error));
      }
    },
    onDone: (_job, result) => {
      results.push(result);
      progress.update(results);
    },
  });
  progress.end();

  writeFileSync(out, `${JSON.stringify(toResultsFile(results), null, 2)}\n`);
  io.stdout(`${matrixTable(results)}\n`);
  const failedToRun = results.filter((r) => r.reason.startsWith("the case failed to run"));
  if (failedToRun.length > 0) io.stderr(`eval: ${failedToRun.length} of ${results.length} cases failed to run; the first: ${failedToRun[0]!.id}: ${failedToRun[0]!.reason}\n`);
  const unconstrained = results.find((r) => r.unconstrained);
  if (unconstrained) io.stderr(`eval: constrained decoding could not be used for some cases: ${unconstrained.unconstrained}\n`);
  io.stderr(`eval: results written to ${out}\n`);
  if (controller.signal.aborted) {
    io.stderr(`eval: stopped; ${results.length} of ${jobs.length} cases done.\n`);
    return STOPPED_EXIT_CODE;
  }
  return 0;
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
