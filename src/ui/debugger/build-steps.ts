// The debugger's view model: the event log folded into loop steps. Pure (no React), and
// incremental: a StepFolder remembers how far into the log it has read, so a growing log costs
// only its new events, and a step's object is replaced only when one of its events arrives
// (React can skip every step that did not change).
import { boundRecordedServerPrompt } from "toolcall-middleware/native/server-prompt.ts";
import type {
  BranchRef,
  OpenerProbe,
  ChatMessage,
  ContextBudget,
  CutOffLimit,
  EngineUsage,
  GenerationSettings,
  LoopEvent,
  ParseEvent,
  ProbabilityRecording,
  Span,
  StepConstraint,
  StepStatus,
  TemplateMessage,
  ToolExecutionStatus,
  ToolSpec,
  ToolTraceEntry,
} from "toolcall-middleware/types.ts";
import type { PlacedToken } from "toolcall-middleware/probabilities/step-tokens.ts";

/** A step's status as the debugger shows it: how it ended, or that it has not (yet). */
export type StepViewStatus = StepStatus | "running" | "unfinished" | "interrupted";

export interface ParentRef {
  runId: string;
  stepId: string;
  callId: string;
}

export interface StepParseEvent {
  /** Position of this event within its step's parse events. */
  index: number;
  event: ParseEvent;
}

export interface ToolExecution {
  callId: string;
  name: string;
  arguments: Record<string, unknown>;
  status: ToolExecutionStatus | "running" | "interrupted";
  result?: unknown;
  error?: string;
  /** The text the model was given back. */
  content?: string;
  durationMs?: number;
  /** What the tool exchanged with the outside (an MCP server's JSON-RPC), as recorded. */
  trace?: readonly ToolTraceEntry[];
  /** Keys of the sub-agent steps that ran under this call, in order. */
  childStepKeys: string[];
}

export interface StepView {
  /** Unique within the log: runId and stepId together. */
  key: string;
  /** The loop's step id (what the debugger store and the chat's tool cards hold). */
  id: string;
  runId: string;
  /** Position within its run, as the loop numbers it (from 1). */
  index: number;
  parent?: ParentRef;
  /** 0 for the top-level run; 1 for a sub-agent's steps; and so on. */
  depth: number;
  /** Which top-level run (a user turn) this step belongs to, 1-based; sub-agent steps share their parent's. */
  turn: number;
  protocol: string;
  template: string;
  status: StepViewStatus;
  error?: string;
  /** With status "cut-off": which limit cut the output, where known. */
  cutOff?: CutOffLimit;
  startedAt: number;
  durationMs?: number;
  usage: EngineUsage;
  prompt: string;
  /** Native tool calling: the request body the server was sent (there is no prompt text of ours). */
  request?: Record<string, unknown>;
  /** Native tool calling on llama.cpp: the prompt its template renders from the request, or why it could not be had. */
  serverPrompt?: { text: string; cutChars?: number } | { error: string };
  messages: ChatMessage[];
  templateMessages: TemplateMessage[];
  settings: GenerationSettings;
  /** How max tokens was fitted to the context window; absent in logs made before it was recorded. */
  budget?: ContextBudget;
  /** Where the run's tool section sits in the prompt, as recorded. */
  toolSectionAt?: Span;
  /** The template's control tokens, as recorded (absent in older logs). */
  controlTokens?: readonly string[];
  /** With "Constrain tool calls" on: the tool choice and the structural tag sent, or why none was. */
  constraint?: StepConstraint;
  /** The model's own chat template (a GGUF's embedded one) as recorded: Parse as… can read the step by the format derived from it (absent where unknown, and in older logs). */
  modelChatTemplate?: string;
  /** The model's text as streamed so far (output deltas placed at their offsets). */
  rawOutput: string;
  /** What the step asked for its tokens' probabilities, or why it has none (absent in older logs). */
  probabilities?: ProbabilityRecording;
  /** Its tokens with their probabilities, placed in the raw output, where the engine gave them (append-only). */
  tokens: readonly PlacedToken[];
  /** A step without a call: each opening marker's probability at its decision point, as measured after it (absent in older logs). */
  openerProbe?: OpenerProbe;
  /** Append-only: a new StepView object is made whenever it grows. */
  parseEvents: readonly StepParseEvent[];
  toolExecutions: readonly ToolExecution[];
  /** Keys of every sub-agent step nested directly under this step, in order. */
  childStepKeys: readonly string[];
  /** A step of a re-run (a branch): the step it branches from (its key) and what was changed. */
  branch?: {
    fromKey: string;
    changes: readonly string[];
    continues?: boolean;
    /** The index of the (non-branch) step it re-runs, for its label (absent when that step is not in the log). */
    fromIndex?: number;
  };
}

