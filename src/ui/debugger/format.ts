// Short labels and numbers for the debugger's rows and badges.
import { describeBudget } from "toolcall-middleware/loop/fit-to-context.ts";
import type { ContextBudget, CutOffLimit, EngineUsage, GenerationSettings, ParseEvent } from "toolcall-middleware/types.ts";
import type { StepViewStatus, ToolExecution } from "./build-steps.ts";

export const STEP_STATUS_LABEL: Record<StepViewStatus, string> = {
  final: "final",
  "tool-calls": "tool calls",
  "parse-error": "parse error",
  aborted: "aborted",
  "max-steps": "max steps",
  "engine-error": "engine error",
  "cut-off": "cut off",
  running: "running",
  unfinished: "unfinished",
  interrupted: "interrupted",
};

/** Badge tone: good, neutral, warning or failure. */
export function statusTone(status: StepViewStatus | ToolExecution["status"]): "ok" | "info" | "warn" | "err" | "live" {
  switch (status) {
    case "final":
    case "ok":
      return "ok";
    case "tool-calls":
      return "info";
    case "running":
      return "live";
    case "aborted":
    case "max-steps":
    case "cut-off":
    case "timeout":
    case "unfinished":
    case "interrupted":
      return "warn";
    default:
      return "err";
  }
}

/** Why a cut-off step stopped: "cut off at max tokens (4,096)", "context window full". */
export function describeCutOff(step: { cutOff?: CutOffLimit; settings: GenerationSettings }): string {
  if (step.cutOff === "context-window") return "context window full";
  if (step.cutOff === "output-limit") return "cut off at the lab's limit on one step's output";
  if (step.cutOff === "max-tokens") return `cut off at max tokens${step.settings.maxTokens !== undefined ? ` (${step.settings.maxTokens.toLocaleString("en-US")})` : ""}`;
  return "cut off at a length limit (the engine did not say which)";
}

/** The sampling a step was sent, in one line: "max tokens 4096 · temperature 0.6 · top_p 0.95 · …". */
export function formatSettings(settings: GenerationSettings): string {
  const parts: [string, number | undefined][] = [
    ["max tokens", settings.maxTokens],
    ["temperature", settings.temperature],
    ["top_p", settings.topP],
    ["repetition penalty", settings.repetitionPenalty],
    ["presence penalty", settings.presencePenalty],
    ["frequency penalty", settings.frequencyPenalty],
    ["seed", settings.seed],
  ];
  const shown = parts.filter(([, value]) => value !== undefined).map(([name, value]) => `${name} ${value}`);
  return shown.length > 0 ? shown.join(" · ") : "no generation settings recorded (engine defaults)";
}

/** What the step recorded about fitting max tokens to the context window. */
/**
 * A budget whose cap is unknown, said briefly where the reason is already on screen (the
 * debugger's budget bar, Settings' cap note): the same sentence once, not four times.
 */
export function formatUnknownBudgetBriefly(budget: ContextBudget | undefined): string | null {
  if (budget?.kind !== "unknown") return null;
  return `max tokens ${budget.requested !== undefined ? budget.requested.toLocaleString("en-US") : "(engine default)"} sent as set`;
}

export function formatBudget(budget: ContextBudget | undefined): string {
  return budget ? describeBudget(budget) : "max tokens cap not recorded (this log was made before the lab recorded it)";
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The lab's own count of a step's prompt and output (its tokenizer), where the engine reported none. */
export interface LabTokenCount {
  promptTokens?: number;
  completionTokens?: number;
}

/**
 * "120 in · 30 out" from the engine's usage; where it reported none, the lab's count once it
 * has one, marked as the lab's ("lab: 120 in · 30 out"); else "tokens —".
 */
export function formatTokens(usage: EngineUsage, labCount?: LabTokenCount): string {
  const { promptTokens: p, completionTokens: c } = usage;
  if (p !== undefined || c !== undefined) return `${p ?? "?"} in · ${c ?? "?"} out`;
  const lab = labCount ?? {};
  if (lab.promptTokens === undefined && lab.completionTokens === undefined) return "tokens —";
  return `lab: ${lab.promptTokens ?? "?"} in · ${lab.completionTokens ?? "?"} out`;
}

/** JSON for display: pretty, and never throws (cycles, BigInt) — says what it could not show. */
export function toDisplayJson(value: unknown): string {
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch (error) {
    return `(not displayable as JSON: ${error instanceof Error ? error.message : String(error)})`;
  }
}

/** One line of at most `max` characters; line breaks and tabs shown as \n and \t. */
function clip(text: string, max = 80): string {
  const oneLine = text.replace(/\n/g, "\\n").replace(/\t/g, "\\t").replace(/\r/g, "\\r");
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/** One line saying what a parse event decided. */
export function summarizeParseEvent(event: ParseEvent): string {
  switch (event.type) {
    case "text":
    case "reasoning":
      return `"${clip(event.text)}"`;
    case "tool-call-start":
      return `${event.name} (call ${event.id})`;
    case "tool-call-delta":
      return `+ ${clip(event.argumentsDelta)}`;
    case "tool-call-end":
      return `${event.call.name}(${clip(JSON.stringify(event.call.arguments), 70)})`;
    case "repair":
      return `${event.kind}: ${clip(event.before, 30)} → ${clip(event.after, 30)}`;
    case "parse-error":
      return `${event.kind}: ${event.message}`;
  }
}

/** "Turn 2 · step 3", or "Sub-agent step 1" for a nested step (it sits under its parent). */
export function stepLabel(step: { depth: number; index: number; turn: number; branch?: { continues?: boolean; fromIndex?: number } }): string {
  if (step.branch) {
    // Named by the step it re-runs ("Branch of step 2"); a run continuing it numbers its steps
    // from 1 again, after the branch's own: "Branch of step 2 · step 2".
    const of = step.branch.fromIndex === undefined ? "Branch" : `Branch of step ${step.branch.fromIndex}`;
    return step.branch.continues ? `${of} · step ${step.index + 1}` : of;
  }
  return step.depth > 0 ? `Sub-agent step ${step.index}` : `Turn ${step.turn} · step ${step.index}`;
}
