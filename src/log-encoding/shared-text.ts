// The event log as it is saved and exported: each long text written once. A run's log repeats
// its model's reply: the output deltas hold it, each text/reasoning parse event holds its piece
// again (beside a span that already says where the piece is in the output), the assistant
// message holds it again, and every later step-start and the run-end repeat the conversation.
// Written out as is, a 1,000,000-character reply took about six times that.
//
// This encoding keeps the events as they are and replaces, in the fields where text repeats,
// a string by a reference to text written before it:
//   {"$": "span"}                           a text/reasoning parse event's text, or a tool-call
//                                           delta's argumentsDelta: its step's output at the
//                                           event's span;
//   {"$": "str", "n": N}                    the N-th long string written out in full (numbered in
//                                           the order they appear);
//   {"$": "step", "k": K, "of": part}       what the K-th step (in the order steps started) has
//                                           so far: its "output" (the deltas), "text" or
//                                           "reasoning" (its parse events' texts, joined);
//   {"$": "prefix", "n": N, "keep": M, "plus": S}   the N-th long string's first M characters,
//                                           then S (a step's prompt: the one before it, grown);
//                                           S a string, or a list of strings and "str"/"step"
//                                           references (the turns its template messages hold);
//   {"$": "call", "n": N}                   in place of a call ({id, name, arguments}: a
//                                           reference has no "id"), the N-th call of 256 JSON
//                                           characters or more written out in full.
// And a stream of small events is written as one record: consecutive output deltas (each at the
// end of its step's output) and text/reasoning parse events (each its output's text at its span)
// of one step become
//   {"$": "stream", "runId", "stepId", "parent"?, "at": T, "items": [[dt, text] | [dt, text, tokens] | [dt, start, end] | [dt, start, end, 1] | [dt, start, end, id]]}
// (a delta; a delta with its tokens' probabilities; a text parse event; a reasoning one; a
// tool-call delta of call `id`; dt: milliseconds after the item before), as a
// model streaming a token at a time would otherwise spend about 200 characters of field names
// and ids on every 4 characters of text. A record of the log is then an event or a stream.
//
// The reader keeps, event by event, exactly what the writer kept, so a reference means the
// same text on both sides; the writer only writes a reference after resolving it and finding
// the very string it replaces, so decoding gives back the same events (deep-equal).
//
// A delta's `tokens` (each token's probability and top alternatives) are written compactly,
// by shared-text-tokens.ts: token texts as lengths of the delta's text, alternatives and
// probabilities seen before in the step by their number. Exact as well.
//
// Reading a file is reading untrusted input: a reference that points nowhere, out of range or
// at a text of the wrong kind is an issue with its place in the log (never an exception), and a
// budget bounds how many characters references may stand for in all (a small file could
// otherwise ask for one long text a hundred thousand times). Nothing is allocated from a
// recorded number: a slice is checked against the text it is cut from first.
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { decodeTokensSteps, encodeTokens, encodeTokensSteps, noteTokens, noteTokensSteps, runSteps, StepTokenTables, TokenCodeError } from "./shared-text-tokens.ts";

/**
 * The tokens of one delta the paced forms (`encodeAllPaced`, `decodePaced`) write or read
 * between two checkpoints: a delta can hold 250,000 tokens with alternatives, and even 10,000
 * took 200–400 ms in one task on a busy machine. What is written or read is the same either way.
 */
export const TOKENS_PER_PIECE = 500;

/** Awaited between pieces of work by the paced forms; it gives the page a turn when it sees fit. */
export type Checkpoint = () => Promise<void>;

/** Runs a stepwise form to its end, awaiting `checkpoint` at each of its pauses. */
async function runPaced<T>(steps: Generator<void, T>, checkpoint: Checkpoint): Promise<T> {
  let step = steps.next();
  while (!step.done) {
    await checkpoint();
    step = steps.next();
  }
  return step.value;
}

/** Strings shorter than this are written as they are: a reference would save little. */
export const MIN_SHARED_CHARS = 256;

type Part = "output" | "text" | "reasoning";
const PARTS: readonly Part[] = ["output", "text", "reasoning"];

type StrRef = { $: "str"; n: number };
type StepRef = { $: "step"; k: number; of: Part };
type Ref = { $: "span" } | StrRef | StepRef | { $: "prefix"; n: number; keep: number; plus: string | (string | StrRef | StepRef)[] } | { $: "call"; n: number };

/** Calls nested deeper than this are written as they are (parsers refuse arguments 64 deep). */
const MAX_CALL_DEPTH = 80;

/** What one field holds: text shared between events, a step's prompt, or a parse event's text. */
type FieldKind = "shared" | "prompt" | "span" | "call" | "tokens";

export interface DecodeIssue {
  /** The record's place in the encoded log. */
  index: number;
  path: PropertyKey[];
  message: string;
}

class RefError extends Error {}

