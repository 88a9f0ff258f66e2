// Loads a GGUF model into llama.cpp in WebAssembly (wllama, imported on demand so the first
// screen's bundle never holds it): from a URL the lab's server serves (or Hugging Face), or from
// a file the person opened. Multi-threaded where the page is cross-origin isolated
// (SharedArrayBuffer exists), single-threaded otherwise.
import { relaxedSimdRuntimeUrl, simdRuntimeUrl } from "virtual:wllama-runtime";
import { countGgufPromptTokens, ggufTextTokenIds, type GgufModelFile } from "../../tokens/gguf/gguf-model-tokenizer.ts";
import { CpuEngine } from "./cpu-engine.ts";
import { gpuOutcome, type GpuOutcome } from "./gpu-offload.ts";
import { relaxedSimdWorks } from "./relaxed-simd.ts";
import type { RuntimeFailure } from "./runtime-failure.ts";
import { RuntimeLog } from "./runtime-log.ts";
import { streamCompletion } from "./stream-completion.ts";
import { measureThreads } from "./thread-probe.ts";

export type CpuModelSource = { kind: "url"; url: string; name: string } | { kind: "file"; file: Blob; name: string };

export interface CpuLoadProgress {
  loadedBytes: number;
  totalBytes: number;
}

export interface LoadedCpuModel {
  engine: CpuEngine;
  /** The GGUF's metadata as llama.cpp read it (string values; arrays abridged). */
  metadata: Record<string, string>;
  /** The GGUF's embedded chat template, if it has one. */
  chatTemplate: string | null;
  contextWindowSize: number;
  threads: number;
  /** How the thread count was chosen by measuring, in words with the figures (absent when it was given). */
  threadChoice?: string;
  /** Layers asked on the GPU (WebGPU) and llama.cpp's own count of those it put there, where asked. */
  gpu?: { asked: number } & GpuOutcome;
  multiThreaded: boolean;
  /** Which of the lab's kernels the runtime runs: relaxed SIMD where the browser has it, SIMD otherwise. */
  kernels: "relaxed SIMD" | "SIMD";
  /** Whether the page is cross-origin isolated (threads possible). */
  isolated: boolean;
  addsBos: boolean;
  /** Where the page reaches the GGUF file (its own tokenizer reads its vocabulary from there). */
  ggufFile: GgufModelFile;
  unload: () => Promise<void>;
}

export interface LoadCpuModelOptions {
  signal?: AbortSignal;
  onProgress?: (progress: CpuLoadProgress) => void;
  /** Layers to put on the GPU through llama.cpp's WebGPU backend (n_gpu_layers; default 0: none). */
  gpuLayers?: number;
  /** Threads to run on (default: chosen by measuring the cores where the page is isolated, thread-probe.ts; 1 otherwise). */
  threads?: number;
  /** The context window asked of llama.cpp (capped at the model's training window). */
  contextSize?: number;
  /** The BOS token's text, where the family knows it (Gemma's `<bos>`): left out of a prompt the runtime prefixes itself. */
  bosText?: string;
  /** Told when the runtime stops working after it loaded (it must be loaded again). */
  onRuntimeFailure?: (failure: RuntimeFailure) => void;
}

/**
 * Prompt tokens llama.cpp reads in one go (n_batch; n_ubatch the same). It reports its progress
 * once per batch, so this sets how often the page can say how far the prompt is read. Against
 * wllama's 2048/512 it costs about 10% of prefill speed (bench:cpu-runtime, docs/cpu-engine.md).
 */
export const CPU_BATCH_TOKENS = 128;

/**
 * The KV cache in f32 and attention as plain matrix products. This WebAssembly build's flash
 * attention reads an f16 cache with scalar half conversions: at a 483-token context it was 51% of a
 * decoded token's time (and `ggml_vec_dot_f16_f32` 16% more), where f32 products are SIMD. With
 * this, decode at that context runs about 2.2× faster, prefill the same, the same greedy text
 * (docs/cpu-engine.md, "Attention"); the cache takes twice the memory (360 MiB at 8,192 tokens
 * for SmolLM2 instead of 180).
 */
export const CPU_ATTENTION = { flash_attn: false, cache_type_k: "f32", cache_type_v: "f32" } as const;

/** A context window large enough for the tool prompts (≈ 1.3k tokens) and several loop steps, small in memory for these models. */
export const DEFAULT_CPU_CONTEXT = 8192;