export interface RunView {
  runId: string;
  protocol: string;
  tools: ToolSpec[];
  /** The tool section as the run's protocol wrote it (absent in older logs and without tools). */
  toolSection?: string;
  parent?: ParentRef;
  ended: boolean;
  status?: string;
  /** Set on a re-run of a step (a branch) and on a run that continues one. */
  branch?: BranchRef;
  /** A branch the person discarded: its steps leave the timeline. */
  discarded?: boolean;
}

export interface StepsModel {
  /** Every step by key. */
  steps: ReadonlyMap<string, StepView>;
  /** Keys in timeline order: each step followed by the sub-agent steps nested under it. */
  order: readonly string[];
  runs: ReadonlyMap<string, RunView>;
}

export function stepKey(runId: string, stepId: string): string {
  return `${runId}\u241f${stepId}`;
}

interface MutableStep extends Omit<StepView, "parseEvents" | "toolExecutions" | "childStepKeys" | "tokens"> {
  parseEvents: StepParseEvent[];
  tokens: PlacedToken[];
  toolExecutions: ToolExecution[];
  childStepKeys: string[];
}

/**
 * Folds a LoopEvent[] into steps. Call `update(events)` with the whole log each time: when the
 * log only grew (the usual case), just the new events are read; any other change (a different
 * conversation, an edited log) rebuilds from scratch.
 */
export class StepFolder {
  private stepsByKey = new Map<string, MutableStep>();
  private runsByKey = new Map<string, RunView>();
  private order: string[] = [];
  private orderDirty = false;
  private topLevel: string[] = [];
  private dirty = new Set<string>();
  private executionsByCall = new Map<string, ToolExecution>();
  private stepsOfRun = new Map<string, string[]>();
  private turnOfRun = new Map<string, number>();
  private topLevelTurns = 0;
  private seen: readonly LoopEvent[] = [];
  private seenCount = 0;
  private model: StepsModel = { steps: new Map(), order: [], runs: new Map() };

  private reset() {
    this.stepsByKey = new Map();
    this.runsByKey = new Map();
    this.order = [];
    this.orderDirty = true;
    this.topLevel = [];
    this.dirty = new Set();
    this.executionsByCall = new Map();
    this.stepsOfRun = new Map();
    this.turnOfRun = new Map();
    this.topLevelTurns = 0;
    this.seen = [];
    this.seenCount = 0;
    this.model = { steps: new Map(), order: [], runs: new Map() };
  }

  update(events: readonly LoopEvent[]): StepsModel {
    const grewFromSeen =
      events.length >= this.seenCount &&
      (this.seenCount === 0 || events[this.seenCount - 1] === this.seen[this.seenCount - 1]) &&
      (this.seenCount === 0 || events[0] === this.seen[0]);
    if (!grewFromSeen) this.reset();
    if (events.length === this.seenCount && events === this.seen) return this.model;
    for (let i = this.seenCount; i < events.length; i++) this.apply(events[i] as LoopEvent);
    this.seen = events;
    this.seenCount = events.length;
    return this.publish();
  }

  private publish(): StepsModel {
    if (this.dirty.size === 0 && !this.orderDirty) return this.model;
    const steps = new Map(this.model.steps);
    for (const key of this.dirty) {
      const step = this.stepsByKey.get(key);
      if (!step) continue;
      steps.set(key, { ...step, usage: { ...step.usage } });
    }
    this.dirty.clear();
    if (this.orderDirty) {
      this.order = this.computeOrder();
      this.orderDirty = false;
    }
    this.model = { steps, order: this.order, runs: new Map(this.runsByKey) };
    return this.model;
  }