/** Text kept as the pieces it arrived in (no copy); a slice or the whole is joined on request. */
class Pieces {
  readonly pieces: string[] = [];
  private readonly starts: number[] = [];
  length = 0;
  private whole: string | undefined;
  /**
   * A delta wrote over what was there (the loop only ever appends; a file may not): the text is
   * no longer followed, and nothing refers to it. Rewriting it in place would cost a copy of
   * the whole text per delta, which a file of many such deltas could make quadratic.
   */
  rewritten = false;

  push(text: string): void {
    if (text === "") return;
    this.starts.push(this.length);
    this.pieces.push(text);
    this.length += text.length;
    this.whole = undefined;
  }

  /** Writes `text` at `offset`: at the end it is followed; anywhere else the text is given up. */
  write(offset: number, text: string): void {
    if (this.rewritten) return;
    if (offset === this.length) return this.push(text);
    this.rewritten = true;
    this.pieces.length = 0;
    this.starts.length = 0;
    this.whole = undefined;
  }

  join(): string {
    if (this.whole === undefined) {
      this.whole = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join("");
      if (this.pieces.length > 1) {
        // Keep the joined text as the one piece: later slices and joins are cheap.
        this.pieces.length = 0;
        this.starts.length = 0;
        this.pieces.push(this.whole);
        this.starts.push(0);
      }
    }
    return this.whole;
  }

  /** The text at [start, end), or undefined when that is not a range of it. */
  slice(start: unknown, end: unknown): string | undefined {
    if (this.rewritten || !Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return undefined;
    const from = start as number;
    const to = end as number;
    if (from < 0 || from > to || to > this.length) return undefined;
    if (from === to) return "";
    // The piece holding `from`, found by bisection.
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= from) low = mid;
      else high = mid - 1;
    }
    let out = "";
    for (let i = low; i < this.pieces.length && this.starts[i]! < to; i += 1) {
      const piece = this.pieces[i]!;
      const at = this.starts[i]!;
      out += at >= from && at + piece.length <= to ? piece : piece.slice(Math.max(0, from - at), to - at);
    }
    return out;
  }

  /** Whether `text` is exactly this text, compared piece by piece (nothing joined). */
  equals(text: string): boolean {
    if (this.rewritten || text.length !== this.length) return false;
    if (this.whole !== undefined) return this.whole === text;
    for (let i = 0; i < this.pieces.length; i += 1) if (!text.startsWith(this.pieces[i]!, this.starts[i])) return false;
    return true;
  }
}

class StepState {
  readonly output = new Pieces();
  readonly text = new Pieces();
  readonly reasoning = new Pieces();
  /** Its tokens' distinct alternatives and probabilities (see shared-text-tokens.ts). */
  readonly tokens = new StepTokenTables();
  part(of: Part): Pieces {
    return of === "output" ? this.output : of === "text" ? this.text : this.reasoning;
  }
}

interface StreamRecord {
  $: "stream";
  runId: string;
  stepId: string;
  parent?: unknown;
  at: number;
  items: unknown[][];
}

/** A stream record being written: its items so far, and the event alone, should it stay one. */
interface Stream {
  record: StreamRecord;
  items: unknown[][];
  lastAt: number;
  single: Record<string, unknown>;
}

/** A nested run's parent, exactly {runId, stepId, callId} (strings): what a stream can repeat for each item. */
function isPlainParent(value: unknown): value is { runId: string; stepId: string; callId: string } {
  return (
    isRecord(value) &&
    Object.keys(value).length === 3 &&
    typeof value.runId === "string" &&
    typeof value.stepId === "string" &&
    typeof value.callId === "string"
  );
}

function sameParent(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  return x.runId === y.runId && x.stepId === y.stepId && x.callId === y.callId;
}

/**
 * What a long string is looked up by. V8 hashes a string of more than 16,383 characters by its
 * length alone, so a map keyed by such strings compares every one of the same length: a file
 * of many equal-length texts that differ only at their end would make each look-up read them
 * all. Longer strings are keyed by two hashes of every character instead; a key that matches
 * another text is caught where the reference is checked against the value it replaces.
 */
function keyOf(value: string): string {
  if (value.length <= 16_383) return value;
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b + c, 0x5bd1e995) ^ (b >>> 15);
  }
  return `\u0000${value.length}:${a >>> 0}:${b >>> 0}`;
}

/**
 * A call's JSON, by which a repeat of it is found; undefined for what is not an object, nests
 * deeper than MAX_CALL_DEPTH (serialising it could overflow the stack, and where it does
 * differs between the page and a worker) or is short.
 */
function callKey(call: unknown): string | undefined {
  if (!isRecord(call) || !withinDepth(call, MAX_CALL_DEPTH)) return undefined;
  const key = JSON.stringify(call);
  return key.length >= MIN_SHARED_CHARS ? key : undefined;
}

/** Whether objects and arrays nest at most `limit` deep in `value` (walked without recursion). */
function withinDepth(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth > limit) return false;
    for (const child of Array.isArray(item) ? item : Object.values(item)) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stepKey(runId: unknown, stepId: unknown): string {
  return `${String(runId)}\u241f${String(stepId)}`;
}

/** How many characters at the start of `a` and `b` are the same. */
function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  const block = 4096;
  let at = 0;
  // Whole blocks first (a string comparison each), then character by character.
  while (at + block <= limit && a.slice(at, at + block) === b.slice(at, at + block)) at += block;
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  return at;
}

