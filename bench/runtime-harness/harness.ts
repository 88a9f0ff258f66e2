// The CPU engine's runtime with nothing of the lab around it: wllama loaded with the same
// parameters the lab uses, one completion at a time, llama.cpp's own timings returned. The
// benchmark compares these figures with the lab page's and llama-server's, so the cost of the lab
// (its messages, store and drawing on the page's main thread) is told apart from the runtime's.
import { Wllama } from "@wllama/wllama";
import shippedWasmUrl from "@wllama/wllama/esm/wasm/wllama.wasm?url";
import { relaxedSimdRuntimeUrl, simdRuntimeUrl } from "virtual:wllama-runtime";
import { CPU_ATTENTION, CPU_BATCH_TOKENS } from "../../src/engine/cpu/load-cpu-model.ts";
import { CpuEngine } from "../../src/engine/cpu/cpu-engine.ts";
import { streamCompletion } from "../../src/engine/cpu/stream-completion.ts";
import { familyById, familyChatTemplate } from "toolcall-middleware/families/registry.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ExecutableTool, LoopEvent } from "toolcall-middleware/types.ts";
import { forcedBranchOfStepStart, runBranch, type BranchRequest } from "../../src/experiments/branch-run.ts";
import { bosTextOf } from "../../src/engine/cpu/cpu-models.ts";
import { ggufTextTokenIds } from "../../src/tokens/gguf/gguf-model-tokenizer.ts";

interface HarnessLoad { url: string; threads: number; /** "shipped": wllama's own wllama.wasm; "simd": the lab's, with SIMD kernels; "relaxed-simd" (default): with relaxed-SIMD kernels, as the lab loads in this Chromium. */ runtime?: "shipped" | "simd" | "relaxed-simd"; /** Another runtime file to load instead (a benchmark's variant). */ wasmUrl?: string; compat?: { wasm: string; worker: string }; nBatch?: number; nUbatch?: number; /** n_batch and n_ubatch as the lab loads a model (CPU_BATCH_TOKENS) instead of wllama's defaults. */ labBatch?: boolean; contextSize?: number; /** Layers llama.cpp offloads to its WebGPU backend (0: none, the lab's default). */ gpuLayers?: number; /** The KV cache's type (the lab's: f32; llama.cpp's default: f16). */ cacheType?: "f16" | "f32"; /** llama.cpp's flash attention (the lab's: off; llama.cpp's default: on for these models). */ flashAttn?: boolean }
interface HarnessRun { prompt: string; nPredict: number; nProbs?: number; cachePrompt?: boolean; stream?: boolean; grammar?: string; logitBias?: Array<[number, number]> }
/** One generated token as the runtime reported it with n_probs: its text, its bytes, and its alternatives' bytes. */
interface HarnessToken { token: string; bytes?: number[]; top: Array<{ token: string; bytes?: number[] }> }

let wllama: Wllama | null = null;
/** The GGUF's address of the current load (the lab's own tokenizer reads its vocabulary from there). */
let loadedUrl = "";
/** llama.cpp's log lines of the current load that say where the model runs (backends, offloaded layers). */
let deviceLines: string[] = [];
const keep = (...parts: unknown[]) => {
  const line = parts.map(String).join(" ");
  if (/offload|webgpu|buffer size|device|backend/i.test(line) && deviceLines.length < 40) deviceLines.push(line.slice(0, 200));
};
const runtimeLogger = { debug: keep, log: keep, info: keep, warn: keep, error: keep };