  private computeOrder(): string[] {
    const out: string[] = [];
    const visit = (key: string) => {
      const step = this.stepsByKey.get(key);
      if (step?.branch && this.isDiscarded(step)) return;
      out.push(key);
      if (step) for (const child of step.childStepKeys) visit(child);
    };
    for (const key of this.topLevel) visit(key);
    return out;
  }

  /** A discarded branch's step, or a step continuing one (it sits beside it, not under it). */
  private isDiscarded(step: MutableStep): boolean {
    if (this.runsByKey.get(step.runId)?.discarded) return true;
    const continued = step.branch?.continues ? this.stepsByKey.get(step.branch.fromKey) : undefined;
    return continued !== undefined && this.runsByKey.get(continued.runId)?.discarded === true;
  }

  private turnFor(runId: string, parentStep: MutableStep | undefined): number {
    let turn = this.turnOfRun.get(runId);
    if (turn === undefined) {
      turn = parentStep ? parentStep.turn : ++this.topLevelTurns;
      this.turnOfRun.set(runId, turn);
    }
    return turn;
  }

  private touch(key: string) {
    this.dirty.add(key);
  }

  private stepFor(runId: string, stepId: string): MutableStep | undefined {
    return this.stepsByKey.get(stepKey(runId, stepId));
  }

