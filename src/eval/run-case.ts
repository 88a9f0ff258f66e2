// Runs one case: the tool loop's first step only (the loop with one step allowed), so the case is
// recorded as an event log like any run and the debugger can open it. Tools are not executed:
// each one answers that an evaluation does not run it. The step's calls, repairs, parse errors
// and text are then scored (score.ts).
import { allReservedMarkers } from "toolcall-middleware/protocols/registry.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import { parseAll } from "toolcall-middleware/parser/collect.ts";
import { formatDrift, formatDriftPaced } from "toolcall-middleware/probabilities/detect-format.ts";
import { stepDecisionPoint } from "toolcall-middleware/probabilities/step-decision.ts";
import type { ChatTemplate, Engine, ExecutableTool, GenerationSettings, LoopEvent, ParseEvent, Protocol, ToolSpec } from "toolcall-middleware/types.ts";
import type { CaseLog } from "./case-log.ts";
import { nativeToolNames } from "./native-names.ts";
import { scoreCase, type ScoredCall, type StepOutcome, type Verdict } from "./score.ts";
import type { EvalCase } from "./suite.ts";

export type EvalMode = "prompt" | "native";

/** One case's verdicts as the results file keeps them. */
export interface EvalResult {
  id: string;
  category: string;
  /** The protocol's name, or "native" in native mode. */
  protocol: string;
  mode: EvalMode;
  constrained: boolean;
  /** Which repeat of the case this is (0 for the first). */
  repeat: number;
  pass: boolean;
  strictPass: boolean;
  /** Why `pass` failed, else why `strictPass` did; "" when both hold. */
  reason: string;
  calls: ScoredCall[];
  /** Set when constrained decoding was asked for but this step ran without it (and why). */
  unconstrained?: string;
  durationMs: number;
  completionTokens?: number;
  /** The run's id in its event log. */
  runId: string;
  /** Format drift (a failed prompt-mode case whose protocol found no call): the protocols whose parsers found calls in its output. */
  drift?: string[];
  /**
   * The probability, at the decision point, of opening a call: the whole opening marker's where
   * the model opened one, the recorded alternative that would have where it did not (null when
   * none among those recorded would). Absent where no probabilities were recorded.
   */
  callP?: number | null;
  /** The step's event log as a results file carries it (set by the command, and on reading a file that has it). */
  log?: CaseLog;
  /** Why a results file holds no log for this case though it ran (too long to keep). */
  logOmitted?: string;
}

export const NOT_RUN_RESULT = "Not run: an evaluation scores the calls of the first step only.";

export interface RunEvalCaseInput {
  engine: Engine;
  mode: EvalMode;
  /** The protocol (prompt mode); native mode ignores it beyond the loop's bookkeeping. */
  protocol: Protocol;
  testCase: EvalCase;
  constrained: boolean;
  repeat?: number;
  template?: ChatTemplate;
  generation?: GenerationSettings;
  signal?: AbortSignal;
  runId?: string;
  /** Whether this protocol carries every value as text (its string-to-type coercions are its own reading, not repairs): see readsValuesAsText. */
  valuesAsText?: boolean;
  /**
   * Awaited between pieces of the format-drift check, which reads the whole output with every
   * protocol's parser (a page's turn: on a 1,000,000-character reply that is most of a second).
   * Without it the check runs at once (`npm run eval`). Same result either way.
   */
  pause?: () => Promise<void>;
  /** Called with each event as the case records it (the view's live output of the running case). */
  onEvent?: (event: LoopEvent) => void;
}

export interface EvalCaseRun {
  result: EvalResult;
  events: LoopEvent[];
}

