// A protocol derived from a chat template's source (a GGUF's embedded template, a pasted one, a
// .jinja file): the template runs only in the bounded Jinja renderer (jinja-budget.ts), so a
// template that loops, blows up or throws gets "cannot derive: …" and nothing else happens.
import { Template } from "@huggingface/jinja";
import { deriveFormat, type DerivedFormat } from "toolcall-middleware/derive/derive-format.ts";
import { derivedProtocol } from "toolcall-middleware/derive/derived-protocol.ts";
import type { TemplateRenderer } from "toolcall-middleware/derive/probes.ts";
import type { Protocol } from "toolcall-middleware/types.ts";
import { renderWithinBudget, TEMPLATE_RENDER_BUDGET, type RenderBudget } from "../cpu/jinja-budget.ts";

export type TemplateDerivation =
  | { ok: true; format: DerivedFormat; protocol: Protocol; render: TemplateRenderer }
  | { ok: false; reason: string };

/** The template's renderer, bounded; throws "not valid Jinja" for a source that does not parse. */
export function boundedTemplateRenderer(source: string, what: string, budget: RenderBudget = TEMPLATE_RENDER_BUDGET): TemplateRenderer {
  const template = new Template(source);
  return (variables) => renderWithinBudget(template, variables, budget, what);
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