  private apply(event: LoopEvent) {
    switch (event.type) {
      case "run-start": {
        this.runsByKey.set(event.runId, {
          runId: event.runId,
          protocol: event.protocol,
          tools: event.tools,
          ...(event.toolSection !== undefined ? { toolSection: event.toolSection } : {}),
          parent: event.parent,
          ended: false,
          ...(event.branch ? { branch: event.branch } : {}),
        });
        return;
      }
      case "run-end": {
        const run = this.runsByKey.get(event.runId);
        if (run) this.runsByKey.set(event.runId, { ...run, ended: true, status: event.status, ...(event.discarded ? { discarded: true } : {}) });
        if (event.discarded) this.orderDirty = true;
        // A step the run left without a step-end (an abort between events) is unfinished, not running.
        for (const key of this.stepsOfRun.get(event.runId) ?? []) {
          const step = this.stepsByKey.get(key);
          if (step && step.status === "running") {
            step.status = event.status === "aborted" ? "aborted" : event.status === "engine-error" ? "engine-error" : "unfinished";
            if (event.error && !step.error) step.error = event.error;
            this.touch(key);
          }
        }
        return;
      }
      case "step-start": {
        const key = stepKey(event.runId, event.stepId);
        // A branch's steps hang under the step they re-run (a continuation's under the branch's step).
        const branch = event.parent ? undefined : this.runsByKey.get(event.runId)?.branch;
        const branchedFrom = branch ? this.stepFor(branch.runId, branch.stepId) : undefined;
        // A run continuing a branch goes on beside the branch's own step (under the step the
        // branch re-ran), not under it: nested there, its steps read as branches of that branch.
        const continued = branch?.continues && branchedFrom?.branch ? this.stepsByKey.get(branchedFrom.branch.fromKey) : undefined;
        const parentStep = event.parent ? this.stepFor(event.parent.runId, event.parent.stepId) : (continued ?? branchedFrom);
        const fromIndex = branchedFrom ? (branchedFrom.branch ? branchedFrom.branch.fromIndex : branchedFrom.index) : undefined;
        const step: MutableStep = {
          key,
          id: event.stepId,
          runId: event.runId,
          index: event.index,
          parent: event.parent,
          depth: parentStep ? parentStep.depth + 1 : event.parent ? 1 : 0,
          ...(branch
            ? { branch: { fromKey: stepKey(branch.runId, branch.stepId), changes: branch.changes, ...(branch.continues ? { continues: true } : {}), ...(fromIndex !== undefined ? { fromIndex } : {}) } }
            : {}),
          turn: this.turnFor(event.runId, parentStep),
          protocol: event.protocol,
          template: event.template,
          status: "running",
          startedAt: event.at,
          usage: {},
          prompt: event.prompt,
          ...(event.request ? { request: event.request } : {}),
          // A log saved before the bound (SERVER_PROMPT_CHARS) may hold more: drawn within it, the cut said.
          ...(event.serverPrompt ? { serverPrompt: boundRecordedServerPrompt(event.serverPrompt) } : {}),
          messages: event.messages,
          templateMessages: event.templateMessages,
          settings: event.settings,
          ...(event.budget ? { budget: event.budget } : {}),
          ...(event.toolSectionAt ? { toolSectionAt: event.toolSectionAt } : {}),
          ...(event.controlTokens ? { controlTokens: event.controlTokens } : {}),
          ...(event.constraint ? { constraint: event.constraint } : {}),
          ...(event.probabilities ? { probabilities: event.probabilities } : {}),
          ...(event.modelChatTemplate !== undefined ? { modelChatTemplate: event.modelChatTemplate } : {}),
          rawOutput: "",
          tokens: [],
          parseEvents: [],
          toolExecutions: [],
          childStepKeys: [],
        };
        this.stepsByKey.set(key, step);
        const ofRun = this.stepsOfRun.get(event.runId) ?? [];
        ofRun.push(key);
        this.stepsOfRun.set(event.runId, ofRun);
        if (continued && branchedFrom) {
          // Right after the branch's own step and the steps that already continue it.
          const siblings = continued.childStepKeys;
          let at = siblings.indexOf(branchedFrom.key);
          while (at >= 0 && at + 1 < siblings.length && this.stepsByKey.get(siblings[at + 1]!)?.branch?.fromKey === branchedFrom.key) at += 1;
          siblings.splice(at < 0 ? siblings.length : at + 1, 0, key);
          this.touch(continued.key);
        } else if (parentStep) {
          parentStep.childStepKeys.push(key);
          const execution = this.executionsByCall.get(`${parentStep.key}\u241f${event.parent?.callId}`);
          if (execution) execution.childStepKeys.push(key);
          this.touch(parentStep.key);
        } else {
          this.topLevel.push(key);
        }
        this.orderDirty = true;
        this.touch(key);
        return;
      }
      case "output-delta": {
        const step = this.stepFor(event.runId, event.stepId);
        if (!step) return;
        // Deltas arrive in order; one that overlaps is placed by its offset. A recorded offset
        // never sizes anything: one past the end (a log made elsewhere; imports refuse it) is
        // placed at the end, not padded out to (an offset of 6e8 would ask for 600 MB of spaces).
        const length = step.rawOutput.length;
        const at = Number.isInteger(event.offset) && event.offset >= 0 ? Math.min(event.offset, length) : length;
        step.rawOutput = at === length ? step.rawOutput + event.text : step.rawOutput.slice(0, at) + event.text + step.rawOutput.slice(at + event.text.length);
        if (event.tokens) {
          let start = at;
          for (const token of event.tokens) {
            step.tokens.push({ start, end: start + token.text.length, index: step.tokens.length, token });
            start += token.text.length;
          }
        }
        this.touch(step.key);
        return;
      }
      case "parse": {
        const step = this.stepFor(event.runId, event.stepId);
        if (!step) return;
        step.parseEvents.push({ index: step.parseEvents.length, event: event.event });
        this.touch(step.key);
        return;
      }
      case "usage": {
        const step = this.stepFor(event.runId, event.stepId);
        if (!step) return;
        step.usage = { ...step.usage, ...event.usage };
        this.touch(step.key);
        return;
      }
      case "tool-start": {
        const step = this.stepFor(event.runId, event.stepId);
        if (!step) return;
        const execution: ToolExecution = {
          callId: event.call.id,
          name: event.call.name,
          arguments: event.call.arguments,
          status: "running",
          childStepKeys: [],
        };
        step.toolExecutions = [...step.toolExecutions, execution];
        this.executionsByCall.set(`${step.key}\u241f${event.call.id}`, execution);
        this.touch(step.key);
        return;
      }
      case "tool-end": {
        const step = this.stepFor(event.runId, event.stepId);
        if (!step) return;
        const callKey = `${step.key}\u241f${event.callId}`;
        const previous = this.executionsByCall.get(callKey);
        const ended: ToolExecution = {
          callId: event.callId,
          name: event.name,
          arguments: previous?.arguments ?? {},
          status: event.status,
          result: event.result,
          error: event.error,
          content: event.content,
          durationMs: event.durationMs,
          ...(event.trace ? { trace: event.trace } : {}),
          childStepKeys: previous?.childStepKeys ?? [],
        };
        this.executionsByCall.set(callKey, ended);
        step.toolExecutions = previous
          ? step.toolExecutions.map((e) => (e === previous ? ended : e))
          : [...step.toolExecutions, ended];
        this.touch(step.key);
        return;
      }
      case "step-end": {
        const step = this.stepFor(event.runId, event.stepId);
        if (!step) return;
        step.status = event.status;
        step.durationMs = event.durationMs;
        if (event.error) step.error = event.error;
        if (event.cutOff) step.cutOff = event.cutOff;
        if (event.openerProbe) step.openerProbe = event.openerProbe;
        this.touch(step.key);
        return;
      }
      case "message":
        return;
    }
  }
}

