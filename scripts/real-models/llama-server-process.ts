// Starts llama.cpp's llama-server with one of the manifest's models on 127.0.0.1, waits until it
// is ready, and stops it again. Used by unit tests, end-to-end specs, `npm run eval` and the
// benchmarks; the binary and the models come from the per-user cache (`npm run llama-server`,
// `npm run models`), never from the network here.
//
// The server never outlives the process that started it: it runs under a small shell watchdog
// that reads our end of a pipe and kills the server when that pipe closes — which the kernel does
// when this process ends in any way (an exit, a crash, a SIGKILL of a test worker or a timed-out
// Playwright run), not only when an exit handler gets to run.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { cachedModelProblem, modelPath, readManifest, type ManifestModel } from "./cache-dir.mjs";
import { findLlamaServer, type LlamaServerBuild } from "./build-llama-server.mjs";

export interface LlamaServerOptions {
  /** A model id of models/models.json. */
  modelId: string;
  /** A fixed port; a free one is picked when absent. */
  port?: number;
  /** Context window of each slot in tokens (default 4096): llama-server's `-c` is this times the slots. */
  contextSize?: number;
  threads?: number;
  /** Parallel slots (`-np`). */
  parallel?: number;
  /**
   * A Jinja chat template file that replaces the GGUF's own (`--chat-template-file`). Default: the
   * manifest's `chatTemplateFile` for a GGUF without a template (Gemma 3 270M); null: none, so
   * llama-server renders with the GGUF's template, or its own fallback (ChatML) where there is none.
   */
  chatTemplateFile?: string | null;
  /** More flags, as `llama-server --help` lists them. */
  extraArgs?: string[];
  /** How long loading may take before the start is given up (ms). */
  readyTimeoutMs?: number;
}

export interface LlamaServer {
  /** e.g. http://127.0.0.1:8521 (no trailing slash): llama.cpp's own endpoints (/props, /tokenize, /apply-template). */
  url: string;
  /** The OpenAI-compatible base URL the lab connects to: url + /v1. */
  baseUrl: string;
  /**
   * The key every request but /health must carry (`Authorization: Bearer <key>`), random for each
   * start: llama-server answers any Origin with credentials allowed, so without a key any page open
   * in a browser on this machine could use the server while a test runs (docs/security.md).
   */
  apiKey: string;
  /** `{ Authorization: "Bearer <apiKey>" }`, for a request made by hand. */
  headers: Record<string, string>;
  port: number;
  model: ManifestModel;
  modelFile: string;
  /** The chat template file it renders chats with, when not the GGUF's own. */
  chatTemplateFile: string | undefined;
  build: LlamaServerBuild;
  /** The last lines the server wrote, for error messages. */
  logTail: () => string;
  /**
   * CPU time the server process has used so far (user + system, seconds), where the system says
   * (Linux /proc); undefined elsewhere. Unlike wall time it hardly depends on what else the
   * machine runs: how much work a run is, beside how long it took.
   */
  cpuSeconds: () => number | undefined;
  /** The threads it runs with (`-t`). */
  threads: number;
  /** How OpenMP threads wait between jobs (the server's OMP_WAIT_POLICY): it changes speed threefold (docs/llama-server.md). */
  waitPolicy: string;
  stop: () => Promise<void>;
}

/** What a real-model test needs, or why it cannot run: the binary and the model files. */
export function realModelsStatus(modelIds?: string[]): { ready: true; build: LlamaServerBuild } | { ready: false; why: string } {
  const build = findLlamaServer();
  if (!build) return { ready: false, why: "llama-server is not built on this machine: run `npm run llama-server`" };
  if (build.untrusted) return { ready: false, why: `the llama-server found is not run: ${build.untrusted}` };
  const { models } = readManifest();
  for (const model of models.filter((m) => !modelIds || modelIds.includes(m.id))) {
    if (!existsSync(modelPath(model))) return { ready: false, why: `model ${model.id} is not in the cache: run \`npm run models\`` };
    // Used only once its sha256 is the manifest's (hashed once per file identity and time).
    const problem = cachedModelProblem(model);
    if (problem) return { ready: false, why: `model ${model.id} in the cache is not the manifest's file (${problem}): run \`npm run models\`` };
  }
  return { ready: true, build };
}