/** The most threads the page may run on: its cores (8 at most) where it is isolated, else 1. */
export function maxThreads(): number {
  const cores = globalThis.navigator?.hardwareConcurrency || 1;
  return globalThis.crossOriginIsolated ? Math.max(1, Math.min(cores, 8)) : 1;
}

export async function loadCpuModel(source: CpuModelSource, options: LoadCpuModelOptions = {}): Promise<LoadedCpuModel> {
  const { Wllama, LogLevel } = await import("@wllama/wllama");
  // llama.cpp's own warnings and errors are kept (bounded) for a failure's message, never printed.
  const runtimeLog = new RuntimeLog();
  const kernels = relaxedSimdWorks() ? "relaxed SIMD" : "SIMD";
  const gpuLayers = options.gpuLayers ?? 0;
  // With layers asked on the GPU, llama.cpp's information lines are read for its count of those it put there.
  const loadLines: string[] = [];
  const logger = gpuLayers > 0 ? { ...runtimeLog.logger, debug: (...args: unknown[]) => void (loadLines.length < 400 && loadLines.push(args.map(String).join(" ").slice(0, 300))) } : runtimeLog.logger;
  const wllama = new Wllama({ default: kernels === "relaxed SIMD" ? relaxedSimdRuntimeUrl : simdRuntimeUrl }, { suppressNativeLog: false, logger, allowOffline: false });
  const choice = options.threads === undefined && maxThreads() > 1 ? await measureThreads(maxThreads()) : undefined;
  options.signal?.throwIfAborted();
  const threads = options.threads ?? choice?.threads ?? 1;
  const params = { n_ctx: options.contextSize ?? DEFAULT_CPU_CONTEXT, n_threads: threads, n_parallel: 1, n_gpu_layers: gpuLayers, n_batch: CPU_BATCH_TOKENS, n_ubatch: CPU_BATCH_TOKENS, ...CPU_ATTENTION, log_level: gpuLayers > 0 ? LogLevel.INFO : LogLevel.WARN };
  const exit = () => {
    runtimeLog.markUnloading();
    return wllama.exit();
  };
  const abort = () => void exit().catch(() => undefined);
  options.signal?.addEventListener("abort", abort, { once: true });
  try {
    if (source.kind === "file") {
      options.onProgress?.({ loadedBytes: source.file.size, totalBytes: source.file.size });
      await wllama.loadModel([source.file], params);
    } else {
      await wllama.loadModelFromUrl(source.url, {
        ...params,
        ...(options.signal ? { signal: options.signal } : {}),
        progressCallback: ({ loaded, total }: { loaded: number; total: number }) => options.onProgress?.({ loadedBytes: loaded, totalBytes: total }),
      });
    }
  } catch (error) {
    await exit().catch(() => undefined);
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", abort);
  }
  options.signal?.throwIfAborted();
  const info = wllama.getLoadedContextInfo();
  const contextWindowSize = Math.min(info.n_ctx, info.n_ctx_train || info.n_ctx);
  const bos = { runtimeAddsBos: info.add_bos_token, ...(options.bosText ? { bosText: options.bosText } : {}) };
  // Prompt counts from the GGUF's own vocabulary, read by the lab's tokenizer worker (wllama 3.x has no tokenize).
  const ggufFile: GgufModelFile = source.kind === "url" ? { url: source.url } : { blob: source.file, key: `${source.name}:${source.file.size}` };
  const engine = new CpuEngine({
    countPromptTokens: (prompt) => countGgufPromptTokens(ggufFile, prompt),
    tokenize: (text) => ggufTextTokenIds(ggufFile, text),
    name: `llama.cpp (wasm) ${source.name}`,
    runtime: { complete: (body, signal) => streamCompletion(wllama, body, signal), recentLog: () => runtimeLog.recent() },
    bos,
    contextWindowSize,
    ...(options.onRuntimeFailure ? { onRuntimeFailure: options.onRuntimeFailure } : {}),
  });
  return {
    engine,
    metadata: info.metadata,
    chatTemplate: wllama.getChatTemplate(),
    contextWindowSize,
    threads: wllama.getNumThreads(),
    ...(choice ? { threadChoice: choice.note } : {}),
    ...(gpuLayers > 0 ? { gpu: { asked: gpuLayers, ...gpuOutcome(loadLines) } } : {}),
    multiThreaded: wllama.isMultithread(),
    kernels,
    isolated: Boolean(globalThis.crossOriginIsolated),
    addsBos: info.add_bos_token,
    ggufFile,
    unload: exit,
  };
}
