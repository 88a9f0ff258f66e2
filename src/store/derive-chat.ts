// The chat as a view of the event log: user turns, and for each top-level run one assistant
// turn made of text, reasoning, tool-call cards and notices, in the order they were produced.
// Pure functions; `createChatDeriver` caches finished runs so streaming costs only the live run.
import type { ChatMessage, CutOffLimit, LoopEvent, MessageSource, PromptProgress, RunStatus, ToolExecutionStatus } from "toolcall-middleware/types.ts";

import { resultResources, type ResultResource } from "../mcp/tool-result.ts";

export type ToolCardStatus = "writing" | "running" | "not-run" | ToolExecutionStatus;

export interface ToolCallCard {
  callId: string;
  stepId: string;
  name: string;
  /** The arguments as the model wrote them so far (while streaming), or as parsed. */
  argumentsText: string;
  arguments?: Record<string, unknown>;
  status: ToolCardStatus;
  /** What the model was given back. */
  content?: string;
  result?: unknown;
  error?: string;
  durationMs?: number;
  protocol: string;
  /** Steps of sub-agent runs started by this call (deep_research). */
  nestedSteps: number;
  /** Repairs the parser made to this call (quotes, commas, coercions). */
  repairs: number;
  /** Resources an MCP tool's result linked or embedded (from its recorded JSON-RPC response). */
  resources?: ResultResource[];
}

export type AssistantBlock =
  | { kind: "text"; key: string; stepId: string; text: string }
  | { kind: "reasoning"; key: string; stepId: string; text: string }
  | { kind: "tool-call"; key: string; card: ToolCallCard }
  | { kind: "notice"; key: string; stepId?: string; tone: "error" | "warn" | "info"; text: string; parseError?: true };

export type AssistantStatus = "running" | "interrupted" | RunStatus;

/** Which limit cut a turn's last step short, and that step's max tokens (as it was sent). */
export interface TurnCutOff {
  limit?: CutOffLimit;
  maxTokens?: number;
}

export interface AssistantTurn {
  kind: "assistant";
  key: string;
  runId: string;
  blocks: AssistantBlock[];
  status: AssistantStatus;
  error?: string;
  /** Set when a step of the run was cut off at a length limit. */
  cutOff?: TurnCutOff;
  steps: number;
  /** Protocols used by the run's steps, in order of first use. */
  protocols: string[];
  startedAt: number;
  endedAt?: number;
  /**
   * While a running step has not written its first token: how far the model has read its prompt
   * (the engine's report), or only the prompt's size where the engine reports nothing yet.
   */
  readingPrompt?: ReadingPrompt;
}

export interface ReadingPrompt {
  stepId: string;
  /** The prompt's tokens as the lab counted them before sending (absent where not counted). */
  promptTokens?: number;
  /** The engine's latest report, with the time it came (event time). */
  progress?: PromptProgress;
  /** When the step started and when the latest report came (event times, ms). */
  startedAt: number;
  reportedAt?: number;
}

/** A turn the model did not write: the person's message, or a message an MCP prompt gave (in its role, with its origin). */
export interface UserTurn {
  kind: "user";
  key: string;
  content: string;
  /** "assistant" only for a prompt's assistant message. */
  role?: "user" | "assistant";
  source?: MessageSource;
}

export type ChatItem = UserTurn | AssistantTurn;

/** The run a (possibly nested) event belongs to at the top level. */
function topRunOf(event: LoopEvent, topOf: Map<string, string>): string {
  const known = topOf.get(event.runId);
  if (known) return known;
  const top = event.parent ? (topOf.get(event.parent.runId) ?? event.parent.runId) : event.runId;
  topOf.set(event.runId, top);
  return top;
}

/**
 * The turns a run was started with: the person's last message, or all the messages of the MCP
 * prompt put into the conversation (the trailing messages of one insertion).
 */
function givenTurns(messages: ChatMessage[]): Array<Extract<ChatMessage, { role: "user" | "assistant" }>> {
  const last = messages[messages.length - 1];
  if (!last || (last.role !== "user" && last.role !== "assistant")) return [];
  if (!last.source) return last.role === "user" ? [last] : [];
  let first = messages.length - 1;
  while (first > 0) {
    const before = messages[first - 1];
    if (!before || (before.role !== "user" && before.role !== "assistant") || before.source?.insertion !== last.source.insertion) break;
    first -= 1;
  }
  return messages.slice(first) as Array<Extract<ChatMessage, { role: "user" | "assistant" }>>;
}

