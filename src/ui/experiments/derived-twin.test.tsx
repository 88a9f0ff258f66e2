// Parse as… the format derived from the step's own model template: the step keeps the template it
// recorded, and the panel says it is deriving, why it cannot, or shows the derived format's words
// above the two readings side by side. (The derivation and the re-read themselves:
// src/store/derived-protocols.test.ts and src/experiments/reparse.test.ts; in the page with the real
// SmolLM2: e2e/derived-twin.spec.ts.)
import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { describeDerivedFormat } from "toolcall-middleware/derive/describe-format.ts";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { deriveFromTemplate } from "../../engine/templates/derived-from-template.ts";
import { toolCallRun } from "../../store/test-events.ts";
import { buildSteps, latestStep } from "../debugger/build-steps.ts";
import { DerivedTwinView, twinProtocolName } from "./ReparsePanel.tsx";
import { StepExperiments } from "./StepExperiments.tsx";
import { createLabStores } from "../../app/lab-stores.ts";
import { LabStoresProvider } from "../../app/lab-stores-context.tsx";

const QWEN = readFileSync(new URL("../../engine/templates/llama-cpp-templates/Qwen-Qwen2.5-7B-Instruct.jinja", import.meta.url), "utf8");

/** A recorded turn whose step-starts carry the model's own template (or not: an older log). */
function stepOf(modelChatTemplate?: string) {
  const events = toolCallRun("r1", [{ role: "user", content: "2+2?" }]).map((event): LoopEvent => (event.type === "step-start" && modelChatTemplate !== undefined ? { ...event, modelChatTemplate } : event));
  return latestStep(buildSteps(events))!;
}

describe("a step read by the format derived from its template", () => {
  it("the step keeps the template its step-start recorded; an older log's step has none", () => {
    expect(stepOf(QWEN).modelChatTemplate).toBe(QWEN);
    expect(stepOf().modelChatTemplate).toBeUndefined();
  });

  it("Parse as… offers it first, beside the registered protocols, only to a step that recorded its model's template", () => {
    const parseAs = (step: ReturnType<typeof stepOf>) => {
      const steps = buildSteps(toolCallRun("r1", [{ role: "user", content: "2+2?" }]));
      const html = renderToStaticMarkup(createElement(LabStoresProvider, { stores: createLabStores() }, createElement(StepExperiments, { step, run: undefined, model: steps, tools: [] })));
      return html.slice(html.indexOf('data-testid="reparse-protocol"'), html.indexOf("</select>"));
    };
    const offered = parseAs(stepOf(QWEN));
    expect(offered).toMatch(/<option value=""[^>]*>—<\/option><option value="derived from its template"[^>]*>the format derived from its template<\/option><option value="[^"]+">/);
    expect(offered).toContain('<option value="hermes">');
    expect(parseAs(stepOf())).not.toContain("the format derived from its template");
  });

  it("is named after the file where the step ran on a GGUF's own template, else the model's own", () => {
    expect(twinProtocolName({ template: "gguf:granite.gguf" })).toBe("template:granite.gguf");
    expect(twinProtocolName({ template: "chatml" })).toBe("template:the model's own");
  });

  it("while the worker derives, says so", () => {
    const html = renderToStaticMarkup(createElement(DerivedTwinView, { step: stepOf(QWEN), tools: [], strict: false, twin: null }));
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain("Deriving the call format from the model&#x27;s own chat template…");
  });

  it("a template that cannot be derived says why, in the panel alone", () => {
    const html = renderToStaticMarkup(createElement(DerivedTwinView, { step: stepOf(QWEN), tools: [], strict: false, twin: { ok: false, reason: "cannot derive: the template writes nothing for a tool call (it has no tool calls)" } }));
    expect(html).toContain('data-testid="derived-twin-failure"');
    expect(html).toContain("gives no format to read this step with: cannot derive: the template writes nothing for a tool call (it has no tool calls)");
    expect(html).not.toContain("derived-twin-words");
  });

  it("derived, shows the format's words and markers, then reads the output by it beside the recorded protocol", () => {
    const derivation = deriveFromTemplate(QWEN, "qwen");
    if (!derivation.ok) throw new Error(derivation.reason);
    const twin = { ok: true as const, format: derivation.format, lines: describeDerivedFormat(derivation.format) };
    const step = stepOf(QWEN);
    const html = renderToStaticMarkup(createElement(DerivedTwinView, { step, tools: [], strict: false, twin }));
    expect(html).toContain(`The format derived from the model&#x27;s own chat template (<code class="mono">template:the model&#x27;s own</code>), read beside the recorded ${step.protocol}:`);
    expect(html).toContain('<li><span>A call is </span><code class="mono">&lt;tool_call&gt;</code><span> + JSON {name, arguments} + </span><code class="mono">&lt;/tool_call&gt;</code><span>.</span></li>');
    // The re-read itself runs in its worker once the page is live: until then it says what it reads as.
    expect(html).toContain("Reading the output again as template:the model&#x27;s own");
  });
});
