// Re-reads a step's recorded raw output with another protocol, or strictly (no repairs, no
// lenient readings), without generating anything, and says in words how the result differs from
// what was recorded. Pure: the debugger shows it beside the recorded parse; nothing is saved.
import { collectParse, parseChunks, type ParseResult } from "toolcall-middleware/parser/collect.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { derivedProtocol } from "toolcall-middleware/derive/derived-protocol.ts";
import type { DerivedFormat } from "toolcall-middleware/derive/derive-format.ts";
import type { ParseEvent, Protocol, ToolCall, ToolSpec } from "toolcall-middleware/types.ts";

export interface ReparseInput {
  rawOutput: string;
  tools: ToolSpec[];
  /** A registered protocol's name, or the name given to `derived`. */
  protocol: string;
  /** No repairs and no lenient readings: a call must be written as the protocol writes calls. */
  strict: boolean;
  /**
   * Read by a format derived from the model's own chat template instead of a registered protocol:
   * plain data (it goes to the re-read's worker), made into a protocol there. Only its reading is
   * used, so no template renders here.
   */
  derived?: DerivedFormat;
}

/** The protocol a re-read reads with: the derived format's, or the registry's by name. */
function reparseProtocol(input: Pick<ReparseInput, "protocol" | "derived">): Protocol | undefined {
  return input.derived ? derivedProtocol(input.derived, { name: input.protocol }) : getProtocol(input.protocol);
}

export interface StrictRefusal {
  callId: string;
  name: string;
  reason: string;
}

export interface Reparse {
  protocol: string;
  strict: boolean;
  events: ParseEvent[];
  result: ParseResult;
  /** Calls strict mode refused, and why (empty when not strict). */
  refused: StrictRefusal[];
  /** Calls found only leniently (repaired, or not in the protocol's own form), strict or not. */
  lenient: StrictRefusal[];
  error?: string;
  /** The markers of the protocol read with (what the explanation checks an unread call's opener against). */
  reservedMarkers?: readonly string[];
}

export type DifferenceKind = "call-added" | "call-removed" | "call-renamed" | "arguments-changed" | "errors-changed" | "repairs-changed" | "text-changed" | "reasoning-changed";

export interface ParseDifference {
  kind: DifferenceKind;
  text: string;
}

const EMPTY: ParseResult = { text: "", reasoning: "", calls: [], errors: [], repairs: [] };

export function reparse(input: ReparseInput): Reparse {
  const protocol = reparseProtocol(input);
  if (!protocol) return { protocol: input.protocol, strict: input.strict, events: [], result: EMPTY, refused: [], lenient: [], error: `No protocol is registered as "${input.protocol}".` };
  let events: ParseEvent[];
  try {
    events = parseChunks(protocol, input.tools, input.rawOutput === "" ? [] : [input.rawOutput]);
  } catch (thrown) {
    return { protocol: protocol.name, strict: input.strict, events: [], result: EMPTY, refused: [], lenient: [], error: `The ${protocol.name} parser failed: ${thrown instanceof Error ? thrown.message : String(thrown)}` };
  }
  const result = collectParse(events);
  const lenient = strictRefusals(protocol, input.rawOutput, events);
  const reservedMarkers = protocol.reservedMarkers ?? [];
  if (!input.strict) return { protocol: protocol.name, strict: false, events, result, refused: [], lenient, reservedMarkers };
  return { protocol: protocol.name, strict: true, events, result: withoutRefused(result, lenient), refused: lenient, lenient, reservedMarkers };
}

/**
 * A parse read strictly (the debugger's re-parse and the playground's strict switch): calls
 * that needed a repair or are not in the protocol's own form are dropped, each with an error
 * of kind "strict" saying why.
 */
export function readStrictly(protocol: Protocol, rawOutput: string, events: ParseEvent[], result: ParseResult): { result: ParseResult; refused: StrictRefusal[] } {
  const refused = strictRefusals(protocol, rawOutput, events);
  return { result: withoutRefused(result, refused), refused };
}