async function load(options: HarnessLoad) {
  await wllama?.exit();
  deviceLines = [];
  loadedUrl = options.url;
  wllama = new Wllama({ default: options.wasmUrl ?? (options.runtime === "shipped" ? shippedWasmUrl : options.runtime === "simd" ? simdRuntimeUrl : relaxedSimdRuntimeUrl) }, { suppressNativeLog: false, logger: runtimeLogger, allowOffline: false });
  if (options.compat) {
    // wllama picks its 32-bit, Asyncify build only where JSPI is missing: hide JSPI to measure that build.
    delete (WebAssembly as { Suspending?: unknown }).Suspending;
    wllama.setCompat({ wasm: options.compat.wasm, worker: { code: await (await fetch(options.compat.worker)).text() } });
  }
  const started = performance.now();
  await wllama.loadModelFromUrl(options.url, {
    n_ctx: options.contextSize ?? 8192,
    n_threads: options.threads,
    n_parallel: 1,
    n_gpu_layers: options.gpuLayers ?? 0,
    // The lab's attention settings unless a benchmark asks for others (llama.cpp's defaults: f16, flash attention on).
    ...CPU_ATTENTION,
    ...(options.flashAttn !== undefined ? { flash_attn: options.flashAttn } : {}),
    ...(options.cacheType ? { cache_type_k: options.cacheType, cache_type_v: options.cacheType } : {}),
    ...(options.labBatch ? { n_batch: CPU_BATCH_TOKENS, n_ubatch: CPU_BATCH_TOKENS } : {}),
    ...(options.nBatch ? { n_batch: options.nBatch } : {}),
    ...(options.nUbatch ? { n_ubatch: options.nUbatch } : {}),
  });
  const info = wllama.getLoadedContextInfo();
  return { loadMs: performance.now() - started, threads: wllama.getNumThreads(), multiThread: wllama.isMultithread(), nBatch: info.n_batch, nUbatch: info.n_ubatch, deviceLines };
}

async function run(options: HarnessRun) {
  if (!wllama) throw new Error("load first");
  const body = { prompt: options.prompt, n_predict: options.nPredict, temperature: 0, cache_prompt: options.cachePrompt ?? false, ...(options.nProbs ? { n_probs: options.nProbs } : {}), ...(options.grammar ? { grammar: options.grammar } : {}), ...(options.logitBias ? { logit_bias: options.logitBias } : {}) };
  const started = performance.now();
  let chunks = 0;
  let text = "";
  let timings: Record<string, number> | undefined;
  let firstMs: number | undefined;
  const tokens: HarnessToken[] = [];
  const stream = (await wllama.createCompletion({ ...(body as { prompt: string }), stream: true })) as AsyncIterable<{ choices?: Array<{ text?: string; logprobs?: { content?: HarnessToken[] & Array<{ top_logprobs?: HarnessToken["top"] }> } }>; timings?: Record<string, number> }>;
  for await (const chunk of stream) {
    chunks++;
    if (chunk.timings) timings = chunk.timings;
    for (const entry of chunk.choices?.[0]?.logprobs?.content ?? []) tokens.push({ token: entry.token, bytes: entry.bytes, top: (entry.top_logprobs ?? []).map((t) => ({ token: t.token, bytes: t.bytes })) });
    const piece = chunk.choices?.[0]?.text;
    if (piece) { firstMs ??= performance.now() - started; text += piece; }
  }
  return { wallMs: performance.now() - started, firstMs, chunks, text, timings, tokens };
}

interface LoopStep {
  /** The model's family (its template and stops), the protocol, the message and tools of the step. */
  family: string;
  protocol: string;
  message: string;
  tools: Array<{ name: string; description: string; parameters: Record<string, unknown> }>;
  maxTokens: number;
  /** The markers the probe will ask for and their token ids as the model's tokenizer writes them (asked of llama-server's /tokenize by the caller). */
  markers: Array<{ text: string; ids: number[] }>;
}

/** The lab's own CpuEngine over the loaded runtime, kept for the probe that follows a step. */
let engine: CpuEngine | null = null;

/**
 * One loop step on the lab's CpuEngine (temperature 0, its tokens' probabilities recorded as the
 * Lab records them, no probe); `probe` then asks what the loop asks after a step without a call.
 */