/** Runs and scores one case; undefined when it was stopped (nothing to record: it runs again on resume). */
export async function runEvalCase(input: RunEvalCaseInput): Promise<EvalCaseRun | undefined> {
  const { testCase, mode } = input;
  const names = mode === "native" ? nativeToolNames(testCase.tools) : { tools: testCase.tools, original: (name: string) => name };
  const tools: ExecutableTool[] = names.tools.map((tool) => ({ ...tool, execute: () => Promise.resolve(NOT_RUN_RESULT) }));
  const events: LoopEvent[] = [];
  const startedAt = performance.now();
  const loop = runToolLoop({
    engine: input.engine,
    protocol: input.protocol,
    tools,
    messages: testCase.messages,
    maxSteps: 1,
    ...(input.template ? { template: input.template } : {}),
    ...(input.generation ? { generation: input.generation } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.runId ? { runId: input.runId } : {}),
    ...(input.constrained ? { constrain: { toolChoice: "auto" as const } } : {}),
  });
  for await (const event of loop) {
    events.push(event);
    input.onEvent?.(event);
  }
  if (input.signal?.aborted) return undefined;

  const outcome = stepOutcome(events, input, names.original);
  const verdict = scoreCase(testCase, outcome);
  const runId = events[0]?.runId ?? "";
  const stepStart = events.find((event) => event.type === "step-start");
  const unsupported = input.constrained && stepStart?.type === "step-start" ? stepStart.constraint?.unsupported : undefined;
  const usage = events.findLast((event) => event.type === "usage");
  const decision = await decisionOf(events, input, runId, verdict.pass, outcome.calls.length, names.tools);
  return {
    events,
    result: {
      id: testCase.id,
      category: testCase.category,
      protocol: mode === "native" ? "native" : input.protocol.name,
      mode,
      constrained: input.constrained,
      repeat: input.repeat ?? 0,
      ...verdict,
      calls: outcome.calls,
      ...(typeof unsupported === "string" ? { unconstrained: unsupported } : {}),
      durationMs: performance.now() - startedAt,
      ...(usage?.type === "usage" && usage.usage.completionTokens !== undefined ? { completionTokens: usage.usage.completionTokens } : {}),
      runId,
      ...decision,
    },
  };
}

/**
 * Scores a case again from its recorded log, with today's scorer: the step's recorded parse
 * events and ending as they are (nothing re-parsed, nothing run). For results files made before
 * a scoring rule changed (the reason a reply cut at its budget gives, say).
 */
export function scoreRecordedCase(input: { testCase: EvalCase; events: readonly LoopEvent[]; protocol: Protocol; mode: EvalMode }): Verdict & { calls: ScoredCall[] } {
  const names = input.mode === "native" ? nativeToolNames(input.testCase.tools) : { original: (name: string) => name };
  const outcome = stepOutcome(input.events, { mode: input.mode, protocol: input.protocol, valuesAsText: readsValuesAsText(input.protocol) }, names.original);
  return { ...scoreCase(input.testCase, outcome), calls: outcome.calls };
}

/** Drift of a failed prompt-mode case without calls, and the decision point's probability of a call. */
async function decisionOf(events: LoopEvent[], input: RunEvalCaseInput, runId: string, pass: boolean, calls: number, tools: readonly ToolSpec[]): Promise<Pick<EvalResult, "drift" | "callP">> {
  const stepStart = events.find((event) => event.type === "step-start");
  if (input.mode === "native" || stepStart?.type !== "step-start") return {};
  let output = "";
  for (const event of events) if (event.type === "output-delta" && event.stepId === stepStart.stepId) output += event.text;
  const formats = !pass && calls === 0 ? await (input.pause ? formatDriftPaced(output, input.protocol.name, tools, input.pause) : formatDrift(output, input.protocol.name, tools)) : [];
  const drift = formats.map((f) => f.protocol);
  const point = stepDecisionPoint(events, runId, stepStart.stepId);
  const callP = point.kind === "call" ? point.markerP : point.kind === "no-call" ? (point.callOpener?.p ?? null) : undefined;
  return { ...(drift.length > 0 ? { drift } : {}), ...(callP !== undefined ? { callP } : {}) };
}