function describeToolOutcome(status: ToolExecutionStatus): string {
  switch (status) {
    case "ok":
      return "ok";
    case "timeout":
      return "timed out";
    case "aborted":
      return "stopped";
    case "invalid-arguments":
      return "invalid arguments";
    case "unknown-tool":
      return "unknown tool";
    default:
      return "error";
  }
}
export { describeToolOutcome };

/**
 * The assistant turn of one top-level run, from that run's events (nested runs' events
 * included: they count towards the card of the call that started them).
 * `live` says whether the run is still going (else a run without run-end was interrupted).
 */
export function deriveAssistantTurn(runId: string, events: readonly LoopEvent[], live: boolean): AssistantTurn {
  const fold = assistantTurnFold(runId, live);
  fold.add(events, 0);
  return fold.turn();
}

/**
 * The turn of `runId`, read from its events as they come: `add` reads the events past `from`,
 * `turn` gives the turn so far (a new object, its blocks a copy). The chat folds a live run's
 * events into one of these instead of deriving the turn again from its first event on every
 * update (a run of 80,000 unfinished calls: 240,000 events read, and 80,000 blocks made, per
 * update). Once the run has ended (its status is no longer "running") the fold is finished.
 */
export interface AssistantTurnFold {
  add(events: readonly LoopEvent[], from: number): void;
  turn(): AssistantTurn;
}