/**
 * What a writer and a reader of one log keep in step, event by event. Encoding an event and
 * decoding its encoding leave the state the same, so one object can read a stored log and then
 * write what follows it.
 */
export class SharedTextCodec {
  private readonly strings: string[] = [];
  /** Where a long string can be found: in `strings`, or as a step's part. */
  private readonly known = new Map<string, StrRef | StepRef>();
  private lookUp(value: string): StrRef | StepRef | undefined {
    return this.known.get(keyOf(value));
  }
  private readonly steps: StepState[] = [];
  private readonly stepByKey = new Map<string, number>();
  private readonly lastStepOfRun = new Map<string, number>();
  private readonly lastPromptOfRun = new Map<string, number>();
  private lastPrompt: number | undefined;
  /** Calls written in full (their JSON 256 characters or more), and the size of each. */
  private readonly calls: unknown[] = [];
  private readonly callSizes: number[] = [];
  private readonly callByKey = new Map<string, number>();
  /** The long texts the event being written holds so far (written, or referred to), in order. */
  private readonly seenInEvent: (StrRef | StepRef)[] = [];
  /** Characters references may still stand for while decoding. */
  private budget: number;
  /** What is said when the budget runs out (it names the bound). */
  private readonly overBudget: string;
  /** Events encoded or decoded so far. */
  count = 0;
  /**
   * A delta's tokens the paced forms have written or read already, in pieces, for the event at
   * hand (`given`: its tokens as given; `result`: as written or read; `error`: why they could not
   * be read): the step's tables have taken them in, and the event's encoding or decoding uses them.
   */
  private ready: { given: unknown; result: unknown; error?: string } | null = null;

  constructor({ referencedChars = Number.POSITIVE_INFINITY, bound }: { referencedChars?: number; bound?: string } = {}) {
    this.budget = referencedChars;
    this.overBudget = `the references of this file stand for more text than the lab reads from one file${Number.isFinite(referencedChars) ? ` (${referencedChars.toLocaleString("en-US")} characters${bound ? `: ${bound}` : ""})` : ""}`;
  }

  /** The event as it is written out. The event itself is not changed. */
  encode(event: LoopEvent): unknown {
    const e = event as unknown as Record<string, unknown>;
    this.seenInEvent.length = 0;
    if (e.type === "message") this.noteReply(e);
    const encoded = this.mapFields(e, (value, kind) => this.encodeField(value, kind, e));
    this.observe(e);
    return encoded;
  }

  /** The events as they are written out: each one encoded, streams of small ones packed. */
  encodeAll(events: readonly LoopEvent[]): unknown[] {
    return runSteps(this.encodeAllSteps(events, Number.POSITIVE_INFINITY));
  }

  /**
   * What `encodeAll` writes, awaiting `checkpoint` before each event and between pieces of
   * `TOKENS_PER_PIECE` tokens of a delta, so no stretch of the work is more than that.
   */
  encodeAllPaced(events: readonly LoopEvent[], checkpoint: Checkpoint, tokensPerPiece = TOKENS_PER_PIECE): Promise<unknown[]> {
    return runPaced(this.encodeAllSteps(events, tokensPerPiece), checkpoint);
  }

  /** `encodeAll`, pausing before each event and after every `every` tokens of a delta. */
  private *encodeAllSteps(events: readonly LoopEvent[], every: number): Generator<void, unknown[]> {
    const out: unknown[] = [];
    let stream: Stream | null = null;
    const close = () => {
      if (stream) out.push(stream.items.length > 1 ? stream.record : stream.single);
      stream = null;
    };
    try {
      for (const event of events) {
        if (every !== Number.POSITIVE_INFINITY) yield;
        yield* this.writeTokensAhead(event as unknown as Record<string, unknown>, every);
        const item = this.streamItem(event as unknown as Record<string, unknown>, stream);
        if (item === null) {
          close();
          out.push(this.encode(event));
          this.ready = null;
          continue;
        }
        if (item.continues === false) {
          close();
          stream = item.start;
        } else {
          (stream as Stream | null)?.items.push(item.entry);
          if (stream) stream.lastAt = item.at;
        }
        this.observe(event as unknown as Record<string, unknown>);
        this.ready = null;
      }
    } finally {
      this.ready = null;
    }
    close();
    return out;
  }

  /**
   * A delta of more than `every` tokens: its tokens written now, in pieces, as the event's
   * encoding will write them (it runs `encodeTokens` exactly where this does: a delta with a list
   * of tokens, of a step whose output is followed, with a text), left in `ready` for it.
   */
  private *writeTokensAhead(e: Record<string, unknown>, every: number): Generator<void, void> {
    if (e.type !== "output-delta" || !Array.isArray(e.tokens) || e.tokens.length <= every || typeof e.text !== "string") return;
    const step = this.stepOf(e);
    if (!step || step.output.rewritten) return;
    const result = yield* encodeTokensSteps(step.tokens, e.text, e.tokens, every);
    // Not shaped as recorded: written as they are, and taken into the tables as observe would.
    if (result === undefined) yield* noteTokensSteps(step.tokens, e.tokens, every);
    this.ready = { given: e.tokens, result };
  }

