// The Web Worker that hosts WebLLM: model download, WebGPU and generation all happen here, so
// the page never blocks on the model — and it is the only place WebLLM's library is loaded.
import { LabWorkerHandler } from "./lab-worker-handler.ts";

const handler = new LabWorkerHandler();
self.onmessage = (event: MessageEvent) => {
  handler.onmessage(event);
};
