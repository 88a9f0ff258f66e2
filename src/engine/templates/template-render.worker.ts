// Renders a chat template from a file off the page's thread (template-render-protocol.ts): a
// template that loops or blows up its text holds this worker, never the page, and the page
// stops the worker past its time budget.
import { answerTemplateRequest, type TemplateRenderRequest, type TemplateRenderSide } from "./template-render-protocol.ts";

const side: TemplateRenderSide = {};

self.onmessage = (event: MessageEvent<TemplateRenderRequest>) => {
  self.postMessage(answerTemplateRequest(side, event.data));
};
