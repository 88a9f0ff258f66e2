// What came of a branch, from what its step recorded (its parser's events and how it ended): a
// valid call (the parser read it and checked its arguments against the tool's schema), a call
// that failed (the parser's error says why), or no call. A forced branch is labelled with it.
import type { ParseEvent, StepStatus } from "toolcall-middleware/types.ts";

export type BranchOutcome =
  | { kind: "call"; calls: Array<{ name: string; arguments: Record<string, unknown> }> }
  | { kind: "invalid"; why: string }
  | { kind: "no-call" }
  | { kind: "unfinished"; status: string };

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function branchOutcome(events: readonly ParseEvent[], status: StepStatus | string): BranchOutcome {
  if (status === "running") return { kind: "unfinished", status };
  const calls = events.flatMap((e) => (e.type === "tool-call-end" ? [{ name: e.call.name, arguments: e.call.arguments }] : []));
  const error = events.find((e): e is Extract<ParseEvent, { type: "parse-error" }> => e.type === "parse-error");
  if (calls.length > 0) return { kind: "call", calls };
  if (error) return { kind: "invalid", why: `${error.kind}: ${error.message}` };
  if (events.some((e) => e.type === "tool-call-start")) return { kind: "invalid", why: status === "cut-off" ? "the call was cut off before it closed" : "the call opened but never closed" };
  if (status === "aborted" || status === "engine-error") return { kind: "unfinished", status };
  return { kind: "no-call" };
}

/** The outcome in words: "a valid call: get_weather({"city":"Paris"})". */
export function describeOutcome(outcome: BranchOutcome): string {
  switch (outcome.kind) {
    case "call":
      return `${outcome.calls.length === 1 ? "a valid call" : `${outcome.calls.length} valid calls`}: ${outcome.calls.map((c) => `${c.name}(${clip(JSON.stringify(c.arguments), 80)})`).join(", ")}`;
    case "invalid":
      return `a call that failed validation (${clip(outcome.why, 160)})`;
    case "no-call":
      return "no call";
    case "unfinished":
      return outcome.status === "running" ? "still generating" : `no outcome (${outcome.status})`;
  }
}

/** A short tag for the timeline: "call get_weather", "invalid call", "no call". */
export function outcomeTag(outcome: BranchOutcome): string {
  switch (outcome.kind) {
    case "call":
      return `call ${outcome.calls.map((c) => c.name).join(", ")}`;
    case "invalid":
      return "invalid call";
    case "no-call":
      return "no call";
    case "unfinished":
      return outcome.status;
  }
}
