// The step's decision in words: where the model opened a call (or answered without one) and with
// what probability, and, where its protocol found no call but another format's parser did, that
// the model wrote calls in that format, with those calls.
import { memo, useDeferredValue, useMemo } from "react";
import { describeDecisionPoint } from "toolcall-middleware/probabilities/decision-point.ts";
import { describeDrift } from "toolcall-middleware/probabilities/detect-format.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import type { StepView } from "./build-steps.ts";
import { decisionPointOf, driftOf } from "./step-decision.ts";

export const StepDecision = memo(function StepDecision({ step, tools }: { step: StepView; tools: readonly ToolSpec[] }) {
  const finished = step.status !== "running";
  const point = useMemo(() => (finished ? decisionPointOf(step, tools) : null), [finished, step, tools]);
  // The drift check runs every protocol's parser over the output's start (tens of ms, more on a
  // loaded machine): it is read at low priority, in a task of its own after the step is drawn,
  // and shown only once it is the drift of the step on screen.
  const checked = useDeferredValue(finished ? step : null);
  const checkedDrift = useMemo(() => (checked ? driftOf(checked, tools) : []), [checked, tools]);
  const drift = checked === step ? checkedDrift : [];
  if (!point || step.request) return null;
  const words = describeDecisionPoint(point);
  const driftWords = describeDrift(drift);
  return (
    <div className="dbg-decision" data-testid="step-decision">
      <p className={point.kind === "unknown" ? "dbg-hint" : undefined} data-testid="decision-point" data-kind={point.kind}>
        <strong>Decision point:</strong> {point.kind === "unknown" ? `not known. ${words}` : `the model ${words}.`}
      </p>
      {driftWords && (
        <div className="dbg-step-note" role="status" data-testid="format-drift">
          <p>
            {step.protocol} found no call, but {driftWords}:
          </p>
          <ul>
            {drift.map((format) => (
              <li key={format.protocol} data-protocol={format.protocol}>
                {format.protocol}:{" "}
                {format.calls.map((call, i) => (
                  <code key={i}>
                    {visibleBidi(`${call.name}(${JSON.stringify(call.arguments)})`)}
                    {call.valid ? "" : " (not a valid call here)"}
                    {i < format.calls.length - 1 ? ", " : ""}
                  </code>
                ))}
                {format.more ? " and more" : ""}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
});