/**
 * Whether a repair changed what was read, for strict scoring. Not a protocol's own reading of
 * values it carries as text, and not a call taken back while streaming (`not-a-call`: text that
 * began like a call stayed text; the same output in one piece has no such event).
 */
function countsAsRepair(repair: Extract<ParseEvent, { type: "repair" }>, input: Pick<RunEvalCaseInput, "valuesAsText">): boolean {
  if (repair.kind === "not-a-call") return false;
  return !(input.valuesAsText && repair.kind === "coerce" && repair.before.startsWith('"'));
}

/** What the first step's parse events and ending amount to, for the scorer. */
function stepOutcome(events: readonly LoopEvent[], input: Pick<RunEvalCaseInput, "mode" | "protocol" | "valuesAsText">, original: (name: string) => string): StepOutcome {
  const calls: ScoredCall[] = [];
  const parseErrors: string[] = [];
  const repairs: string[] = [];
  let text = "";
  let failure: string | undefined;
  let cutOff: StepOutcome["cutOff"];
  let maxTokens: number | undefined;
  for (const event of events) {
    if (event.type === "step-start") maxTokens = event.settings.maxTokens;
    else if (event.type === "step-end" && event.status === "cut-off" && (event.error === undefined || event.cutOff === "output-limit")) {
      // Cut at a limit while it wrote: the reply ran (a prompt too long for the window did not).
      const limit = event.cutOff ?? "max-tokens";
      cutOff = { limit, ...(limit === "max-tokens" && maxTokens !== undefined ? { maxTokens } : {}) };
    } else if (event.type === "parse") {
      const parsed = event.event;
      if (parsed.type === "tool-call-end") calls.push({ name: original(parsed.call.name), arguments: parsed.call.arguments });
      else if (parsed.type === "parse-error") parseErrors.push(parsed.message);
      else if (parsed.type === "repair" && countsAsRepair(parsed, input)) repairs.push(parsed.message);
      else if (parsed.type === "text") text += parsed.text;
    } else if (event.type === "step-end" && (event.status === "engine-error" || event.status === "cut-off" || event.status === "aborted")) {
      failure = event.error ?? (event.status === "cut-off" ? `the reply was cut off (${event.cutOff ?? "length limit"})` : event.status);
    } else if (event.type === "run-end" && event.status === "engine-error" && failure === undefined) {
      failure = event.error ?? "engine error";
    }
  }
  const markers = input.mode === "native" ? allReservedMarkers() : (input.protocol.reservedMarkers ?? []);
  const markupInText = markers.filter((marker) => marker.trim() !== "" && text.includes(marker));
  return { calls, parseErrors, repairs, markupInText, ...(failure !== undefined ? { failure } : {}), ...(cutOff ? { cutOff } : {}) };
}

/**
 * Whether a protocol writes every argument value as text (XML-style parameters), so that reading
 * `10` as the integer 10 is the protocol's own reading rather than a repair of the model's output.
 * Found by writing a call through the protocol and reading it back.
 */
export function readsValuesAsText(protocol: Protocol): boolean {
  const probe: ToolSpec = { name: "probe", description: "", parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } };
  try {
    const written = protocol.renderAssistant({ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "probe", arguments: { n: 1 } }] });
    return parseAll(protocol, [probe], [written]).repairs.some((repair) => repair.kind === "coerce");
  } catch {
    return false;
  }
}

/** The result of a job that could not run at all (an unexpected failure): failed, with the reason. */
export function failedResult(job: { testCase: EvalCase; protocol: string; mode: EvalMode; constrained: boolean; repeat: number }, reason: string): EvalResult {
  return {
    id: job.testCase.id,
    category: job.testCase.category,
    protocol: job.protocol,
    mode: job.mode,
    constrained: job.constrained,
    repeat: job.repeat,
    pass: false,
    strictPass: false,
    reason: `the case failed to run: ${reason}`,
    calls: [],
    durationMs: 0,
    runId: "",
  };
}