function withoutRefused(result: ParseResult, refused: readonly StrictRefusal[]): ParseResult {
  const refusedIds = new Set(refused.map((r) => r.callId));
  return {
    ...result,
    calls: result.calls.filter((call) => !refusedIds.has(call.id)),
    errors: [...result.errors, ...refused.map((r) => ({ id: r.callId, kind: "strict", message: r.reason, raw: "" }))],
  };
}

/** Calls strict mode does not accept: repaired ones, and ones not written in the protocol's own form. */
function strictRefusals(protocol: Protocol, rawOutput: string, events: ParseEvent[]): StrictRefusal[] {
  const refused: StrictRefusal[] = [];
  const repairsOf = new Map<string, string[]>();
  for (const event of events) if (event.type === "repair" && event.id !== undefined) repairsOf.set(event.id, [...(repairsOf.get(event.id) ?? []), event.message]);
  for (const event of events) {
    if (event.type !== "tool-call-end") continue;
    const { call } = event;
    const repairs = repairsOf.get(call.id);
    if (repairs) {
      refused.push({ callId: call.id, name: call.name, reason: `the ${call.name} call needed ${repairs.length === 1 ? "a repair" : `${repairs.length} repairs`} (${repairs.join("; ")})` });
      continue;
    }
    const written = rawOutput.slice(event.span.start, event.span.end);
    const form = formMismatch(protocol, call, written);
    if (form) refused.push({ callId: call.id, name: call.name, reason: form });
  }
  return refused;
}

/** The call's opening: the protocol marker it starts with (if any) and the form of what follows. */
interface CallShape {
  marker: string | undefined;
  body: "JSON" | "tags" | "text" | "nothing";
}

function shapeOf(protocol: Protocol, written: string): CallShape {
  const text = written.trimStart();
  const marker = (protocol.reservedMarkers ?? []).filter((m) => text.startsWith(m)).sort((a, b) => b.length - a.length)[0];
  const rest = (marker ? text.slice(marker.length) : text).trimStart();
  const first = rest.charAt(0);
  const body = first === "" ? "nothing" : first === "{" || first === "[" || first === "`" ? "JSON" : first === "<" ? "tags" : "text";
  return { marker, body };
}

