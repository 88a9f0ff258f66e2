// A protocol derived from a chat template's source (a GGUF's embedded template, a pasted one, a
// .jinja file): the template runs only in the bounded Jinja renderer (jinja-budget.ts), so a
// template that loops, blows up or throws gets "cannot derive: …" and nothing else happens.
import { deriveFormat, type DerivedFormat } from "toolcall-middleware/derive/derive-format.ts";
import { derivedProtocol } from "toolcall-middleware/derive/derived-protocol.ts";
import type { TemplateRenderer } from "toolcall-middleware/derive/probes.ts";
import type { Protocol } from "toolcall-middleware/types.ts";
import { PromptRenderRefused } from "toolcall-middleware/templates/render-refused.ts";
import { renderWithinBudget, TEMPLATE_RENDER_BUDGET, type RenderBudget } from "../cpu/jinja-budget.ts";
import { parseTemplate } from "../cpu/jinja-tokenize.ts";

export type TemplateDerivation =
  | { ok: true; format: DerivedFormat; protocol: Protocol; render: TemplateRenderer }
  | { ok: false; reason: string };

/**
 * The template's renderer, bounded; throws "not valid Jinja" for a source that does not parse.
 * Calls' arguments go in as transformers gives them (an object); a template that cannot take
 * them so (functionary v3.2 writes `'\n' + arguments`) gets them as OpenAI's API gives them
 * (JSON text), as llama.cpp decides per template: the first render with calls settles which.
 */
export function boundedTemplateRenderer(source: string, what: string, budget: RenderBudget = TEMPLATE_RENDER_BUDGET): TemplateRenderer {
  const template = parseTemplate(source);
  const render: TemplateRenderer = (variables) => renderWithinBudget(template, variables, budget, what);
  let argumentsAsText: boolean | undefined;
  return (variables) => {
    const asText = withArgumentsAsText(variables);
    if (asText === undefined) return render(variables);
    if (argumentsAsText === true) return render(asText);
    if (argumentsAsText === false) return render(variables);
    try {
      const text = render(variables);
      argumentsAsText = false;
      return text;
    } catch (error) {
      // A render stopped by its bounds is not retried.
      if (error instanceof PromptRenderRefused) throw error;
      let text: string;
      try {
        text = render(asText);
      } catch {
        throw error;
      }
      argumentsAsText = true;
      return text;
    }
  };
}

/** `variables` with every call's object arguments as JSON text, or undefined when no call has object arguments. */
function withArgumentsAsText(variables: Record<string, unknown>): Record<string, unknown> | undefined {
  const messages = variables.messages;
  if (!Array.isArray(messages)) return undefined;
  let changed = false;
  const converted = messages.map((message: unknown) => {
    const calls = (message as { tool_calls?: unknown } | null)?.tool_calls;
    if (!Array.isArray(calls)) return message;
    return {
      ...(message as Record<string, unknown>),
      tool_calls: calls.map((call: unknown) => {
        const fn = (call as { function?: { arguments?: unknown } } | null)?.function;
        if (fn === undefined || fn === null || typeof fn.arguments !== "object" || fn.arguments === null) return call;
        changed = true;
        return { ...(call as Record<string, unknown>), function: { ...fn, arguments: JSON.stringify(fn.arguments) } };
      }),
    };
  });
  return changed ? { ...variables, messages: converted } : undefined;
}

/** Derives the protocol of `source`; `name` becomes the protocol's name (`template:<name>`). */
export function deriveFromTemplate(source: string, name: string, budget: RenderBudget = TEMPLATE_RENDER_BUDGET): TemplateDerivation {
  if (source.trim() === "") return { ok: false, reason: "cannot derive: the template is empty" };
  let render: TemplateRenderer;
  try {
    render = boundedTemplateRenderer(source, `The chat template ${name}`, budget);
  } catch (error) {
    return { ok: false, reason: `cannot derive: the template is not valid Jinja: ${error instanceof Error ? error.message : String(error)}` };
  }
  const derived = deriveFormat(render);
  if (!derived.ok) return derived;
  return { ok: true, format: derived.format, render, protocol: derivedProtocol(derived.format, { name: `template:${name}`, label: `Derived from ${name}`, render }) };
}