  /** A delta's tokens as written: what `writeTokensAhead` wrote for it, else written now. */
  private writeTokens(step: StepState, text: string, tokens: readonly unknown[]): unknown {
    return this.ready?.given === tokens ? this.ready.result : encodeTokens(step.tokens, text, tokens);
  }

  /**
   * How `event` goes into a stream record: as the next item of `stream`, or as the start of a
   * new one; null when it cannot (another kind of event, or one the items cannot say exactly).
   */
  private streamItem(e: Record<string, unknown>, stream: Stream | null): { continues: true; entry: unknown[]; at: number } | { continues: false; start: Stream } | null {
    const step = this.stepOf(e);
    if (!step || typeof e.at !== "number" || !Number.isFinite(e.at) || typeof e.runId !== "string" || typeof e.stepId !== "string") return null;
    const keys = Object.keys(e);
    const parent = e.parent;
    if (parent !== undefined && !isPlainParent(parent)) return null;
    const base = parent === undefined ? 4 : 5;
    let tail: unknown[];
    /** The event alone, as `encode` would write it (made only when it starts a stream). */
    let single: () => Record<string, unknown>;
    if (step.output.rewritten) return null;
    if (e.type === "output-delta") {
      if (typeof e.text !== "string" || e.offset !== step.output.length) return null;
      if (keys.length === base + 2) {
        tail = [e.text];
        single = () => e;
      } else if (keys.length === base + 3 && Array.isArray(e.tokens)) {
        // Last, as it takes the tokens into the step's tables: this event is now written either way.
        const tokens = this.writeTokens(step, e.text, e.tokens);
        if (tokens === undefined) return null;
        tail = [e.text, tokens];
        single = () => ({ ...e, tokens });
      } else return null;
    } else if (e.type === "parse") {
      const parse = e.event;
      if (keys.length !== base + 1 || !isRecord(parse)) return null;
      const span = parse.span;
      if (!isRecord(span) || Object.keys(span).length !== 2) return null;
      if ((parse.type === "text" || parse.type === "reasoning") && Object.keys(parse).length === 3) {
        if (typeof parse.text !== "string" || step.output.slice(span.start, span.end) !== parse.text) return null;
        tail = parse.type === "text" ? [span.start, span.end] : [span.start, span.end, 1];
        single = () => ({ ...e, event: { ...parse, text: { $: "span" } satisfies Ref } });
      } else if (parse.type === "tool-call-delta" && Object.keys(parse).length === 4 && typeof parse.id === "string") {
        if (typeof parse.argumentsDelta !== "string" || step.output.slice(span.start, span.end) !== parse.argumentsDelta) return null;
        tail = [span.start, span.end, parse.id];
        single = () => ({ ...e, event: { ...parse, argumentsDelta: { $: "span" } satisfies Ref } });
      } else {
        return null;
      }
    } else {
      return null;
    }
    const at = e.at;
    if (stream && stream.record.runId === e.runId && stream.record.stepId === e.stepId && sameParent(stream.record.parent, parent)) {
      const dt = at - stream.lastAt;
      if (stream.lastAt + dt === at) return { continues: true, entry: [dt, ...tail], at };
    }
    const record: StreamRecord = { $: "stream", runId: e.runId, stepId: e.stepId, ...(parent === undefined ? {} : { parent }), at, items: [[0, ...tail]] };
    return { continues: false, start: { record, items: record.items, lastAt: at, single: single() } };
  }

  /**
   * The events a record stands for (one, or a stream's), as recorded, from what `encodeAll`
   * wrote. Problems are added to `issues` (with `index`, the record's place) and the text in
   * question read as "".
   */
  decode(encoded: unknown, index: number, issues: DecodeIssue[]): unknown[] {
    return runSteps(this.decodeSteps(encoded, index, issues, Number.POSITIVE_INFINITY));
  }

  /** What `decode` reads, awaiting `checkpoint` between pieces of `TOKENS_PER_PIECE` tokens of a delta. */
  decodePaced(encoded: unknown, index: number, issues: DecodeIssue[], checkpoint: Checkpoint, tokensPerPiece = TOKENS_PER_PIECE): Promise<unknown[]> {
    return runPaced(this.decodeSteps(encoded, index, issues, tokensPerPiece), checkpoint);
  }

  private *decodeSteps(encoded: unknown, index: number, issues: DecodeIssue[], every: number): Generator<void, unknown[]> {
    try {
      if (isRecord(encoded) && encoded.$ === "stream") return yield* this.decodeStreamSteps(encoded, index, issues, every);
      if (isRecord(encoded)) yield* this.readTokensAhead(encoded, every);
      return [this.decodeEvent(encoded, index, issues)];
    } finally {
      this.ready = null;
    }
  }

  /** Takes a reference's characters from the budget (see `budget`). */
  private readonly spendOnTokens = (chars: number) => {
    this.budget -= chars;
    if (this.budget < 0) throw new RefError(this.overBudget);
  };