/** Why a call is not in the protocol's own form (compared with how the protocol writes that call), or undefined. */
export function formMismatch(protocol: Protocol, call: ToolCall, written: string): string | undefined {
  let canonical: string;
  try {
    canonical = protocol.renderAssistant({ role: "assistant", content: "", toolCalls: [call] });
  } catch {
    return undefined;
  }
  const own = shapeOf(protocol, canonical);
  const seen = shapeOf(protocol, written);
  if (own.marker === seen.marker && own.body === seen.body) return undefined;
  const where = seen.marker ? `the \`${seen.marker}\` body` : "the call";
  return `${where} is ${seen.body}, which ${protocol.name} reads only as a lenient fallback (it writes ${own.marker ? `\`${own.marker}\` then ` : ""}${own.body})`;
}

/** Errors and refusals an explanation names, one by one; the rest are counted. */
export const EXPLAINED_ERRORS = 5;
/** Call differences listed one by one; the rest are counted. */
export const LISTED_DIFFERENCES = 50;

/** The first `n` of a list, and "… and N more" after them when it is longer. */
function firstOf(items: readonly string[], n: number): string[] {
  const first = items.slice(0, n).map(clip);
  return items.length <= n ? first : [...first, `… and ${(items.length - n).toLocaleString("en-US")} more`];
}

/** The longest a listed error or reason is shown (a message may quote the output). */
export const SHOWN_MESSAGE_CHARS = 300;

function clip(text: string): string {
  return text.length <= SHOWN_MESSAGE_CHARS ? text : `${text.slice(0, SHOWN_MESSAGE_CHARS)}…`;
}

/** "a, b" for a short list of kinds; counted kinds ("3 × invalid-json, b") once one repeats. */
function countKinds(kinds: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => (n === 1 ? kind : `${n.toLocaleString("en-US")} × ${kind}`)).join(", ");
}

function listFirst<T>(differences: ParseDifference[], items: readonly T[], kind: DifferenceKind, text: (item: T) => string): void {
  const room = Math.max(0, LISTED_DIFFERENCES - differences.length);
  for (const item of items.slice(0, room)) differences.push({ kind, text: text(item) });
  if (items.length > room) differences.push({ kind, text: `… and ${(items.length - room).toLocaleString("en-US")} more` });
}

function describeCall(call: ToolCall): string {
  return `${call.name}(${JSON.stringify(call.arguments)})`;
}

/** How the re-read differs from the recorded parse, call by call, then errors, repairs and text. */
export function compareParses(recorded: ParseResult, reread: ParseResult): ParseDifference[] {
  const differences: ParseDifference[] = [];
  const shared = Math.min(recorded.calls.length, reread.calls.length);
  const changed: ParseDifference[] = [];
  for (let i = 0; i < shared; i++) {
    const before = recorded.calls[i]!;
    const after = reread.calls[i]!;
    if (before.name !== after.name) changed.push({ kind: "call-renamed", text: `call ${i + 1} is ${after.name} instead of ${before.name}` });
    else if (JSON.stringify(before.arguments) !== JSON.stringify(after.arguments)) {
      changed.push({ kind: "arguments-changed", text: `call ${i + 1} (${after.name}): arguments ${JSON.stringify(before.arguments)} → ${JSON.stringify(after.arguments)}` });
    }
  }
  differences.push(...changed.slice(0, LISTED_DIFFERENCES));
  if (changed.length > LISTED_DIFFERENCES) differences.push({ kind: changed[LISTED_DIFFERENCES]!.kind, text: `… and ${(changed.length - LISTED_DIFFERENCES).toLocaleString("en-US")} more changed calls` });
  listFirst(differences, recorded.calls.slice(shared), "call-removed", (call) => `no ${describeCall(call)}`);
  listFirst(differences, reread.calls.slice(shared), "call-added", (call) => `a new call ${describeCall(call)}`);
  const errorKinds = (r: ParseResult) => countKinds(r.errors.map((e) => e.kind));
  if (errorKinds(recorded) !== errorKinds(reread)) {
    differences.push({ kind: "errors-changed", text: `parse errors: ${errorKinds(recorded) || "none"} → ${errorKinds(reread) || "none"}` });
  }
  if (recorded.repairs.length !== reread.repairs.length) differences.push({ kind: "repairs-changed", text: `repairs: ${recorded.repairs.length} → ${reread.repairs.length}` });
  if (recorded.text !== reread.text) differences.push({ kind: "text-changed", text: `text: ${recorded.text.length} → ${reread.text.length} characters` });
  if (recorded.reasoning !== reread.reasoning) differences.push({ kind: "reasoning-changed", text: `reasoning: ${recorded.reasoning.length} → ${reread.reasoning.length} characters` });
  return differences;
}

/**
 * One sentence on what the re-read made of the output, led by "as <protocol>": e.g.
 * "as xml (strict): no call; the `<tool_call>` body is JSON, which xml reads only as a lenient fallback".
 */
export function explainReparse(recorded: ParseResult, recordedEvents: readonly ParseEvent[], rawOutput: string, again: Reparse): string {
  const label = `as ${again.protocol}${again.strict ? " (strict)" : ""}`;
  if (again.error) return `${label}: ${again.error}`;
  const differences = compareParses(recorded, again.result);
  const leniently = !again.strict && again.lenient.length > 0 ? ` Read leniently: ${firstOf(again.lenient.map((l) => l.reason), EXPLAINED_ERRORS).join("; ")}.` : "";
  if (differences.length === 0) return `${label}: the same calls, errors and text as recorded.${leniently}`;
  const calls = again.result.calls.length;
  const head = calls === 0 ? "no call" : `${calls} call${calls === 1 ? "" : "s"}`;
  const reasons: string[] = [];
  for (const reason of firstOf(again.refused.map((refusal) => refusal.reason), EXPLAINED_ERRORS)) reasons.push(reason);
  if (calls < recorded.calls.length && again.refused.length === 0) {
    // What the recorded calls were written as, and whether this protocol knows that marker.
    const firstEnd = recordedEvents.find((e): e is Extract<ParseEvent, { type: "tool-call-end" }> => e.type === "tool-call-end");
    const reserved = again.reservedMarkers;
    if (firstEnd && reserved) {
      const written = rawOutput.slice(firstEnd.span.start, firstEnd.span.end).trimStart();
      const opener = /^(<\|?[^\s>]{1,40}\|?>|\[[A-Z_]{2,20}\]|<｜[^｜]{1,40}｜>)/.exec(written)?.[1];
      const mentioned = firstOf(again.result.errors.map((e) => `${e.kind}: ${e.message}`), EXPLAINED_ERRORS);
      if (opener && !reserved.includes(opener)) reasons.push(`\`${opener}\` is not a marker of ${again.protocol}, which reads it as text`);
      else if (mentioned.length > 0) reasons.push(`${again.protocol} could not read the call (${mentioned.join("; ")})`);
      else reasons.push(`${again.protocol} reads the call's text as text`);
    }
  }
  // Removed calls and strict refusals are what the reasons already say.
  const rest = differences
    .filter((d) => (d.kind !== "call-removed" || reasons.length === 0) && (d.kind !== "errors-changed" || again.refused.length === 0))
    .map((d) => d.text);
  return `${label}: ${head}${reasons.length > 0 ? `; ${reasons.join("; ")}` : ""}${rest.length > 0 ? ` (${rest.join("; ")})` : ""}.${leniently}`;
}

