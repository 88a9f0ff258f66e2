// Makes the Web Worker that hosts WebLLM. The e2e harness swaps in a worker whose model is a
// scripted stand-in (e2e/webllm-harness); the app itself never calls setModelWorkerFactory.
import type { WorkerLike } from "./worker-client.ts";

let factory: () => WorkerLike = () => new Worker(new URL("./worker.ts", import.meta.url), { type: "module", name: "webllm" });

export function createModelWorker(): WorkerLike {
  return factory();
}

/** For test pages only: where model workers come from. */
export function setModelWorkerFactory(create: () => WorkerLike): void {
  factory = create;
}