/**
 * Whether real-model tests should run here. In CI a missing binary or model is a failure, never a
 * skip (the tests must really run); elsewhere the test may skip with the reason.
 */
export function realModelsForTests(modelIds?: string[]): { run: true; build: LlamaServerBuild } | { run: false; why: string } {
  const status = realModelsStatus(modelIds);
  if (status.ready) return { run: true, build: status.build };
  if (process.env.CI) throw new Error(`real-model tests must run in CI, but ${status.why}`);
  return { run: false, why: status.why };
}

export function manifestModel(modelId: string): ManifestModel {
  const model = readManifest().models.find((m) => m.id === modelId);
  if (!model) throw new Error(`no model ${modelId} in models/models.json`);
  return model;
}

/** The manifest's template file for a model whose GGUF has none, as an absolute path. */
export function manifestTemplateFile(model: ManifestModel): string | undefined {
  return model.chatTemplateFile ? fileURLToPath(new URL(`../../${model.chatTemplateFile}`, import.meta.url)) : undefined;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host: "127.0.0.1", exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** A free port on 127.0.0.1: the first free one of LLAMA_SERVER_PORTS ("8521-8529") when set, else any. */
export async function freePort(): Promise<number> {
  const range = process.env.LLAMA_SERVER_PORTS?.match(/^(\d+)-(\d+)$/);
  if (range) {
    for (let port = Number(range[1]); port <= Number(range[2]); port++) if (await portIsFree(port)) return port;
    throw new Error(`no free port in LLAMA_SERVER_PORTS=${process.env.LLAMA_SERVER_PORTS}`);
  }
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const LOG_TAIL_LINES = 40;

// "$0" is the binary, "$@" its flags. fd 3 is our pipe: a background job's stdin would be
// /dev/null, so the watchdog reads fd 3 explicitly, and when it reads end of file (we closed it,
// or we are gone) it stops the server. TERM or INT to the shell stops the server too. Stopping
// is TERM, then KILL if the server is still there 5 s later: llama-server can hang in its own
// shutdown (seen once in an eval run: both threads waiting on a futex, no longer listening), and
// a server left behind keeps the stdout it shares with us open, so our process never ends.
// The trap is set before the server starts: a TERM that came after the server was running but
// before the trap (a stop right after start, on a loaded machine) killed the shell alone and left
// the server running (watchdog.test.ts failed so in a CI run beside an eval). A TERM before the
// server's pid is known is remembered and acted on once it is.
export const WATCHDOG = `exec 3<&0
server=
stop_server() {
  [ -n "$server" ] || { stop_asked=1; return 0; }
  kill $server 2>/dev/null
  for i in 1 2 3 4 5 6 7 8 9 10; do
    kill -0 $server 2>/dev/null || return 0
    sleep 0.5
  done
  kill -9 $server 2>/dev/null
}
trap stop_server TERM INT
"$0" "$@" </dev/null &
server=$!
[ -z "$stop_asked" ] || stop_server
( cat <&3 >/dev/null; stop_server ) &
wait $server
status=$?
wait $server 2>/dev/null
exit $status`;

/**
 * Runs `binary args` under the watchdog: it ends with our process however that ends, and a
 * stop (our end of its stdin closed, or TERM to it) becomes KILL after 5 s. Stdio is piped.
 */
export function spawnUnderWatchdog(binary: string, args: readonly string[], env: NodeJS.ProcessEnv, script = WATCHDOG): ChildProcess {
  return spawn("sh", ["-c", script, binary, ...args], { stdio: ["pipe", "pipe", "pipe"], env });
}

// Servers still running when this process exits normally are stopped with it (the watchdog covers
// every other way out): a test that fails between start and stop must not leave one behind.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once("exit", () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const c of running) {
      c.stdin?.destroy();
      c.kill("SIGTERM");
    }
  });
}

