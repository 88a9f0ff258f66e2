// What the step view says about a step's decision (pure): its decision point from the recorded
// tokens, and format drift (the protocol in use found no call where another protocol's parser did).
import { findDecisionPoint, type DecisionPoint } from "toolcall-middleware/probabilities/decision-point.ts";
import { formatDrift, type DetectedFormat } from "toolcall-middleware/probabilities/detect-format.ts";
import { openingMarkers } from "toolcall-middleware/probabilities/opening-markers.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Protocol, ToolSpec } from "toolcall-middleware/types.ts";
import type { StepView } from "./build-steps.ts";

/** `derived`: the step's protocol where it is not the registry's (derived from a model's own template). */
export function decisionPointOf(step: StepView, tools: readonly ToolSpec[], derived?: Protocol): DecisionPoint {
  if (step.probabilities?.unsupported) return { kind: "unknown", reason: step.probabilities.unsupported };
  if (step.probabilities?.topK === 0) return { kind: "unknown", reason: "This step did not ask for token probabilities." };
  if (step.tokens.length === 0 && step.usage.probabilitiesMissing) return { kind: "unknown", reason: step.usage.probabilitiesMissing };
  if (!step.probabilities && step.tokens.length === 0) return { kind: "unknown", reason: "This step's log records no token probabilities (it was made before the lab recorded them)." };
  const protocol = getProtocol(step.protocol) ?? derived;
  const callStarts = step.parseEvents.flatMap((p) => (p.event.type === "tool-call-start" ? [p.event.span.start] : []));
  return findDecisionPoint({ output: step.rawOutput, tokens: step.tokens, callStarts, markers: protocol ? openingMarkers(protocol, tools) : [], ...(step.openerProbe ? { probe: step.openerProbe } : {}) });
}

/**
 * How much of a step's output the drift check reads. It runs every protocol's parser on the main
 * thread when a step is selected: over a 960 KB reply of `<tool_call>{` that was one task of
 * 2.5–6 s; 64 K characters take tens of ms, and a model that drifted has done so by then.
 */
export const DRIFT_READ_CHARS = 65_536;

/** Other formats' calls in a finished step whose own protocol found none (empty otherwise), from its first DRIFT_READ_CHARS. */
export function driftOf(step: StepView, tools: readonly ToolSpec[]): DetectedFormat[] {
  if (step.status === "running" || step.request) return [];
  if (step.parseEvents.some((p) => p.event.type === "tool-call-start" || p.event.type === "tool-call-end")) return [];
  return formatDrift(step.rawOutput, step.protocol, tools, { maxChars: DRIFT_READ_CHARS });
}