export function assistantTurnFold(runId: string, live: boolean): AssistantTurnFold {
  const blocks: AssistantBlock[] = [];
  const cards = new Map<string, ToolCallCard>();
  const stepProtocol = new Map<string, string>();
  const stepMaxTokens = new Map<string, number>();
  let cutOff: TurnCutOff | undefined;
  const protocols: string[] = [];
  let steps = 0;
  let status: AssistantStatus = live ? "running" : "interrupted";
  let error: string | undefined;
  let endedAt: number | undefined;
  let last: AssistantBlock | undefined;
  let startedAt: number | undefined;
  let reading: ReadingPrompt | undefined;

  // Repairs are reported while the call's JSON is read, which can be before its card exists.
  const repairCounts = new Map<string, number>();
  const cardPositions = new Map<string, number>();
  const replaceCard = (input: ToolCallCard) => {
    const card = { ...input, repairs: repairCounts.get(input.callId) ?? input.repairs };
    cards.set(card.callId, card);
    const index = cardPositions.get(card.callId);
    const block: AssistantBlock = { kind: "tool-call", key: `call-${card.callId}`, card };
    if (index !== undefined) blocks[index] = block;
    else cardPositions.set(card.callId, blocks.push(block) - 1);
  };

  const add = (events: readonly LoopEvent[], from: number) => {
    if (startedAt === undefined && events.length > from) startedAt = events[from]!.at;
    for (let i = from; i < events.length; i += 1) {
      const event = events[i]!;
      if (event.runId !== runId) {
        // Nested run (sub-agent): count its steps on the card of the call that started it.
        if (event.type === "step-start" && event.parent) {
          const card = cards.get(event.parent.callId);
          if (card) replaceCard({ ...card, nestedSteps: card.nestedSteps + 1 });
        }
        continue;
      }
      switch (event.type) {
        case "step-start":
          steps += 1;
          stepProtocol.set(event.stepId, event.protocol);
          if (event.settings?.maxTokens !== undefined) stepMaxTokens.set(event.stepId, event.settings.maxTokens);
          if (!protocols.includes(event.protocol)) protocols.push(event.protocol);
          last = undefined;
          reading = { stepId: event.stepId, startedAt: event.at, ...(event.budget && "promptTokens" in event.budget ? { promptTokens: event.budget.promptTokens } : {}) };
          break;
        case "prompt-progress":
          if (reading?.stepId === event.stepId) reading = { ...reading, progress: event.progress, reportedAt: event.at };
          break;
        case "output-delta":
          if (reading?.stepId === event.stepId) reading = undefined;
          break;
        case "parse": {
          const p = event.event;
          if (p.type === "text" || p.type === "reasoning") {
            if (last && last.kind === p.type && last.stepId === event.stepId) {
              const merged = { ...last, text: last.text + p.text };
              blocks[blocks.length - 1] = merged;
              last = merged;
            } else {
              const block: AssistantBlock = { kind: p.type, key: `${p.type}-${event.stepId}-${p.span.start}`, stepId: event.stepId, text: p.text };
              blocks.push(block);
              last = block;
            }
            break;
          }
          last = undefined;
          if (p.type === "tool-call-start") {
            replaceCard({
              callId: p.id,
              stepId: event.stepId,
              name: p.name,
              argumentsText: "",
              status: "writing",
              protocol: stepProtocol.get(event.stepId) ?? "",
              nestedSteps: 0,
              repairs: 0,
            });
          } else if (p.type === "tool-call-delta") {
            const card = cards.get(p.id);
            if (card) replaceCard({ ...card, argumentsText: card.argumentsText + p.argumentsDelta });
          } else if (p.type === "tool-call-end") {
            const card = cards.get(p.id);
            const base: ToolCallCard = card ?? {
              callId: p.id,
              stepId: event.stepId,
              name: p.call.name,
              argumentsText: "",
              status: "writing",
              protocol: stepProtocol.get(event.stepId) ?? "",
              nestedSteps: 0,
              repairs: 0,
            };
            replaceCard({
              ...base,
              name: p.call.name,
              arguments: p.call.arguments,
              argumentsText: JSON.stringify(p.call.arguments),
              status: base.status === "writing" ? "not-run" : base.status,
            });
          } else if (p.type === "repair" && p.kind === "not-a-call" && p.id) {
            // A call announced early turned out to be text (its text follows): its card goes.
            const index = cardPositions.get(p.id);
            if (index !== undefined) {
              blocks.splice(index, 1);
              for (const [id, at] of cardPositions) if (at > index) cardPositions.set(id, at - 1);
            }
            cards.delete(p.id);
            cardPositions.delete(p.id);
            repairCounts.delete(p.id);
            const previous = blocks[blocks.length - 1];
            if (previous && previous.kind === "text" && previous.stepId === event.stepId) last = previous;
          } else if (p.type === "repair") {
            if (p.id) {
              repairCounts.set(p.id, (repairCounts.get(p.id) ?? 0) + 1);
              const card = cards.get(p.id);
              if (card) replaceCard(card);
            }
          } else if (p.type === "parse-error") {
            if (p.id && cards.has(p.id)) {
              const card = cards.get(p.id)!;
              replaceCard({ ...card, status: "not-run", error: p.message });
            } else {
              blocks.push({ kind: "notice", key: `perr-${event.stepId}-${p.span.start}-${blocks.length}`, stepId: event.stepId, tone: "warn", text: `Parse error (${p.kind}): ${p.message}`, parseError: true });
            }
          }
          break;
        }
        case "tool-start": {
          last = undefined;
          const card = cards.get(event.call.id);
          replaceCard({
            ...(card ?? { stepId: event.stepId, protocol: stepProtocol.get(event.stepId) ?? "", nestedSteps: 0, repairs: 0 }),
            callId: event.call.id,
            name: event.call.name,
            arguments: event.call.arguments,
            argumentsText: JSON.stringify(event.call.arguments),
            status: "running",
          } as ToolCallCard);
          break;
        }
        case "tool-end": {
          last = undefined;
          const card = cards.get(event.callId);
          const next: ToolCallCard = {
            ...(card ?? {
              callId: event.callId,
              stepId: event.stepId,
              name: event.name,
              argumentsText: "",
              protocol: stepProtocol.get(event.stepId) ?? "",
              nestedSteps: 0,
              repairs: 0,
            }),
            status: event.status,
            content: event.content,
            durationMs: event.durationMs,
          };
          if (event.result !== undefined) next.result = event.result;
          if (event.error !== undefined) next.error = event.error;
          const resources = resultResources(event.trace);
          if (resources.length > 0) next.resources = resources;
          replaceCard(next);
          break;
        }
        case "step-end":
          last = undefined;
          if (reading?.stepId === event.stepId) reading = undefined;
          if (event.status === "engine-error" && event.error) {
            blocks.push({ kind: "notice", key: `step-err-${event.stepId}`, stepId: event.stepId, tone: "error", text: event.error });
          }
          if (event.status === "cut-off") {
            const maxTokens = stepMaxTokens.get(event.stepId);
            cutOff = { ...(event.cutOff !== undefined ? { limit: event.cutOff } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) };
          }
          break;
        case "run-end":
          status = event.status;
          endedAt = event.at;
          if (event.error) error = event.error;
          break;
        default:
          break;
      }
    }
  };
  const turn = (): AssistantTurn => {
    // Calls still "running" when a run is over were cut off by a stop or a failure.
    if (status !== "running") {
      for (const [id, card] of cards) {
        if (card.status === "running" || card.status === "writing") replaceCard({ ...cards.get(id)!, status: card.status === "running" ? "aborted" : "not-run" });
      }
    }
    const turn: AssistantTurn = { kind: "assistant", key: `run-${runId}`, runId, blocks: blocks.slice(), status, steps, protocols: protocols.slice(), startedAt: startedAt ?? 0 };
    if (error !== undefined) turn.error = error;
    if (cutOff !== undefined) turn.cutOff = cutOff;
    if (endedAt !== undefined) turn.endedAt = endedAt;
    if (status === "running" && reading) turn.readingPrompt = reading;
    return turn;
  };
  return { add, turn };
}