  /**
   * A delta record whose compact tokens hold more than `every`: read now, in pieces, as the
   * event's decoding would read them (`decodeField`, which takes them from `ready`).
   */
  private *readTokensAhead(e: Record<string, unknown>, every: number): Generator<void, void> {
    const value = e.tokens;
    if (e.type !== "output-delta" || !Array.isArray(value) || value.length <= every || isRecord(value[0]) || typeof e.text !== "string") return;
    const step = this.stepOf(e);
    if (!step) return;
    try {
      this.ready = { given: value, result: yield* decodeTokensSteps(step.tokens, e.text, value, this.spendOnTokens, every) };
    } catch (error) {
      if (!(error instanceof TokenCodeError) && !(error instanceof RefError)) throw error;
      this.ready = { given: value, result: "", error: error.message };
    }
  }

  private *decodeStreamSteps(record: Record<string, unknown>, index: number, issues: DecodeIssue[], every: number): Generator<void, unknown[]> {
    const { runId, stepId, parent, at, items } = record;
    const fail = (path: PropertyKey[], message: string) => {
      issues.push({ index, path, message });
      return [];
    };
    if (typeof runId !== "string" || typeof stepId !== "string" || typeof at !== "number" || !Array.isArray(items) || (parent !== undefined && !isPlainParent(parent))) {
      return fail([], `a stream record needs "runId" and "stepId" (strings), "at" (a number), "items" (an array) and at most a "parent" {runId, stepId, callId}`);
    }
    const step = this.stepOf(record);
    if (!step) return fail(["stepId"], "a stream of a step with no step-start before it");
    if (step.output.rewritten) return fail(["stepId"], "a stream of a step whose output a delta wrote over");
    const events: unknown[] = [];
    let time = at;
    for (const [i, item] of items.entries()) {
      const path = ["items", i];
      if (!Array.isArray(item) || typeof item[0] !== "number" || !Number.isFinite(item[0])) return fail(path, "an item is [dt, text], [dt, text, tokens], [dt, start, end], [dt, start, end, 1] or [dt, start, end, id]");
      time += item[0];
      const head = { runId, at: time, ...(parent === undefined ? {} : { parent }), stepId };
      if ((item.length === 2 || item.length === 3) && typeof item[1] === "string") {
        const event: Record<string, unknown> = { type: "output-delta", ...head, text: item[1], offset: step.output.length };
        if (item.length === 3) {
          try {
            event.tokens = yield* decodeTokensSteps(step.tokens, item[1], item[2], (chars) => {
              this.budget -= chars;
              if (this.budget < 0) throw new TokenCodeError(this.overBudget);
            }, every);
          } catch (error) {
            if (!(error instanceof TokenCodeError)) throw error;
            return fail([...path, 2], error.message);
          }
          // Read in pieces: the tables hold them, and observe need not walk them again in one go.
          if (every !== Number.POSITIVE_INFINITY) this.ready = { given: item[2], result: event.tokens };
        }
        this.observe(event);
        this.ready = null;
        events.push(event);
        continue;
      }
      if ((item.length === 3 || (item.length === 4 && (item[3] === 1 || typeof item[3] === "string"))) && Number.isSafeInteger(item[1]) && Number.isSafeInteger(item[2])) {
        const text = step.output.slice(item[1], item[2]);
        if (text === undefined) return fail(path, `refers to [${String(item[1])}, ${String(item[2])}) of the step's output, which is not within the ${step.output.length} characters it has so far`);
        this.budget -= text.length;
        if (this.budget < 0) return fail(path, this.overBudget);
        const span = { start: item[1], end: item[2] };
        const parse =
          typeof item[3] === "string"
            ? { type: "tool-call-delta", id: item[3], argumentsDelta: text, span }
            : { type: item.length === 3 ? "text" : "reasoning", text, span };
        const event = { type: "parse", ...head, event: parse };
        this.observe(event);
        events.push(event);
        continue;
      }
      return fail(path, "an item is [dt, text], [dt, text, tokens], [dt, start, end], [dt, start, end, 1] or [dt, start, end, id]");
    }
    return events;
  }

  private decodeEvent(encoded: unknown, index: number, issues: DecodeIssue[]): unknown {
    if (!isRecord(encoded)) {
      this.count += 1;
      return encoded;
    }
    const decoded = this.mapFields(encoded, (value, kind, path) => {
      try {
        return this.decodeField(value, kind, encoded);
      } catch (error) {
        if (!(error instanceof RefError)) throw error;
        issues.push({ index, path, message: error.message });
        return "";
      }
    });
    if (decoded.type === "message") this.noteReply(decoded);
    this.observe(decoded);
    return decoded;
  }

