// Turns whatever WebLLM, the browser or the network threw into a failure a person can act on:
// what went wrong, and what to do about it. The app stays usable after each.

export type EngineFailureKind =
  | "no-webgpu"
  | "no-adapter"
  | "out-of-memory"
  | "device-lost"
  | "download-failed"
  | "storage-quota"
  | "worker-failed"
  | "needs-shader-f16"
  | "context-overflow"
  | "cancelled"
  /** WebLLM unloaded the model by itself (after a lost GPU device); it must be loaded again. */
  | "model-lost"
  /** The lab unloaded the model (or ended its worker) while a generation was running. */
  | "unloaded"
  /** The engine ended a generation with finish reason "abort" that the lab did not ask for. */
  | "interrupted"
  | "unknown";

/**
 * A failure a person can act on. `summary` says what went wrong, `suggestion` what to do; the
 * error's message carries both and the engine's own words (`detail`, which often has WebLLM's
 * own advice), so a step's recorded error text loses none of them.
 */
export class EngineFailure extends Error {
  override name = "EngineFailure";
  constructor(
    readonly kind: EngineFailureKind,
    readonly summary: string,
    readonly suggestion: string,
    readonly detail: string,
  ) {
    super(detail && detail !== summary ? `${summary} ${suggestion} (Engine: ${detail})` : `${summary} ${suggestion}`);
  }
}

export interface FailureContext {
  phase: "load" | "generate";
  modelId?: string;
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === "string") return error;
  if (error && typeof error === "object" && "message" in error) return String((error as { message: unknown }).message);
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

export function classifyEngineError(error: unknown, context: FailureContext): EngineFailure {
  if (error instanceof EngineFailure) return error;
  const detail = errorText(error);
  const model = context.modelId ? `"${context.modelId}"` : "the model";
  // Not the -1k variants: their 1,024-token window cannot hold the tool prompt (model-catalog.ts).
  const smaller =
    "Choose a model with fewer parameters (Qwen3 0.6B or 1.7B need about 1.4–2 GB), close other GPU-heavy tabs, and load again.";

  if (/WorkerEndedError/.test(detail) && context.phase === "generate") {
    const failed = error instanceof Error && "origin" in error && error.origin === "failed";
    return failed
      ? new EngineFailure("worker-failed", "The model worker failed while generating.", "Load the model again; if it keeps failing, reload the page.", detail)
      : new EngineFailure("unloaded", "The model was unloaded while it was generating.", "Load a model and send the message again.", detail);
  }
  if (/ModelNotLoadedError|Model not loaded/i.test(detail)) {
    return new EngineFailure(
      "model-lost",
      `${model} is no longer loaded: WebLLM unloaded it after the GPU device was lost (often out of memory, or the GPU was reset).`,
      `Reload the model; if it happens again: ${smaller}`,
      detail,
    );
  }
  if (/AbortError|aborted|cancel/i.test(detail) && context.phase === "load") {
    return new EngineFailure("cancelled", `Loading ${model} was cancelled.`, "Load it again when you are ready; what was already downloaded stays cached.", detail);
  }
  if (/shader-f16/i.test(detail)) {
    return new EngineFailure(
      "needs-shader-f16",
      `${model} needs the WebGPU feature shader-f16, which this GPU adapter lacks.`,
      "Pick the q4f32 variant of the same model (the model list does this automatically when it knows the adapter).",
      detail,
    );
  }
  if (/exceed context window|context window size/i.test(detail)) {
    return new EngineFailure(
      "context-overflow",
      "The conversation is longer than the model's context window.",
      "Start a new conversation, shorten the system prompt or enable fewer tools, or pick a model with a longer context.",
      detail,
    );
  }
  if (/QuotaExceeded|quota/i.test(detail)) {
    return new EngineFailure(
      "storage-quota",
      `The browser refused to store ${model}: storage quota exceeded.`,
      "Free space by deleting cached models, leave private/incognito mode (it allows very little storage), or pick a smaller model.",
      detail,
    );
  }
  if (/navigator\.gpu|WebGPU is not (supported|available)|WebGPUNotAvailable|WebGPUNotFound|Cannot find WebGPU|no WebGPU/i.test(detail)) {
    return new EngineFailure(
      "no-webgpu",
      "This browser has no WebGPU, so models cannot run here.",
      "Use a recent Chrome or Edge with hardware acceleration on, or use the replay engine.",
      detail,
    );
  }
  if (/Unable to find a compatible GPU|\bno (GPU )?adapter|adapter (is )?(null|unavailable|not found)|requestAdapter\(\) (returned|failed)/i.test(detail)) {
    return new EngineFailure(
      "no-adapter",
      "WebGPU is present but no GPU adapter is available.",
      "Turn on hardware acceleration in the browser settings and update the GPU driver — or use the replay engine.",
      detail,
    );
  }
  if (/device (was )?lost|DeviceLost|GPUDevice.*lost|destroyed/i.test(detail)) {
    return new EngineFailure(
      "device-lost",
      context.phase === "generate" ? "The GPU device was lost while generating (usually out of memory)." : `The GPU device was lost while loading ${model} (usually out of memory).`,
      context.phase === "generate"
        ? `Reload the model; a long conversation also takes GPU memory, so start a new one or lower max tokens. If it happens again: ${smaller}`
        : `Reload the model; if it happens again: ${smaller}`,
      detail,
    );
  }
  if (/out of memory|OutOfMemory|allocation|too large|exceeds.*(limit|memory)|maxStorageBufferBindingSize|maxBufferSize/i.test(detail)) {
    return new EngineFailure("out-of-memory", `Not enough GPU memory for ${model}.`, smaller, detail);
  }
  if (/Failed to fetch|NetworkError|network|Load failed|ERR_|fetch|status(?: code)?:? ?[45]\d\d|\b(403|404|429|5\d\d)\b|Cannot fetch|download/i.test(detail)) {
    return new EngineFailure(
      "download-failed",
      `Could not download ${model}: the network request failed${/\b404\b/.test(detail) ? " (404 not found)" : ""}.`,
      "Check that you are online and that huggingface.co and raw.githubusercontent.com are not blocked (firewall, proxy, ad blocker); then load again. If a broken download keeps failing, delete the model from the cache first. The replay engine works offline.",
      detail,
    );
  }
  if (/worker/i.test(detail)) {
    return new EngineFailure("worker-failed", "The model worker could not start.", "Reload the page; if it persists, use the replay engine.", detail);
  }
  return new EngineFailure(
    "unknown",
    context.phase === "load" ? `Loading ${model} failed.` : "Generation failed.",
    "Try again; if it keeps failing, try a smaller model or the replay engine.",
    detail,
  );
}