export async function startLlamaServer(options: LlamaServerOptions): Promise<LlamaServer> {
  const build = findLlamaServer();
  if (!build) throw new Error("llama-server is not built on this machine: run `npm run llama-server`");
  if (build.untrusted) throw new Error(`the llama-server found is not run: ${build.untrusted}`);
  const model = manifestModel(options.modelId);
  const modelFile = modelPath(model);
  if (!existsSync(modelFile)) throw new Error(`model ${model.id} is not in the cache (${modelFile}): run \`npm run models\``);
  const problem = cachedModelProblem(model);
  if (problem) throw new Error(`model ${model.id} in the cache is not the manifest's file (${problem}): run \`npm run models\``);
  const port = options.port ?? (await freePort());
  const chatTemplateFile = options.chatTemplateFile === undefined ? manifestTemplateFile(model) : (options.chatTemplateFile ?? undefined);
  const threads = options.threads ?? 2;
  const apiKey = randomBytes(24).toString("base64url");
  const args = [
    "--host", "127.0.0.1",
    "--port", String(port),
    "-m", modelFile,
    // llama-server splits -c among its slots: each slot keeps a whole window however many there are.
    "-c", String((options.contextSize ?? 4096) * (options.parallel ?? 1)),
    "-t", String(threads),
    "-np", String(options.parallel ?? 1),
    "--no-webui",
    // Given as an environment variable (LLAMA_API_KEY), not a flag: a flag is readable by any
    // user of the machine in the process list.
    ...(chatTemplateFile ? ["--chat-template-file", chatTemplateFile] : []),
    ...(options.extraArgs ?? []),
  ];
  // OpenMP threads that spin while waiting starve each other on a busy machine (2 cores shared by
  // many processes: SmolLM2 decoded at ~1 token/s with 2 spinning threads, ~35 with passive ones).
  // Passive waiting unless the caller chose otherwise.
  const env = { ...process.env, OMP_WAIT_POLICY: process.env.OMP_WAIT_POLICY ?? "passive", LLAMA_API_KEY: apiKey };
  const child = spawnUnderWatchdog(build.binary, args, env);
  killOnExit(child);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > LOG_TAIL_LINES) lines.shift();
    }
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const logTail = () => lines.join("\n");
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitedPromise = new Promise<void>((resolve) => child.once("exit", (code, signal) => {
    exited = { code, signal };
    resolve();
  }));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (exited) return;
    child.stdin?.end();
    child.kill("SIGTERM");
    // The watchdog turns TERM into KILL after 5 s; a watchdog that is itself stuck goes after 10.
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exitedPromise;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (exited) throw new Error(`llama-server (${model.id}) exited (${exited.code ?? exited.signal}) before it was ready:\n${logTail()}`);
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`llama-server (${model.id}) was not ready within ${Math.round((options.readyTimeoutMs ?? 120_000) / 1000)} s:\n${logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const cpuSeconds = () => (child.pid === undefined ? undefined : childCpuSeconds(child.pid));
  return { url, baseUrl: `${url}/v1`, apiKey, headers: { Authorization: `Bearer ${apiKey}` }, port, model, modelFile, chatTemplateFile, build, logTail, stop, cpuSeconds, threads, waitPolicy: env.OMP_WAIT_POLICY };
}

/** /proc/<pid>/stat's fields after the command name (which may hold spaces and parentheses). */
function procStat(pid: string): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Linux reports /proc times in USER_HZ ticks, 100 a second on every architecture. */
const PROC_TICKS_PER_SECOND = 100;

/** User + system CPU seconds of the watchdog's children (the server itself), from /proc; undefined where there is none. */
function childCpuSeconds(watchdogPid: number): number | undefined {
  let dirs: string[];
  try {
    dirs = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let ticks: number | undefined;
  for (const pid of dirs) {
    const fields = procStat(pid);
    // After the name: state, ppid, …; utime and stime are the 12th and 13th.
    if (!fields || Number(fields[1]) !== watchdogPid) continue;
    ticks = (ticks ?? 0) + Number(fields[11]) + Number(fields[12]);
  }
  return ticks === undefined ? undefined : ticks / PROC_TICKS_PER_SECOND;
}