  /**
   * Calls `field` on each field where text repeats, and returns the event with what it
   * returned there (copying only the objects on the way). Anything not shaped as expected is
   * left as it is: the schema check after decoding says what is wrong with it.
   */
  private mapFields(e: Record<string, unknown>, field: (value: unknown, kind: FieldKind, path: PropertyKey[]) => unknown): Record<string, unknown> {
    const messageFields = (message: unknown, path: PropertyKey[], names: readonly string[]) => {
      if (!isRecord(message)) return message;
      let out = message;
      for (const name of names) {
        if (!(name in message) || message[name] === undefined) continue;
        const value = field(message[name], "shared", [...path, name]);
        if (value !== message[name]) {
          if (out === message) out = { ...message };
          out[name] = value;
        }
      }
      if (Array.isArray(message.toolCalls)) {
        const calls = message.toolCalls.map((call, i) => field(call, "call", [...path, "toolCalls", i]));
        if (calls.some((call, i) => call !== (message.toolCalls as unknown[])[i])) out = { ...out, toolCalls: calls };
      }
      return out;
    };
    const messageList = (list: unknown, path: PropertyKey[], names: readonly string[]) =>
      Array.isArray(list) ? list.map((message, i) => messageFields(message, [...path, i], names)) : list;
    const chat = ["content", "reasoning", "rawOutput"] as const;
    const template = ["content", "reasoning", "generated", "header"] as const;
    switch (e.type) {
      case "run-start": {
        const out: Record<string, unknown> = { ...e, messages: messageList(e.messages, ["messages"], chat) };
        if (e.toolSection !== undefined) out.toolSection = field(e.toolSection, "shared", ["toolSection"]);
        return out;
      }
      case "step-start":
        return {
          ...e,
          messages: messageList(e.messages, ["messages"], chat),
          templateMessages: messageList(e.templateMessages, ["templateMessages"], template),
          prompt: field(e.prompt, "prompt", ["prompt"]),
          template: field(e.template, "shared", ["template"]),
          // The model's own chat template, the same in every step of its model: written once.
          ...(e.modelChatTemplate !== undefined ? { modelChatTemplate: field(e.modelChatTemplate, "shared", ["modelChatTemplate"]) } : {}),
        };
      case "parse": {
        const parse = e.event;
        if (!isRecord(parse)) return e;
        if (parse.type === "text" || parse.type === "reasoning") return { ...e, event: { ...parse, text: field(parse.text, "span", ["event", "text"]) } };
        if (parse.type === "tool-call-delta") return { ...e, event: { ...parse, argumentsDelta: field(parse.argumentsDelta, "span", ["event", "argumentsDelta"]) } };
        if (parse.type === "tool-call-end") return { ...e, event: { ...parse, call: field(parse.call, "call", ["event", "call"]) } };
        return e;
      }
      case "tool-start":
        return { ...e, call: field(e.call, "call", ["call"]) };
      case "tool-end":
        return { ...e, content: field(e.content, "shared", ["content"]) };
      case "message":
        return { ...e, message: messageFields(e.message, ["message"], chat) };
      case "output-delta":
        return e.tokens === undefined ? e : { ...e, tokens: field(e.tokens, "tokens", ["tokens"]) };
      case "run-end":
        return { ...e, messages: messageList(e.messages, ["messages"], chat) };
      default:
        return e;
    }
  }

  private encodeField(value: unknown, kind: FieldKind, e: Record<string, unknown>): unknown {
    if (kind === "tokens") {
      const step = this.stepOf(e);
      // Only a delta at the end of its step's output: the reader's tables then match (observe takes the same).
      if (!step || step.output.rewritten || !Array.isArray(value) || typeof e.text !== "string") return value;
      return this.writeTokens(step, e.text, value) ?? value;
    }
    if (kind === "call") {
      const key = callKey(value);
      if (key === undefined) return value;
      const n = this.callByKey.get(keyOf(key));
      if (n !== undefined && callKey(this.calls[n]) === key) return { $: "call", n } satisfies Ref;
      this.rememberCall(value, key);
      return value;
    }
    if (typeof value !== "string") return value;
    if (kind === "span") {
      const parse = e.event as Record<string, unknown>;
      const span = parse.span as Record<string, unknown> | undefined;
      const step = this.stepOf(e);
      return step && span && step.output.slice(span.start, span.end) === value ? ({ $: "span" } satisfies Ref) : value;
    }
    if (value.length < MIN_SHARED_CHARS) return value;
    const ref = this.lookUp(value);
    if (ref && this.holds(ref, value)) {
      if (kind === "prompt" && ref.$ === "str") this.notePrompt(e.runId, ref.n);
      this.seenInEvent.push(ref);
      return ref;
    }
    const n = this.remember(value);
    this.seenInEvent.push({ $: "str", n });
    if (kind === "prompt") {
      const base = this.promptBase(e.runId);
      this.notePrompt(e.runId, n);
      if (base !== undefined) {
        const keep = commonPrefix(this.strings[base]!, value);
        if (keep >= MIN_SHARED_CHARS) return { $: "prefix", n: base, keep, plus: this.withTextsOfEvent(value.slice(keep)) } satisfies Ref;
      }
    }
    return value;
  }

