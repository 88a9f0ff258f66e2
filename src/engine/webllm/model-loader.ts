// Loads a WebLLM model into a fresh Web Worker, reporting progress; cancelling terminates the
// worker (the only way to stop a download in flight), and a new one is made for the next load.
import {
  CreateWebWorkerMLCEngine,
  deleteModelAllInfoInCache,
  hasModelInCache,
  prebuiltAppConfig,
  type InitProgressReport,
  type WebWorkerMLCEngine,
} from "@mlc-ai/web-llm";
import { classifyEngineError, EngineFailure } from "./engine-errors.ts";
import { readLoadProgress, type LoadProgress } from "./load-progress.ts";
import { WebLlmEngine, type RawCompletionClient, type WebLlmEngineOptions } from "./webllm-engine.ts";

export interface LoadedModel {
  engine: WebLlmEngine;
  modelId: string;
  /** Frees the GPU memory and ends the worker. */
  unload: () => Promise<void>;
}

export interface LoadOptions extends WebLlmEngineOptions {
  onProgress?: (progress: LoadProgress) => void;
  signal?: AbortSignal;
  /** For tests: how a worker is made and how WebLLM's worker client is created over it. */
  createWorker?: () => Worker;
  createClient?: typeof CreateWebWorkerMLCEngine;
}

export function createModelWorker(): Worker {
  return new Worker(new URL("./worker.ts", import.meta.url), { type: "module", name: "webllm" });
}

export async function loadWebLlmModel(modelId: string, options: LoadOptions = {}): Promise<LoadedModel> {
  const { signal } = options;
  if (signal?.aborted) throw classifyEngineError(new DOMException("Load cancelled", "AbortError"), { phase: "load", modelId });
  const worker = (options.createWorker ?? createModelWorker)();
  const create = options.createClient ?? CreateWebWorkerMLCEngine;

  let settle: ((error: unknown) => void) | undefined;
  // A worker that fails to start (script error) or a cancel must end the wait, not hang it.
  const interrupted = new Promise<never>((_, reject) => {
    settle = reject;
  });
  const onWorkerError = (event: ErrorEvent) => {
    settle?.(new Error(`The model worker failed: ${event.message || "script error"}`));
  };
  const onAbort = () => {
    worker.terminate();
    settle?.(new DOMException("Load cancelled", "AbortError"));
  };
  worker.addEventListener("error", onWorkerError);
  signal?.addEventListener("abort", onAbort, { once: true });

  try {
    const client: WebWorkerMLCEngine = await Promise.race([
      create(worker, modelId, {
        appConfig: prebuiltAppConfig,
        initProgressCallback: (report: InitProgressReport) => {
          if (!signal?.aborted) options.onProgress?.(readLoadProgress(report));
        },
      }),
      interrupted,
    ]);
    const engine = new WebLlmEngine(client as unknown as RawCompletionClient, modelId, options);
    return {
      engine,
      modelId,
      unload: async () => {
        try {
          await client.unload();
        } finally {
          worker.terminate();
        }
      },
    };
  } catch (error) {
    worker.terminate();
    throw classifyEngineError(error, { phase: "load", modelId });
  } finally {
    worker.removeEventListener("error", onWorkerError);
    signal?.removeEventListener("abort", onAbort);
    interrupted.catch(() => undefined);
  }
}

/** Whether the model's weights are already in the browser's cache. */
export async function isModelCached(modelId: string): Promise<boolean> {
  try {
    return await hasModelInCache(modelId, prebuiltAppConfig);
  } catch {
    return false;
  }
}

export async function deleteModelFromCache(modelId: string): Promise<void> {
  try {
    await deleteModelAllInfoInCache(modelId, prebuiltAppConfig);
  } catch (error) {
    const failure = classifyEngineError(error, { phase: "load", modelId });
    throw new EngineFailure(failure.kind, `Could not delete "${modelId}" from the cache: ${failure.detail}`, "Clear the site's data in the browser settings instead.", failure.detail);
  }
}
