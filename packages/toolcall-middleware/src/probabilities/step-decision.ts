// A recorded step's decision point, from its events alone: its raw output, its tokens, where its
// calls opened (the parse events recorded) and its protocol's opening markers.
import { getProtocol } from "../protocols/registry.ts";
import type { LoopEvent, ToolSpec } from "../types.ts";
import { findDecisionPoint, type DecisionPoint } from "./decision-point.ts";
import { openingMarkers } from "./opening-markers.ts";
import { stepTokens } from "./step-tokens.ts";

export function stepDecisionPoint(events: readonly LoopEvent[], runId: string, stepId: string): DecisionPoint {
  let output = "";
  let protocolName: string | undefined;
  let tools: ToolSpec[] = [];
  let recording: Extract<LoopEvent, { type: "step-start" }>["probabilities"];
  const callStarts: number[] = [];
  let probe: Extract<LoopEvent, { type: "step-end" }>["openerProbe"];
  for (const event of events) {
    if (event.runId !== runId) continue;
    if (event.type === "run-start") tools = event.tools;
    else if (event.type === "step-start" && event.stepId === stepId) {
      protocolName = event.protocol;
      recording = event.probabilities;
    } else if (event.type === "output-delta" && event.stepId === stepId) {
      // Deltas append; one written over earlier output (none today) replaces that part.
      output = event.offset === output.length ? output + event.text : output.slice(0, event.offset) + event.text + output.slice(event.offset + event.text.length);
    }
    else if (event.type === "parse" && event.stepId === stepId && event.event.type === "tool-call-start") callStarts.push(event.event.span.start);
    else if (event.type === "step-end" && event.stepId === stepId && event.openerProbe) probe = event.openerProbe;
  }
  if (recording?.unsupported) return { kind: "unknown", reason: recording.unsupported };
  if (recording?.topK === 0) return { kind: "unknown", reason: "This step did not ask for token probabilities." };
  const protocol = protocolName ? getProtocol(protocolName) : undefined;
  const markers = protocol ? openingMarkers(protocol, tools) : [];
  return findDecisionPoint({ output, tokens: stepTokens(events, runId, stepId), callStarts, markers, ...(probe ? { probe } : {}) });
}
