// Loads a WebLLM model into a fresh Web Worker, reporting progress; cancelling ends the worker
// (the only way to stop a download in flight), and a new one is made for the next load. The
// page talks to the worker with its own client (worker-client.ts): WebLLM is loaded only there.
import { chatOptionsFor } from "./chat-options.ts";
import { classifyEngineError, errorText, type EngineFailure } from "./engine-errors.ts";
import { readLoadProgress, type LoadProgress } from "./load-progress.ts";
import { createModelWorker } from "./model-worker.ts";
import { WebLlmEngine, type WebLlmEngineOptions } from "./webllm-engine.ts";
import { ModelWorkerClient, WorkerEndedError, WorkerTaskError, type WorkerLike } from "./worker-client.ts";
import { workerCompletions } from "./worker-completions.ts";
import { LAB_MODEL_INFO, type ModelInfo } from "./worker-protocol.ts";

export interface LoadedModel {
  engine: WebLlmEngine;
  modelId: string;
  /** Frees the GPU memory and ends the worker; generations still running fail at once. */
  unload: () => Promise<void>;
}

export interface LoadOptions extends Omit<WebLlmEngineOptions, "contextWindowSize"> {
  onProgress?: (progress: LoadProgress) => void;
  signal?: AbortSignal;
  /** After the load: the worker failed by itself (not ended by the lab). */
  onWorkerFailed?: (failure: EngineFailure) => void;
  /** For tests: how a worker is made. */
  createWorker?: () => WorkerLike;
}

/** How long an unload may take before the worker is ended anyway (a stuck GPU must not hang the pane). */
const UNLOAD_GRACE_MS = 5_000;

export async function loadWebLlmModel(modelId: string, options: LoadOptions = {}): Promise<LoadedModel> {
  const { signal } = options;
  if (signal?.aborted) throw classifyEngineError(new DOMException("Load cancelled", "AbortError"), { phase: "load", modelId });
  let loaded = false;
  let worker: WorkerLike;
  try {
    worker = (options.createWorker ?? createModelWorker)();
  } catch (error) {
    throw classifyEngineError(new Error(`The model worker could not start: ${errorText(error)}`), { phase: "load", modelId });
  }
  const client = new ModelWorkerClient(worker, {
    onProgress: (report) => {
      if (!signal?.aborted) options.onProgress?.(readLoadProgress(report));
    },
    onModelLost: () => {
      if (loaded) options.onDeviceLost?.(classifyEngineError(new Error("Model not loaded: WebLLM unloaded it after the GPU device was lost."), { phase: "generate", modelId }));
    },
    onEnded: (reason) => {
      if (loaded && reason.origin === "failed") options.onWorkerFailed?.(classifyEngineError(reason, { phase: "generate", modelId }));
    },
  });
  const onAbort = () => client.terminate("Load cancelled");
  signal?.addEventListener("abort", onAbort, { once: true });

  try {
    // The lab's conv_template, so that WebLLM's chat path writes the prompt the lab shows.
    const chatOpts = chatOptionsFor(modelId);
    await client.request("reload", { modelId: [modelId], chatOpts: chatOpts ? [chatOpts] : undefined });
    // The context window is read from WebLLM's engine internals; should a WebLLM update move
    // them, the model still loads, only without its window size.
    const info = await client.request<ModelInfo>(LAB_MODEL_INFO, null).catch((error: unknown) => {
      if (error instanceof WorkerTaskError) return { modelId } as ModelInfo;
      throw error;
    });
    const engine = new WebLlmEngine(workerCompletions(client, modelId), modelId, {
      ...(info.contextWindowSize !== undefined ? { contextWindowSize: info.contextWindowSize } : {}),
      ...(options.onDeviceLost ? { onDeviceLost: options.onDeviceLost } : {}),
      ...(options.onQueueChange ? { onQueueChange: options.onQueueChange } : {}),
      chatPath: chatOpts !== undefined,
    });
    loaded = true;
    return {
      engine,
      modelId,
      unload: async () => {
        loaded = false;
        try {
          await Promise.race([client.request("unload", null).catch(() => undefined), delay(UNLOAD_GRACE_MS)]);
        } finally {
          client.terminate("The model was unloaded.");
        }
      },
    };
  } catch (error) {
    client.terminate("The load failed.");
    if (signal?.aborted || (error instanceof WorkerEndedError && error.origin === "ended")) {
      throw classifyEngineError(new DOMException("Load cancelled", "AbortError"), { phase: "load", modelId });
    }
    throw classifyEngineError(error, { phase: "load", modelId });
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
