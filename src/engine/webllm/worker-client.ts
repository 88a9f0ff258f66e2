// The page's side of the model worker: sends requests in WebLLM's worker protocol and matches
// the answers. Unlike WebLLM's own client, it never leaves a request hanging: when the worker
// fails (an uncaught error, a message that cannot be read) or is ended, every request still
// waiting is rejected with the reason.
import type { WorkerReplyMessage, WorkerRequestMessage } from "./worker-protocol.ts";
import { LAB_MODEL_LOST } from "./worker-protocol.ts";

/** The part of a Worker the client uses (a test can stand in for it). */
export type WorkerLike = Pick<Worker, "postMessage" | "terminate" | "addEventListener" | "removeEventListener">;

export interface WorkerClientEvents {
  onProgress?: (report: { progress: number; timeElapsed: number; text: string }) => void;
  /** WebLLM unloaded the model by itself (it does so when the GPU device is lost). */
  onModelLost?: (modelIds: string[]) => void;
  /** The worker failed or was ended; `reason` says why. */
  onEnded?: (reason: WorkerEndedError) => void;
}

/** Why a request to the worker could not be answered: the worker is gone. */
export class WorkerEndedError extends Error {
  override name = "WorkerEndedError";
  constructor(
    message: string,
    /** "ended": the lab ended the worker (unload, cancel); "failed": the worker itself failed. */
    readonly origin: "ended" | "failed",
  ) {
    super(message);
  }
}

/** An answer of kind "throw": WebLLM sends the error's text (`err.toString()`). */
export class WorkerTaskError extends Error {
  override name = "WorkerTaskError";
}

type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void };

export class ModelWorkerClient {
  private readonly pending = new Map<string, Pending>();
  private endedBy: WorkerEndedError | null = null;

  constructor(
    private readonly worker: WorkerLike,
    private readonly events: WorkerClientEvents = {},
  ) {
    worker.addEventListener("message", this.onMessage);
    worker.addEventListener("error", this.onError);
    worker.addEventListener("messageerror", this.onMessageError);
  }

  get ended(): WorkerEndedError | null {
    return this.endedBy;
  }

  /** Sends one request and resolves with its answer. */
  request<T = unknown>(kind: string, content: unknown): Promise<T> {
    if (this.endedBy) return Promise.reject(this.endedBy);
    const uuid = crypto.randomUUID();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(uuid, { resolve: resolve as (value: unknown) => void, reject });
      const message: WorkerRequestMessage = { kind, uuid, content };
      this.worker.postMessage(message);
    });
  }

  /** Sends a message that needs no answer to be awaited (its answer is dropped). */
  notify(kind: string, content: unknown): void {
    this.request(kind, content).catch(() => undefined);
  }

  /** Ends the worker; every request still waiting is rejected with `message`. */
  terminate(message = "The model worker was ended."): void {
    this.end(new WorkerEndedError(message, "ended"));
    this.worker.terminate();
  }

  private end(reason: WorkerEndedError): void {
    if (this.endedBy) return;
    this.endedBy = reason;
    this.worker.removeEventListener("message", this.onMessage);
    this.worker.removeEventListener("error", this.onError);
    this.worker.removeEventListener("messageerror", this.onMessageError);
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of waiting) reject(reason);
    this.events.onEnded?.(reason);
  }

  private readonly onMessage = (event: MessageEvent<WorkerReplyMessage>) => {
    const message = event.data;
    if (!message || typeof message !== "object") return;
    switch (message.kind) {
      case "initProgressCallback":
        this.events.onProgress?.(message.content);
        return;
      case LAB_MODEL_LOST:
        this.events.onModelLost?.(message.content.modelIds);
        return;
      case "return":
      case "throw": {
        const waiting = this.pending.get(message.uuid);
        if (!waiting) return;
        this.pending.delete(message.uuid);
        if (message.kind === "return") waiting.resolve(message.content);
        else waiting.reject(new WorkerTaskError(typeof message.content === "string" ? message.content : String(message.content)));
        return;
      }
    }
  };

  private readonly onError = (event: ErrorEvent) => {
    // An error event that reaches the page means the worker script failed; it cannot be trusted
    // to answer anything that is still waiting.
    this.end(new WorkerEndedError(`The model worker failed: ${event.message || "script error"}`, "failed"));
    this.worker.terminate();
  };

  private readonly onMessageError = () => {
    this.end(new WorkerEndedError("The model worker sent a message the page could not read.", "failed"));
    this.worker.terminate();
  };
}