/** Parse events a re-read sends to the page, and errors it lists, one by one; the rest are counted. */
export const SHOWN_EVENTS = 200;
export const SHOWN_ERRORS = 50;

export interface ReparseViewInput extends ReparseInput {
  /** What the step's recorded parse found. */
  recorded: ParseResult;
  /** The recorded parse's first tool-call-end (what the explanation quotes), if any. */
  recordedCallEnd?: ParseEvent;
}

/** What "Parse as…" shows, bounded (made in a worker: a large output takes seconds to re-read). */
export interface ReparseView {
  protocol: string;
  strict: boolean;
  calls: ToolCall[];
  /** The first SHOWN_EVENTS parse events, and how many there are. */
  events: ParseEvent[];
  eventCount: number;
  decisionCount: number;
  /** The first SHOWN_ERRORS errors in words, and how many there are. */
  errors: string[];
  errorCount: number;
  differences: ParseDifference[];
  explanation: string;
}

export function reparseView(input: ReparseViewInput): ReparseView {
  const again = reparse(input);
  const { recorded } = input;
  const decisions = again.events.reduce((n, e) => (e.type !== "text" && e.type !== "reasoning" && e.type !== "tool-call-delta" ? n + 1 : n), 0);
  return {
    protocol: again.protocol,
    strict: again.strict,
    calls: again.result.calls,
    events: again.events.slice(0, SHOWN_EVENTS),
    eventCount: again.events.length,
    decisionCount: decisions,
    errors: again.result.errors.slice(0, SHOWN_ERRORS).map((e) => clip(`${e.kind}: ${e.message}`)),
    errorCount: again.result.errors.length,
    differences: compareParses(recorded, again.result),
    explanation: explainReparse(recorded, input.recordedCallEnd ? [input.recordedCallEnd] : [], input.rawOutput, again),
  };
}
