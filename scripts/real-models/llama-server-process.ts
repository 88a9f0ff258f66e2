// Starts llama.cpp's llama-server with a model of models/models.json on 127.0.0.1, waits until
// /health says it is ready, and stops it. Used by the vitest tests, the e2e specs, the benchmark and
// `npm run eval -- --llama-server ID`.
//
// The server never outlives the process that started it: it runs under a small shell watchdog that
// reads our end of a pipe and kills the server when that pipe closes — which the kernel does when
// this process ends in any way (an exit, a crash, a SIGKILL of a test worker), not only when our
// exit handlers get to run.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { builtLlamaServer } from "./build-llama-server.mjs";
import { modelPath, readManifest, type ManifestModel } from "./cache-dir.mjs";

export interface LlamaServerOptions {
  /** A model id of models/models.json (e.g. "smollm2-135m-instruct-q4_1"). */
  model: string;
  /** Default: a free port (in LLAMA_SERVER_PORTS, "8521-8529", when set). */
  port?: number;
  /** Context size (-c). Default 4096. */
  contextSize?: number;
  /** Threads (-t). Default 2. */
  threads?: number;
  /**
   * A Jinja chat template file that replaces the GGUF's own (--chat-template-file). Default: the
   * manifest's `chatTemplateFile` for a GGUF without a template (Gemma 3 270M); null: none, so
   * llama-server uses the GGUF's template or its own fallback.
   */
  chatTemplateFile?: string | null;
  /** More flags, as llama-server --help lists them. */
  extraArgs?: string[];
  /** How long loading may take before it is an error. Default 120 s. */
  readyTimeoutMs?: number;
  /** The binary; default: LLAMA_SERVER_BIN, else the build in the per-user cache. */
  binary?: string;
}

export interface LlamaServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The OpenAI-compatible base URL the lab connects to: origin + /v1. */
  baseUrl: string;
  port: number;
  model: ManifestModel;
  modelFile: string;
  /** The template file it renders chats with, when not the GGUF's own. */
  chatTemplateFile: string | undefined;
  /** The server's last log lines (stdout and stderr). */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

export class LlamaServerError extends Error {
  override name = "LlamaServerError";
}

const LOG_LINES_KEPT = 200;

/** The llama-server binary, or a clear error that says how to get it. */
export function llamaServerBinary(): string {
  const fromEnv = process.env.LLAMA_SERVER_BIN;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new LlamaServerError(`LLAMA_SERVER_BIN=${fromEnv} does not exist.`);
    return fromEnv;
  }
  const built = builtLlamaServer();
  if (!built) throw new LlamaServerError("llama-server is not built on this machine: run `npm run llama-server` (about 8 minutes on 2 cores), or set LLAMA_SERVER_BIN.");
  return built;
}

/** A model of the manifest and its GGUF file, or a clear error that says how to fetch it. */
export function manifestModel(id: string): { model: ManifestModel; file: string } {
  const { models } = readManifest();
  const model = models.find((m) => m.id === id);
  if (!model) throw new LlamaServerError(`No model "${id}" in models/models.json (there: ${models.map((m) => m.id).join(", ")}).`);
  const file = modelPath(model);
  if (!existsSync(file)) throw new LlamaServerError(`${model.label} is not in the cache (${file}): run \`npm run models\`.`);
  return { model, file };
}

/** The manifest's template file for a model whose GGUF has none, as an absolute path. */
export function manifestTemplateFile(model: ManifestModel): string | undefined {
  return model.chatTemplateFile ? fileURLToPath(new URL(`../../${model.chatTemplateFile}`, import.meta.url)) : undefined;
}

/** What a test needs before it starts a server: undefined when all is there, else why not. */
export function llamaServerMissing(modelIds: string[]): string | undefined {
  try {
    llamaServerBinary();
    for (const id of modelIds) manifestModel(id);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host: "127.0.0.1", exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen({ port: 0, host: "127.0.0.1", exclusive: true }, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A free port: the first free one of LLAMA_SERVER_PORTS ("8521-8529") when set, else any. */
export async function freePort(): Promise<number> {
  const range = process.env.LLAMA_SERVER_PORTS?.match(/^(\d+)-(\d+)$/);
  if (range) {
    for (let port = Number(range[1]); port <= Number(range[2]); port++) if (await portIsFree(port)) return port;
    throw new LlamaServerError(`No free port in LLAMA_SERVER_PORTS=${process.env.LLAMA_SERVER_PORTS}.`);
  }
  return anyFreePort();
}

// "$0" is the binary, "$@" its flags. fd 3 is our pipe: a background job's stdin would be
// /dev/null, so the watchdog reads fd 3 explicitly; when it reads end of file (we closed it, or
// we are gone) it kills the server. TERM or INT to the shell stops the server too.
const WATCHDOG = `exec 3<&0
"$0" "$@" </dev/null &
server=$!
trap 'kill $server 2>/dev/null' TERM INT
( cat <&3 >/dev/null; kill $server 2>/dev/null ) &
wait $server
status=$?
wait $server 2>/dev/null
exit $status`;

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Stops every server this process started when it exits normally (the watchdog covers the rest). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of running) {
      child.stdin?.destroy();
      child.kill("SIGTERM");
    }
  });
}

export async function startLlamaServer(options: LlamaServerOptions): Promise<LlamaServer> {
  const { model, file } = manifestModel(options.model);
  const binary = options.binary ?? llamaServerBinary();
  const port = options.port ?? (await freePort());
  const chatTemplateFile = options.chatTemplateFile === undefined ? manifestTemplateFile(model) : options.chatTemplateFile;
  const args = [
    "--host", "127.0.0.1",
    "--port", String(port),
    "-m", file,
    "-c", String(options.contextSize ?? 4096),
    "-t", String(options.threads ?? 2),
    "--no-webui",
    // One slot: the prompt cache is then the one a loop's next step reuses.
    "-np", "1",
    ...(chatTemplateFile ? ["--chat-template-file", chatTemplateFile] : []),
    ...(options.extraArgs ?? []),
  ];
  installExitHook();
  const child = spawn("sh", ["-c", WATCHDOG, binary, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  running.add(child);
  const log: string[] = [];
  let partial = "";
  const keep = (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    log.push(...lines);
    if (log.length > LOG_LINES_KEPT) log.splice(0, log.length - LOG_LINES_KEPT);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const logTail = (lines = 20) => [...log, ...(partial ? [partial] : [])].slice(-lines).join("\n");
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      running.delete(child);
      resolve();
    });
  });

  const stop = async () => {
    if (exited) return;
    child.stdin!.end();
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exit;
    clearTimeout(timer);
  };

  const origin = `http://127.0.0.1:${port}`;
  const timeoutMs = options.readyTimeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) {
      throw new LlamaServerError(`llama-server (${model.id}) exited with ${exited.code ?? exited.signal} before it was ready. Its last lines:\n${logTail()}`);
    }
    try {
      const response = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new LlamaServerError(`llama-server (${model.id}) was not ready on ${origin} within ${Math.round(timeoutMs / 1000)} s. Its last lines:\n${logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { origin, baseUrl: `${origin}/v1`, port, model, modelFile: file, chatTemplateFile: chatTemplateFile ?? undefined, logTail, stop };
}
