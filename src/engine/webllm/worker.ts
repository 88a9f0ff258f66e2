// The Web Worker that hosts WebLLM: model download, WebGPU and generation all happen here, so
// the page never blocks on the model.
import { WebWorkerMLCEngineHandler } from "@mlc-ai/web-llm";

const handler = new WebWorkerMLCEngineHandler();
self.onmessage = (event: MessageEvent) => {
  handler.onmessage(event);
};
