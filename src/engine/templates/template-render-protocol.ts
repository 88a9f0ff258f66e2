// The messages between the page and the worker that renders a chat template from a file (a
// GGUF's own Jinja template): the page opens the template once, then asks for one render at a
// time. The answering side is plain code (answerTemplateRequest), so the worker and the
// in-process stand-in (Node, tests) answer alike.
import { PromptRenderRefused } from "toolcall-middleware/templates/render-refused.ts";
import { renderWithinBudget, type RenderBudget } from "../cpu/jinja-budget.ts";
import { parseTemplate, type ParsedTemplate } from "../cpu/jinja-tokenize.ts";

export type TemplateRenderRequest =
  | { type: "open"; source: string; what: string; budget: RenderBudget }
  | { type: "render"; id: number; variables: Record<string, unknown> };

export type TemplateRenderAnswer =
  | { type: "opened" }
  | { type: "open-failed"; message: string }
  | { type: "rendered"; id: number; text: string }
  /** Past a bound (time, size, range): the page stops this worker. */
  | { type: "refused"; id: number; message: string }
  /** The template itself failed (raise_exception, an undefined filter…). */
  | { type: "failed"; id: number; message: string };

/** What one answering side holds: the parsed template once opened. */
export interface TemplateRenderSide {
  template?: { parsed: ParsedTemplate; what: string; budget: RenderBudget };
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function answerTemplateRequest(side: TemplateRenderSide, request: TemplateRenderRequest): TemplateRenderAnswer {
  if (request.type === "open") {
    try {
      side.template = { parsed: parseTemplate(request.source), what: request.what, budget: request.budget };
      return { type: "opened" };
    } catch (error) {
      return { type: "open-failed", message: messageOf(error) };
    }
  }
  if (!side.template) return { type: "failed", id: request.id, message: "the template was not opened before it was rendered" };
  const { parsed, what, budget } = side.template;
  try {
    return { type: "rendered", id: request.id, text: renderWithinBudget(parsed, request.variables, budget, what) };
  } catch (error) {
    return error instanceof PromptRenderRefused ? { type: "refused", id: request.id, message: error.message } : { type: "failed", id: request.id, message: messageOf(error) };
  }
}