  private decodeField(value: unknown, kind: FieldKind, e: Record<string, unknown>): unknown {
    if (kind === "tokens") {
      // A list of recorded tokens (an older log's) is taken as it is; a compact one is decoded.
      if (typeof value !== "string" && (!Array.isArray(value) || value.length === 0 || isRecord(value[0]))) return value;
      if (this.ready?.given === value) {
        if (this.ready.error !== undefined) throw new RefError(this.ready.error);
        return this.ready.result;
      }
      const step = this.stepOf(e);
      if (!step) throw new RefError("its tokens refer to their step, but no step-start of this step came before it");
      if (typeof e.text !== "string") throw new RefError(`its tokens refer to the delta's "text", which is not a string`);
      try {
        return runSteps(decodeTokensSteps(step.tokens, e.text, value, this.spendOnTokens, Number.POSITIVE_INFINITY));
      } catch (error) {
        if (error instanceof TokenCodeError) throw new RefError(error.message);
        throw error;
      }
    }
    if (kind === "call") {
      if (isRecord(value) && value.$ === "call" && !("id" in value)) {
        const n = value.n;
        if (!Number.isSafeInteger(n) || (n as number) < 0 || (n as number) >= this.calls.length) {
          throw new RefError(`refers to call number ${String(n)}, but ${this.calls.length} long call${this.calls.length === 1 ? " was" : "s were"} written before it`);
        }
        this.budget -= this.callSizes[n as number]!;
        if (this.budget < 0) throw new RefError(this.overBudget);
        return this.calls[n as number];
      }
      const key = callKey(value);
      if (key !== undefined) this.rememberCall(value, key);
      return value;
    }
    if (typeof value === "string") {
      if (kind !== "span" && value.length >= MIN_SHARED_CHARS) this.rememberWritten(value, kind, e.runId);
      return value;
    }
    if (!isRecord(value) || typeof value.$ !== "string") return value;
    const fail = (message: string): never => {
      throw new RefError(message);
    };
    const spend = (text: string) => {
      this.budget -= text.length;
      if (this.budget < 0) fail(this.overBudget);
      return text;
    };
    switch (value.$) {
      case "span": {
        if (kind !== "span") fail(`a {"$": "span"} reference is only allowed as a parse event's text`);
        const step = this.stepOf(e);
        if (!step) fail("refers to its step's output, but no step-start of this step came before it");
        const span = (e.event as Record<string, unknown>).span;
        const text = isRecord(span) ? step!.output.slice(span.start, span.end) : undefined;
        if (text === undefined) fail(`refers to its span of the step's output, which is not within the ${step!.output.length} characters the step has so far`);
        return spend(text!);
      }
      case "str": {
        const n = value.n;
        if (!Number.isSafeInteger(n) || (n as number) < 0 || (n as number) >= this.strings.length) {
          fail(`refers to text number ${String(n)}, but ${this.strings.length} long text${this.strings.length === 1 ? " was" : "s were"} written before it`);
        }
        if (kind === "prompt") this.notePrompt(e.runId, n as number);
        return spend(this.strings[n as number]!);
      }
      case "step": {
        const k = value.k;
        if (!Number.isSafeInteger(k) || (k as number) < 0 || (k as number) >= this.steps.length) {
          fail(`refers to step number ${String(k)}, but ${this.steps.length} step${this.steps.length === 1 ? " has" : "s have"} started before it`);
        }
        if (!PARTS.includes(value.of as Part)) fail(`refers to a step's "${String(value.of)}"; a step has ${PARTS.map((p) => `"${p}"`).join(", ")}`);
        const part = this.steps[k as number]!.part(value.of as Part);
        if (part.rewritten) fail(`refers to step ${String(k)}'s output, which a delta wrote over (only output written at its end is referred to)`);
        return spend(part.join());
      }
      case "prefix": {
        if (kind !== "prompt") fail(`a {"$": "prefix"} reference is only allowed as a step's prompt`);
        const { n, keep, plus } = value;
        if (!Number.isSafeInteger(n) || (n as number) < 0 || (n as number) >= this.strings.length) {
          fail(`refers to text number ${String(n)}, but ${this.strings.length} long text${this.strings.length === 1 ? " was" : "s were"} written before it`);
        }
        const base = this.strings[n as number]!;
        if (!Number.isSafeInteger(keep) || (keep as number) < 0 || (keep as number) > base.length) fail(`keeps ${String(keep)} characters of a text of ${base.length}`);
        let tail = "";
        if (typeof plus === "string") tail = plus;
        else if (Array.isArray(plus)) {
          for (const part of plus) {
            if (typeof part === "string") tail += part;
            else if (isRecord(part) && (part.$ === "step" || part.$ === "str")) tail += this.decodeField(part, "shared", e) as string;
            else fail(`"plus" holds strings and {"$": "str" | "step", …} references`);
          }
        } else fail(`"plus" must be a string or a list`);
        const text = spend(base.slice(0, keep as number)) + tail;
        if (text.length >= MIN_SHARED_CHARS) this.rememberWritten(text, kind, e.runId);
        return text;
      }
      default:
        return fail(`"${value.$}" is not a kind of reference (a text is a string, or {"$": "span" | "str" | "step" | "prefix", …})`);
    }
  }

