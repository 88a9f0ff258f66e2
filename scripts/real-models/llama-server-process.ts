// Starts llama.cpp's llama-server with one of the manifest's models on 127.0.0.1, waits until it
// is ready, and stops it again. Used by unit tests, end-to-end specs, `npm run eval` and the
// benchmarks; the binary and the models come from the per-user cache (`npm run llama-server`,
// `npm run models`), never from the network here.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { modelPath, readManifest, type ManifestModel } from "./cache-dir.mjs";
import { findLlamaServer, type LlamaServerBuild } from "./build-llama-server.mjs";

export interface LlamaServerOptions {
  /** A model id of models/models.json. */
  modelId: string;
  /** A fixed port; a free one is picked when absent. */
  port?: number;
  /** Context window in tokens (llama-server's `-c`). */
  contextSize?: number;
  threads?: number;
  /** Parallel slots (`-np`). */
  parallel?: number;
  /** More flags, e.g. `["--chat-template-file", path]`. */
  extraArgs?: string[];
  /** How long loading may take before the start is given up (ms). */
  readyTimeoutMs?: number;
}

export interface LlamaServer {
  /** e.g. http://127.0.0.1:8521 (no trailing slash). */
  url: string;
  port: number;
  model: ManifestModel;
  modelFile: string;
  build: LlamaServerBuild;
  /** The last lines the server wrote, for error messages. */
  logTail: () => string;
  stop: () => Promise<void>;
}

/** What a real-model test needs, or why it cannot run: the binary and the model files. */
export function realModelsStatus(modelIds?: string[]): { ready: true; build: LlamaServerBuild } | { ready: false; why: string } {
  const build = findLlamaServer();
  if (!build) return { ready: false, why: "llama-server is not built on this machine: run `npm run llama-server`" };
  const { models } = readManifest();
  for (const model of models.filter((m) => !modelIds || modelIds.includes(m.id))) {
    if (!existsSync(modelPath(model))) return { ready: false, why: `model ${model.id} is not in the cache: run \`npm run models\`` };
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

export async function freePort(): Promise<number> {
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

// Servers still running when this process exits are killed with it: a test that fails between
// start and stop must not leave a llama-server behind.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once("exit", () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const c of running) c.kill("SIGKILL");
  });
}

export async function startLlamaServer(options: LlamaServerOptions): Promise<LlamaServer> {
  const build = findLlamaServer();
  if (!build) throw new Error("llama-server is not built on this machine: run `npm run llama-server`");
  const model = manifestModel(options.modelId);
  const modelFile = modelPath(model);
  if (!existsSync(modelFile)) throw new Error(`model ${model.id} is not in the cache (${modelFile}): run \`npm run models\``);
  const port = options.port ?? (await freePort());
  const args = [
    "--host", "127.0.0.1",
    "--port", String(port),
    "-m", modelFile,
    "-c", String(options.contextSize ?? 4096),
    "-t", String(options.threads ?? 2),
    "-np", String(options.parallel ?? 1),
    "--no-webui",
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(build.binary, args, { stdio: ["ignore", "pipe", "pipe"] });
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
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exitedPromise;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (exited) throw new Error(`llama-server (${model.id}) exited (${exited.code ?? exited.signal}) before it was ready:\n${logTail()}`);
    try {
      const response = await fetch(`${url}/health`);
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
  return { url, port, model, modelFile, build, logTail, stop };
}
