// The engine's figures for a step (engine-figures.ts) and, for a constrained step, the structural
// tag it sent, as JSON that can be copied.
import { useState } from "react";
import type { StepView } from "./build-steps.ts";
import { formatConstraint, formatPrefill, formatSpeed } from "./engine-figures.ts";
import { toDisplayJson } from "./format.ts";

export function EngineFigures({ step }: { step: StepView }) {
  const prefill = formatPrefill(step.usage);
  const speed = formatSpeed(step.usage);
  const constraint = step.constraint;
  if (!prefill && !speed && !constraint) return null;
  return (
    <div className="dbg-hint dbg-engine-figures" data-testid="step-engine-figures">
      {prefill && (
        <div data-testid="step-prefill" data-prefilled={step.usage.prefilledTokens} data-reused={step.usage.reusedTokens}>
          {prefill}
        </div>
      )}
      {speed && <div data-testid="step-speed">{speed}</div>}
      {constraint && (
        <div data-testid="step-constraint">
          {formatConstraint(constraint, step.usage)}
          {constraint.structuralTag !== undefined && <StructuralTagView tag={constraint.structuralTag} />}
        </div>
      )}
    </div>
  );
}

function StructuralTagView({ tag }: { tag: unknown }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const json = toDisplayJson(tag);
  return (
    <details className="dbg-structural-tag">
      <summary>The structural tag, as JSON</summary>
      <button
        type="button"
        data-testid="copy-structural-tag"
        onClick={() => {
          navigator.clipboard.writeText(json).then(
            () => setCopied("yes"),
            () => setCopied("failed"),
          );
        }}
      >
        {copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed: select the text" : "Copy JSON"}
      </button>
      <pre className="mono" data-testid="structural-tag-json">
        {json}
      </pre>
    </details>
  );
}
