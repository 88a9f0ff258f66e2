// The step's decision in words: where the model opened a call (or answered without one) and with
// what probability, and, where its protocol found no call but another format's parser did, that
// the model wrote calls in that format, with those calls.
import { memo, useDeferredValue, useMemo, useState } from "react";
import { useStore } from "zustand";
import { useLabStores } from "../../app/lab-stores-context.tsx";
import { describeDecisionPoint, type DecisionPoint } from "toolcall-middleware/probabilities/decision-point.ts";
import { openerProbability } from "toolcall-middleware/probabilities/opener-probe.ts";
import { describeDrift } from "toolcall-middleware/probabilities/detect-format.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import type { StepView } from "./build-steps.ts";
import { decisionPointOf, driftOf } from "./step-decision.ts";
import { useForceToken, type ForceToken } from "./use-force-token.ts";
import { ProtocolLeanTable } from "./ProtocolLeanTable.tsx";

export const StepDecision = memo(function StepDecision({ step, tools, toolSection }: { step: StepView; tools: readonly ToolSpec[]; toolSection?: string | undefined }) {
  const finished = step.status !== "running";
  const derived = useStore(useLabStores().derivedProtocols, (state) => state.entries[step.protocol]?.protocol);
  const point = useMemo(() => (finished ? decisionPointOf(step, tools, derived) : null), [finished, step, tools, derived]);
  // The drift check runs every protocol's parser over the output's start (tens of ms, more on a
  // loaded machine): it is read at low priority, in a task of its own after the step is drawn,
  // and shown only once it is the drift of the step on screen.
  const checked = useDeferredValue(finished ? step : null);
  const checkedDrift = useMemo(() => (checked ? driftOf(checked, tools) : []), [checked, tools]);
  const drift = checked === step ? checkedDrift : [];
  const force = useForceToken(step, tools);
  if (!point || step.request) return null;
  const words = describeDecisionPoint(point);
  // The runtime's numbers behind the sentence, for tests and tools: the token's place and id, the probe's p.
  const measured = point.kind === "no-call" && point.measured && "at" in point.measured ? openerProbability(point.measured) : undefined;
  const runtime = point.kind === "unknown" ? {} : { "data-token-index": point.token.index, ...(point.token.token.id !== undefined ? { "data-token-id": point.token.token.id } : {}), ...(measured !== undefined ? { "data-opener-p": measured } : {}) };
  const driftWords = describeDrift(drift);
  return (
    <div className="dbg-decision" data-testid="step-decision">
      <p className={point.kind === "unknown" ? "dbg-hint" : undefined} data-testid="decision-point" data-kind={point.kind} {...runtime}>
        <strong>Decision point:</strong> {point.kind === "unknown" ? `not known. ${words}` : `the model ${words}.`}
      </p>
      {!step.branch && point.kind !== "unknown" && <ForceDecision point={point} force={force} />}
      {!step.branch && <ProtocolLeanTable step={step} tools={tools} toolSection={toolSection} />}
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

/** "Force a call here" at a no-call decision point, "Force no call here" at a call's; what the last one did. */
function ForceDecision({ point, force }: { point: Exclude<DecisionPoint, { kind: "unknown" }>; force: ForceToken }) {
  const [constrained, setConstrained] = useState(false);
  const markers = point.kind === "no-call" ? point.markers : [];
  const [marker, setMarker] = useState(markers[0] ?? "");
  const chosen = markers.includes(marker) ? marker : (markers[0] ?? "");
  const canForceCall = point.kind === "no-call" && force.onForceCall && chosen !== "";
  const canForceNoCall = point.kind === "call" && force.onForceNoCall;
  return (
    <div className="dbg-force-decision" data-testid="force-decision">
      {point.kind === "no-call" && chosen !== "" && (
        <>
          <button type="button" disabled={!canForceCall} onClick={() => force.onForceCall?.(point, chosen, constrained)} data-testid="force-call">
            Force a call here
          </button>
          {markers.length > 1 && (
            <select aria-label="Opening marker" value={chosen} onChange={(event) => setMarker(event.target.value)} data-testid="force-call-marker">
              {markers.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          )}
          <label className="dbg-hint">
            <input type="checkbox" checked={constrained} onChange={(event) => setConstrained(event.target.checked)} data-testid="force-call-constrained" /> constrained (a well-formed call)
          </label>
        </>
      )}
      {point.kind === "call" && (
        <button type="button" disabled={!canForceNoCall} onClick={() => force.onForceNoCall?.(point)} data-testid="force-no-call" title="Bans the opener's first token at this position (llama.cpp's logit bias), then generates on">
          Force no call here
        </button>
      )}
      {force.note && <span className="dbg-hint"> {force.note}</span>}
      {force.message && (
        <span className="dbg-hint" role="status" data-testid="force-decision-status">
          {" "}
          {force.message}
        </span>
      )}
      {force.onStop && (
        <button type="button" onClick={force.onStop} data-testid="force-decision-stop" title="Stop (Esc)">
          Stop
        </button>
      )}
    </div>
  );
}