/** The top-level run a run is nested under (itself when it is one). */
function rootRunOf(model: StepsModel, runId: string): string {
  let id = runId;
  for (let hops = 0; hops < 1000; hops++) {
    const parent = model.runs.get(id)?.parent;
    if (!parent) return id;
    id = parent.runId;
  }
  return id;
}

/**
 * A log records no end for a turn the page was closed or reloaded in: its steps would say
 * "running" for ever. Steps (and tool executions) still running in a top-level run this page
 * did not start are shown as interrupted. (A run this page started always gets its run-end,
 * even if the debugger sees it a moment later.) Steps that are not running keep their object.
 */
export function markInterrupted(model: StepsModel, startedOnThisPage: (runId: string) => boolean): StepsModel {
  let steps: Map<string, StepView> | null = null;
  for (const [key, step] of model.steps) {
    if (step.status !== "running" || startedOnThisPage(rootRunOf(model, step.runId))) continue;
    steps ??= new Map(model.steps);
    steps.set(key, {
      ...step,
      status: "interrupted",
      error: step.error ?? "The page was closed or reloaded during this step; the log has nothing after this point.",
      toolExecutions: step.toolExecutions.map((e) =>
        e.status === "running" ? { ...e, status: "interrupted" as const, error: "The page was closed or reloaded while this tool ran." } : e,
      ),
    });
  }
  return steps ? { ...model, steps } : model;
}

/** One-shot fold (tests, exports): the model of a whole log. */
export function buildSteps(events: readonly LoopEvent[]): StepsModel {
  return new StepFolder().update(events);
}

/** The step the debugger shows: the selected one, else the latest step of the log. */
export function resolveSelectedStep(model: StepsModel, selectedId: string | null): StepView | undefined {
  if (selectedId !== null) {
    const byKey = model.steps.get(selectedId);
    if (byKey) return byKey;
    // The chat's tool cards know only the loop's step id; take the latest step carrying it.
    for (let i = model.order.length - 1; i >= 0; i--) {
      const step = model.steps.get(model.order[i] as string);
      if (step && step.id === selectedId) return step;
    }
  }
  return latestStep(model);
}

/** The most recently started step, nested ones included. */
export function latestStep(model: StepsModel): StepView | undefined {
  let latest: StepView | undefined;
  for (const step of model.steps.values()) if (!latest || step.startedAt >= latest.startedAt) latest = step;
  return latest;
}

/**
 * The step whose prompt this step's prompt extends: the one before it in its run, or for a
 * turn's first step the last step of the previous turn (the conversation carries on).
 */
export function previousStepInRun(model: StepsModel, step: StepView): StepView | undefined {
  let best: StepView | undefined;
  for (const other of model.steps.values()) {
    if (other.runId === step.runId && other.index < step.index && (!best || other.index > best.index)) best = other;
  }
  if (best || step.depth > 0) return best;
  const at = model.order.indexOf(step.key);
  for (let i = at - 1; i >= 0; i--) {
    const other = model.steps.get(model.order[i] as string);
    if (other && other.depth === 0) return other;
  }
  return undefined;
}

/** What the debugger store should hold for a step: its id, unless another step shares it. */
export function selectionIdFor(model: StepsModel, step: StepView): string {
  for (const other of model.steps.values()) if (other !== step && other.id === step.id) return step.key;
  return step.id;
}