interface RunSlice {
  runId: string;
  events: LoopEvent[];
  given?: Array<Extract<ChatMessage, { role: "user" | "assistant" }>>;
}

/** What a branch run (a re-run of a step) maps to: the chat shows the conversation, not its experiments. */
const BRANCH = "\u0000branch";

/** Groups the log by top-level run, in order of appearance. */
function groupRuns(events: readonly LoopEvent[], runs: RunSlice[], byId: Map<string, RunSlice>, topOf: Map<string, string>, from: number): void {
  for (let i = from; i < events.length; i += 1) {
    const event = events[i]!;
    if (event.type === "run-start" && event.branch) topOf.set(event.runId, BRANCH);
    const top = topRunOf(event, topOf);
    if (top === BRANCH) continue;
    let slice = byId.get(top);
    if (!slice) {
      slice = { runId: top, events: [] };
      byId.set(top, slice);
      runs.push(slice);
    }
    slice.events.push(event);
    if (event.type === "run-start" && !event.parent && event.runId === top) {
      const given = givenTurns(event.messages);
      if (given.length > 0) slice.given = given;
    }
  }
}

function itemsOf(slice: RunSlice, turn: AssistantTurn): ChatItem[] {
  const given: ChatItem[] = (slice.given ?? []).map((message, index) =>
    message.source
      ? { kind: "user", key: `given-${slice.runId}-${index}`, content: message.content, role: message.role, source: message.source }
      : { kind: "user", key: `user-${slice.runId}`, content: message.content },
  );
  return [...given, turn];
}

/** The whole chat, from scratch. */
export function deriveChat(events: readonly LoopEvent[], liveRunId: string | null = null): ChatItem[] {
  const runs: RunSlice[] = [];
  groupRuns(events, runs, new Map(), new Map(), 0);
  return runs.flatMap((slice) => itemsOf(slice, deriveAssistantTurn(slice.runId, slice.events, slice.runId === liveRunId)));
}

/**
 * A memoising deriver for an append-only log: each call processes only the new events, and only
 * runs that received events (or whose liveness changed) are derived again.
 */
export function createChatDeriver(): (events: readonly LoopEvent[], liveRunId: string | null) => ChatItem[] {
  let source: readonly LoopEvent[] | null = null;
  let processed = 0;
  let runs: RunSlice[] = [];
  let byId = new Map<string, RunSlice>();
  let topOf = new Map<string, string>();
  const cache = new Map<string, { count: number; live: boolean; items: ChatItem[] }>();
  // The live run's turn, folded as its events come (a finished run is derived once, from scratch).
  let liveFold: { runId: string; fold: AssistantTurnFold; count: number } | null = null;
  const liveTurn = (slice: RunSlice): AssistantTurn => {
    if (liveFold?.runId !== slice.runId || liveFold.count > slice.events.length) liveFold = { runId: slice.runId, fold: assistantTurnFold(slice.runId, true), count: 0 };
    liveFold.fold.add(slice.events, liveFold.count);
    liveFold.count = slice.events.length;
    return liveFold.fold.turn();
  };
  let result: ChatItem[] = [];
  let resultLive: string | null = null;

  return (events, liveRunId) => {
    const continues = source !== null && events.length >= processed && (processed === 0 || events[0] === source[0]) && events[processed - 1] === source[processed - 1];
    if (!continues) {
      processed = 0;
      runs = [];
      byId = new Map();
      topOf = new Map();
      cache.clear();
      liveFold = null;
    }
    source = events;
    if (continues && processed === events.length && resultLive === liveRunId) return result;
    groupRuns(events, runs, byId, topOf, processed);
    processed = events.length;
    resultLive = liveRunId;
    result = runs.flatMap((slice) => {
      const live = slice.runId === liveRunId;
      const hit = cache.get(slice.runId);
      if (hit && hit.count === slice.events.length && hit.live === live) return hit.items;
      const items = itemsOf(slice, live ? liveTurn(slice) : deriveAssistantTurn(slice.runId, slice.events, false));
      cache.set(slice.runId, { count: slice.events.length, live, items });
      return items;
    });
    return result;
  };
}