async function loopStep(options: LoopStep) {
  if (!wllama) throw new Error("load first");
  const loaded = wllama;
  const ids = new Map(options.markers.map((m) => [m.text, m.ids]));
  engine = new CpuEngine({
    name: "harness",
    runtime: { complete: (body, signal) => streamCompletion(loaded, body, signal) },
    bos: { runtimeAddsBos: false },
    tokenize: async (text) => {
      const known = ids.get(text);
      if (!known) throw new Error(`no token ids given for ${text}`);
      return [...known];
    },
  });
  const tools: ExecutableTool[] = options.tools.map((t) => ({ ...t, execute: async () => "" }));
  let prompt = "";
  let opened = false;
  let tokens = 0;
  const started = performance.now();
  for await (const event of runToolLoop({ engine, protocol: getProtocol(options.protocol)!, tools, messages: [{ role: "user", content: options.message }], template: familyChatTemplate(familyById(options.family)!), generation: { temperature: 0, maxTokens: options.maxTokens }, maxSteps: 1, probeOpeners: false }) as AsyncIterable<LoopEvent>) {
    if (event.type === "step-start") prompt = event.prompt;
    if (event.type === "tool-start") opened = true;
    if (event.type === "output-delta") tokens += event.tokens?.length ?? 0;
  }
  return { wallMs: performance.now() - started, opened, tokens, prompt };
}

/** The opener probe of each marker on the step's prompt (Engine.probeText, as the loop runs it after the step). */
async function probe(options: { prompt: string; markers: string[] }) {
  if (!engine?.probeText) throw new Error("run a step first");
  const started = performance.now();
  const probes = [];
  for (const marker of options.markers) probes.push(await engine.probeText(options.prompt, marker, new AbortController().signal));
  return { wallMs: performance.now() - started, probes: probes.map((p) => ({ text: p.text, p: p.p, tokens: p.tokens.length, read: p.read })) };
}

type ToolSpec = LoopStep["tools"][number];
const executable = (tools: ToolSpec[]): ExecutableTool[] => tools.map((t) => ({ ...t, execute: async () => "" }));

/**
 * The lab's CpuEngine over the loaded runtime as load-cpu-model.ts makes it: the runtime's own BOS
 * (the GGUF's add_bos_token, the family's BOS text left out of the prompt) and the GGUF's own
 * tokenizer (the lab's tokenizer worker) for the probe's token ids.
 */
function labEngine(bosText: string | undefined): CpuEngine {
  if (!wllama) throw new Error("load first");
  const loaded = wllama;
  const file = { url: loadedUrl };
  return new CpuEngine({
    name: "harness",
    runtime: { complete: (body, signal) => streamCompletion(loaded, body, signal) },
    bos: { runtimeAddsBos: loaded.getLoadedContextInfo().add_bos_token, ...(bosText ? { bosText } : {}) },
    tokenize: (text) => ggufTextTokenIds(file, text),
  });
}

/**
 * One loop step as the Lab runs it on the CPU engine (temperature 0, probabilities recorded, the
 * opener probe after a step without a call), every event returned: a test reads the step's tokens,
 * decision point and probe from them as the debugger does.
 */
async function loopEvents(options: Omit<LoopStep, "markers"> & { grammar?: string }): Promise<LoopEvent[]> {
  const template = familyChatTemplate(familyById(options.family)!);
  engine = labEngine(bosTextOf(template.controlTokens));
  const events: LoopEvent[] = [];
  for await (const event of runToolLoop({ engine, protocol: getProtocol(options.protocol)!, tools: executable(options.tools), messages: [{ role: "user", content: options.message }], template, generation: { temperature: 0, maxTokens: options.maxTokens, seed: 1, ...(options.grammar ? { grammar: options.grammar } : {}) }, maxSteps: 1, runId: "r" })) events.push(event);
  return events;
}

/** A branch of a step (runBranch, as the debugger's force buttons start it) on the engine of the last loopEvents. */
async function branchEvents(options: { start: Extract<LoopEvent, { type: "step-start" }>; tools: ToolSpec[]; forced?: BranchRequest["forced"]; banned?: BranchRequest["banned"]; force?: BranchRequest["force"] }): Promise<LoopEvent[]> {
  if (!engine) throw new Error("run a step first");
  const { start } = options;
  const events: LoopEvent[] = [];
  const request = forcedBranchOfStepStart(start, getProtocol(start.protocol)!, executable(options.tools), options);
  const run = runBranch(request, { engine }, new AbortController().signal);
  for (;;) {
    const next = await run.next();
    if (next.done) break;
    events.push(next.value);
  }
  return events;
}

Object.assign(globalThis, { harness: { load, run, loopStep, probe, loopEvents, branchEvents, isolated: globalThis.crossOriginIsolated } });