  /** Whether `ref` stands for exactly `value` now (a step's part may have grown since). */
  private holds(ref: StrRef | StepRef, value: string): boolean {
    if (ref.$ === "str") return this.strings[ref.n] === value;
    return this.steps[ref.k]!.part(ref.of).equals(value);
  }

  private remember(value: string): number {
    const n = this.strings.push(value) - 1;
    this.known.set(keyOf(value), { $: "str", n });
    return n;
  }

  /** The reader's side of `remember`: a long text written out (in full, or as a grown prompt). */
  private rememberWritten(value: string, kind: FieldKind, runId: unknown): void {
    const n = this.remember(value);
    if (kind === "prompt") this.notePrompt(runId, n);
  }

  /** The prompt a step's prompt is most likely to grow from: its run's last, else the log's last. */
  private notePrompt(runId: unknown, n: number): void {
    this.lastPromptOfRun.set(String(runId), n);
    this.lastPrompt = n;
  }

  private rememberCall(call: unknown, key: string): void {
    const n = this.calls.push(call) - 1;
    this.callSizes.push(key.length);
    this.callByKey.set(keyOf(key), n);
  }

  /**
   * What follows a prompt's kept prefix, with the long texts its step-start wrote before it (its
   * template messages: the turns as the template is given them, the generated turn as a step's
   * output) as references where the prompt holds them verbatim, in order.
   */
  private withTextsOfEvent(rest: string): string | (string | StrRef | StepRef)[] {
    const parts: (string | StrRef | StepRef)[] = [rest];
    for (const ref of this.seenInEvent) {
      const part = ref.$ === "str" ? this.strings[ref.n]! : this.steps[ref.k]!.part(ref.of);
      if (typeof part !== "string" && part.rewritten) continue;
      const text = typeof part === "string" ? part : part.join();
      const tail = parts.pop() as string;
      const at = tail.indexOf(text);
      if (at < 0) parts.push(tail);
      else parts.push(tail.slice(0, at), ref, tail.slice(at + text.length));
    }
    const kept = parts.filter((part) => part !== "");
    return kept.length === 1 && typeof kept[0] === "string" ? kept[0] : kept;
  }

  private promptBase(runId: unknown): number | undefined {
    return this.lastPromptOfRun.get(String(runId)) ?? this.lastPrompt;
  }

  private stepOf(e: Record<string, unknown>): StepState | undefined {
    const k = this.stepByKey.get(stepKey(e.runId, e.stepId));
    return k === undefined ? undefined : this.steps[k];
  }

  /**
   * An assistant message: its text, reasoning and raw output are (usually) what its run's last
   * step produced, so they become known as that step's parts, before its fields are written.
   */
  private noteReply(e: Record<string, unknown>): void {
    const message = e.message;
    const k = this.lastStepOfRun.get(String(e.runId));
    if (!isRecord(message) || message.role !== "assistant" || k === undefined) return;
    const step = this.steps[k]!;
    const note = (value: unknown, of: Part) => {
      if (typeof value !== "string" || value.length < MIN_SHARED_CHARS || this.lookUp(value) !== undefined) return;
      if (step.part(of).equals(value)) this.known.set(keyOf(value), { $: "step", k, of });
    };
    note(message.content, "text");
    note(message.reasoning, "reasoning");
    note(message.rawOutput, "output");
  }

  /** Takes in what an event adds to the steps (the same whether it was encoded or decoded). */
  private observe(e: Record<string, unknown>): void {
    this.count += 1;
    if (e.type === "step-start") {
      const k = this.steps.push(new StepState()) - 1;
      this.stepByKey.set(stepKey(e.runId, e.stepId), k);
      this.lastStepOfRun.set(String(e.runId), k);
      return;
    }
    if (e.type === "output-delta") {
      const step = this.stepOf(e);
      const { text, offset } = e;
      if (step && typeof text === "string" && Number.isSafeInteger(offset) && (offset as number) >= 0 && (offset as number) <= step.output.length) {
        step.output.write(offset as number, text);
      }
      // Tokens written or read ahead in pieces are in the tables already.
      const ahead = this.ready !== null && (e.tokens === this.ready.given || e.tokens === this.ready.result);
      if (step && e.tokens !== undefined && !ahead) noteTokens(step.tokens, e.tokens);
      return;
    }
    if (e.type === "parse" && isRecord(e.event) && typeof e.event.text === "string") {
      const step = this.stepOf(e);
      if (step && e.event.type === "text") step.text.push(e.event.text);
      else if (step && e.event.type === "reasoning") step.reasoning.push(e.event.text);
    }
  }
}

/** A log as it is written out, each long text once. */
export function encodeEventLog(events: readonly LoopEvent[]): unknown[] {
  return new SharedTextCodec().encodeAll(events);
}

/**
 * A log written by `encodeEventLog`, read back. The result is checked against the log's schema
 * by the caller; here only the references are. Throws nothing for a bad file: see `issues`.
 */
export function decodeEventLog(encoded: readonly unknown[], issues: DecodeIssue[], options?: { referencedChars?: number }): unknown[] {
  const codec = new SharedTextCodec(options);
  return encoded.flatMap((record, index) => codec.decode(record, index, issues));
}
