// The streaming state machine every protocol shares. It splits the output it is given into
// text and tool calls, and hands each call's body to the protocol's body reader once the call
// ends. It is format-neutral: which markers open and close a call, how a body is read and
// whether a markerless call may be the whole output all come from the protocol (CallSyntax).
// It knows nothing of reasoning tags: the reasoning stage in front of it (reasoning-stage.ts)
// finds them and says which channel the text it hands on belongs to; text written while the
// channel is "reasoning" comes out as reasoning, and only markers allowed in reasoning open a
// call there.
//
// Work is linear in the output: each character is looked at once, except a possible marker
// prefix at the end of a chunk (`<tool_ca`), which is held back, and is bounded by the
// longest marker. A call's body is collected as it streams and read once when the call ends.
// Every decision depends on the characters alone, so any chunking gives the same result.
import type { Repair } from "../repair/json-repair.ts";
import type { ParseEvent, ToolSpec } from "../types.ts";
import type { BodyReading } from "./call-candidate.ts";
import type { BareCallSyntax, BareCallTracker, CallMarker, CallSyntax } from "./call-syntax.ts";
import type { Channel, ChannelSink, ReturnedText } from "./reasoning-stage.ts";
import { settleCall } from "./settle-call.ts";
import { NO_TAG, PARTIAL_TAG, TagSet } from "./tag-match.ts";

const enum Mode {
  /** Only blanks so far (or since a reasoning block): the output may still be a bare call. */
  Start,
  /** The output began like a markerless call; held back until it is decided. */
  Bare,
  /** Text or reasoning, as the channel says. */
  Flow,
  Call,
}

const enum BodyKind {
  Undecided,
  Json,
  Markup,
  /** `<tool_call>` followed by words: a mention of the tag, unless it is closed. */
  Prose,
  Raw,
}

/** Body characters searched for the tool's name so tool-call-start can be announced early. */
const NAME_SEARCH_LIMIT = 600;
/**
 * Searches per call. A name written first is found within a few (the quotes, brackets or line
 * ends around it); a body that names its tool later is announced when it ends. This bounds
 * the work on bodies that never match.
 */
const NAME_SEARCH_ATTEMPTS = 12;
const NAME_TRIGGER = /["<>\n\](]/;

/** What a marker met in text or reasoning does. */
type FlowAction = { kind: "stray-close" } | { kind: "open"; marker: CallMarker };
/** What a marker met inside a call does. */
type CallAction = { kind: "close" } | { kind: "end" } | { kind: "nest" } | { kind: "interrupt"; marker: CallMarker } | { kind: "string" };

/** A set of markers with what each does, and the characters that can begin one. */
class MarkerTable<A> {
  readonly set: TagSet;
  readonly actions: A[];
  private readonly starts: Set<number>;
  private readonly onlyLt: boolean;

  constructor(entries: [string, A][]) {
    const seen = new Map<string, A>();
    for (const [tag, action] of entries) if (tag.length > 0 && !seen.has(tag)) seen.set(tag, action);
    this.set = new TagSet([...seen.keys()]);
    this.actions = [...seen.values()];
    this.starts = new Set([...seen.keys()].map((t) => t.charCodeAt(0)));
    this.onlyLt = this.starts.size === 1 && this.starts.has(60);
  }

  /** The next position at or after `from` where a marker may begin, or -1. */
  next(buf: string, from: number): number {
    if (this.onlyLt) return buf.indexOf("<", from);
    for (let k = from; k < buf.length; k++) if (this.starts.has(buf.charCodeAt(k))) return k;
    return -1;
  }

  /** The next position in [from, to) where a marker may begin, or -1 (looks at nothing past `to`). */
  nextWithin(buf: string, from: number, to: number): number {
    for (let k = from; k < to; k++) if (this.starts.has(buf.charCodeAt(k))) return k;
    return -1;
  }

  startsAt(c: number): boolean {
    return this.starts.has(c);
  }
}

interface OpenCall {
  marker: CallMarker;
  /** Offset of the opening marker in the raw output. */
  start: number;
  body: string;
  kind: BodyKind;
  /** JSON-like body: the quote of the string we are in (0: none), after a backslash, nesting depth, where the first top value ended. */
  quote: number;
  escaped: boolean;
  depth: number;
  jsonEnd: number;
  /** Open same-named markers inside the body (markers that nest). */
  nested: number;
  /** Raw body with a string delimiter: inside a string, where no marker counts. */
  inString: boolean;
  id?: string;
  nameSearchDone: boolean;
  nameSearches: number;
}

export class CallScanner implements ChannelSink {
  private readonly tools: readonly ToolSpec[];
  private readonly toolByName: ReadonlyMap<string, ToolSpec>;
  private readonly bareSyntax: BareCallSyntax | undefined;
  private readonly textTable: MarkerTable<FlowAction>;
  /** Markers that open a call only as the output's very first characters (CallMarker.atStart). */
  private readonly startTable: MarkerTable<FlowAction> | undefined;
  private readonly reasoningTable: MarkerTable<FlowAction>;
  /** Per marker: the markers that matter inside its call. */
  private readonly callTables: Map<CallMarker, MarkerTable<CallAction>>;

  private mode: Mode = Mode.Start;
  private channel: Channel = "text";
  /** Where the input written so far ends in the raw output; the held tail ends here. */
  private total = 0;
  /** The undecided tail of the last buffer (a possible marker prefix). */
  private held = "";
  /** Start mode: the blanks seen, and where they began. */
  private lead = "";
  private leadStart = 0;
  /** Bare mode: the text held back, and its tracker. */
  private bare = "";
  private bareStart = 0;
  private bareTracker: BareCallTracker | undefined;
  /** Bare mode: the call may stand in text (placement "start" or "anywhere"), so text may follow it. */
  private bareInline = false;
  /** Bare mode, in text: the id its first call was announced with (tool-call-start), once its tool is known. */
  private bareId: string | undefined;
  private bareNameSearches = 0;
  /** Where markerless calls may stand (BareCallSyntax.placement). */
  private readonly barePlacement: "whole" | "start" | "anywhere";
  /** Whether anything but blanks has been output (text, or a call): then no bare call. */
  private sawContent = false;
  private call: OpenCall | undefined;
  private callCount = 0;
  private out: ParseEvent[] = [];
  /** Text given back to be split again (see takeReturned). */
  private returned: ReturnedText | undefined;
  /** The texts that open a call. */
  private readonly markerOpens: readonly string[];

  constructor(syntax: CallSyntax, tools: readonly ToolSpec[]) {
    this.tools = tools;
    this.toolByName = new Map(tools.map((t) => [t.name, t]));
    this.bareSyntax = syntax.bare;
    this.barePlacement = syntax.bare?.placement ?? "whole";
    const startOnly = syntax.markers.filter((m) => m.atStart);
    this.startTable = startOnly.length > 0 ? new MarkerTable(startOnly.map((m): [string, FlowAction] => [m.open, { kind: "open", marker: m }])) : undefined;
    const markers = syntax.markers.filter((m) => !m.atStart);
    this.markerOpens = markers.map((m) => m.open);
    const interrupting = markers.filter((m) => m.interrupts);
    const flow: [string, FlowAction][] = [];
    for (const m of syntax.markers) if (m.close !== undefined && m.dropStrayClose && !flow.some(([t]) => t === m.close)) flow.push([m.close, { kind: "stray-close" }]);
    for (const m of markers) flow.push([m.open, { kind: "open", marker: m }]);
    this.textTable = new MarkerTable(flow);
    this.reasoningTable = new MarkerTable<FlowAction>(
      markers.filter((m) => m.inReasoning ?? m.interrupts).map((m): [string, FlowAction] => [m.open, { kind: "open", marker: m }]),
    );
    this.callTables = new Map(
      syntax.markers.map((m) => {
        const entries: [string, CallAction][] = [];
        if (m.close !== undefined) entries.push([m.close, { kind: "close" }]);
        for (const end of m.ends ?? []) entries.push([end, { kind: "end" }]);
        if (m.nests) entries.push([m.open, { kind: "nest" }]);
        if (m.stringDelimiter !== undefined && m.body === "raw") entries.push([m.stringDelimiter, { kind: "string" }]);
        for (const other of interrupting) entries.push([other.open, { kind: "interrupt", marker: other }]);
        return [m, new MarkerTable(entries)];
      }),
    );
  }

  write(text: string, start: number): void {
    if (text.length === 0) return;
    // The held tail ends where this text begins (the stage settles it before skipping a tag).
    const buf = this.held.length > 0 ? this.held + text : text;
    this.held = "";
    this.total = start + text.length;
    this.run(buf, this.total - buf.length, false);
  }

  get ownsText(): boolean {
    if (this.mode === Mode.Bare) return !this.bareInline || this.bareTracker!.committed === true;
    return this.mode === Mode.Call;
  }

  switchChannel(channel: Channel): void {
    this.settleHeld();
    // A markerless call that has not begun for sure (or has ended) is decided at a reasoning tag.
    if (this.mode === Mode.Bare) this.settleInlineBare(false);
    if (channel === "reasoning") this.leaveStart();
    // After a reasoning block with nothing else before it, the output may still be a bare call.
    else if (this.mode === Mode.Flow && !this.sawContent) this.mode = Mode.Start;
    this.channel = channel;
  }

  dropStrayClose(tag: string, at: number): void {
    this.settleHeld();
    if (this.mode === Mode.Bare) this.settleInlineBare(false);
    this.leaveStart();
    this.repairStrayClose(tag, at);
  }

  takeReturned(): ReturnedText | undefined {
    const returned = this.returned;
    this.returned = undefined;
    return returned;
  }

  settleHeld(): void {
    const buf = this.held;
    this.held = "";
    if (buf.length > 0) this.run(buf, this.total - buf.length, true);
  }

  endOwned(): void {
    if (this.mode === Mode.Call) this.endInCall();
    else if (this.mode === Mode.Bare) {
      if (this.bareInline) this.settleInlineBare(true);
      else this.settleBare();
    }
  }

  end(): ParseEvent[] {
    this.settleHeld();
    // Only an in-text markerless call that owns nothing can still be open here.
    if (this.mode === Mode.Bare) this.settleInlineBare(true);
    if (this.mode === Mode.Start && this.lead.length > 0) this.emitFlow(this.lead, this.leadStart);
    this.lead = "";
    return this.flush();
  }

  flush(): ParseEvent[] {
    const events = this.out;
    this.out = [];
    return events;
  }

  /** Blanks held at the start are text once something else than a bare call follows them. */
  private leaveStart(): void {
    if (this.mode !== Mode.Start) return;
    this.mode = Mode.Flow;
    if (this.lead.length > 0) this.emitFlow(this.lead, this.leadStart);
    this.lead = "";
  }

  private nextId = (): string => `call_${++this.callCount}`;

  /** Scans `buf`, which begins at `base` in the raw output. */
  private run(buf: string, base: number, final: boolean): void {
    let i = 0;
    while (i < buf.length) {
      switch (this.mode) {
        case Mode.Start:
          i = this.scanStart(buf, i, base, final);
          break;
        case Mode.Bare: {
          const ruledOut = this.bareTracker!.feed(buf, i, buf.length);
          if (ruledOut < 0) {
            this.appendBare(i === 0 ? buf : buf.slice(i));
            i = buf.length;
          } else if (this.bareInline) {
            // The call ended (or was ruled out) here: what follows is scanned as usual.
            this.appendBare(buf.slice(i, ruledOut));
            this.settleInlineBare(false);
            i = ruledOut;
          } else {
            // Not a bare call after all: everything held back is ordinary output, given back
            // to the stage in front to be split again (it may hold reasoning tags).
            this.returned = { text: this.bare + buf.slice(i), start: this.bareStart };
            this.bare = "";
            this.mode = Mode.Flow;
            return;
          }
          break;
        }
        case Mode.Flow:
          i = this.scanFlow(buf, i, base, final);
          break;
        case Mode.Call:
          i = this.scanCall(buf, i, base, final);
          break;
      }
    }
  }

  private scanStart(buf: string, from: number, base: number, final: boolean): number {
    if (this.startTable && base + from === 0) {
      const tag = this.startTable.set.match(buf, from);
      if (tag === PARTIAL_TAG && !final) {
        this.held = buf.slice(from);
        return buf.length;
      }
      if (tag !== NO_TAG && tag !== PARTIAL_TAG) {
        const action = this.startTable.actions[tag]!;
        if (action.kind === "open") {
          this.leaveStart();
          this.openCall(action.marker, 0);
          return from + action.marker.open.length;
        }
      }
    }
    let k = from;
    while (k < buf.length && isBlank(buf.charCodeAt(k))) k++;
    if (this.lead.length === 0) this.leadStart = base + from;
    this.lead += buf.slice(from, k);
    if (k === buf.length) return k;
    if (this.bareSyntax && this.bareSyntax.startsWith.includes(buf[k]!)) {
      if (this.barePlacement !== "whole") {
        // Text may follow the call: the blanks before it are text, the call begins here.
        this.leaveStart();
        this.openBare(base + k);
        return k;
      }
      this.mode = Mode.Bare;
      this.bareInline = false;
      this.bare = this.lead;
      this.bareStart = this.leadStart;
      // The tracker has not seen the blanks; they cannot rule anything out.
      this.bareTracker = this.bareSyntax.tracker();
      this.lead = "";
    } else {
      this.leaveStart();
    }
    return k;
  }

  /** A markerless call that may stand in text begins at `at`. */
  private openBare(at: number): void {
    this.sawContent = true;
    this.mode = Mode.Bare;
    this.bareInline = true;
    this.bareId = undefined;
    this.bareNameSearches = 0;
    this.bare = "";
    this.bareStart = at;
    this.bareTracker = this.bareSyntax!.tracker();
  }

  /**
   * Adds text to a held markerless call. In text, once a call has surely begun and names a
   * known tool, it is announced (tool-call-start) and its text streams as deltas, as a call
   * between markers does.
   */
  private appendBare(piece: string): void {
    if (piece.length === 0) return;
    const at = this.bareStart + this.bare.length;
    this.bare += piece;
    if (!this.bareInline) return;
    if (this.bareId !== undefined) {
      const last = this.out[this.out.length - 1];
      if (last && last.type === "tool-call-delta" && last.id === this.bareId && last.span.end === at) {
        last.argumentsDelta += piece;
        last.span.end = at + piece.length;
      } else this.out.push({ type: "tool-call-delta", id: this.bareId, argumentsDelta: piece, span: { start: at, end: at + piece.length } });
      return;
    }
    const nameOf = this.bareSyntax!.nameOf;
    if (!nameOf || !this.bareTracker!.committed || this.bareNameSearches >= NAME_SEARCH_ATTEMPTS || this.bare.length > NAME_SEARCH_LIMIT) return;
    // A name written first is found at the quotes, brackets or parentheses around it.
    if (!NAME_TRIGGER.test(piece)) return;
    this.bareNameSearches++;
    const name = nameOf(this.bare);
    if (name === undefined || !this.toolByName.has(name)) return;
    this.bareId = this.nextId();
    const start = this.bareStart;
    this.out.push({ type: "tool-call-start", id: this.bareId, name, span: { start, end: start + 1 } });
    this.out.push({ type: "tool-call-delta", id: this.bareId, argumentsDelta: this.bare, span: { start, end: start + this.bare.length } });
  }

  /** The next position at or after `from` where a markerless call may begin in text, or -1. */
  private nextBareStart(buf: string, from: number, to: number): number {
    const starts = this.bareSyntax!.startsWith;
    for (let k = from; k < to; k++) if (starts.includes(buf[k]!)) return k;
    return -1;
  }

  /** Text or reasoning: up to the next marker that matters. */
  private scanFlow(buf: string, from: number, base: number, final: boolean): number {
    const table = this.channel === "text" ? this.textTable : this.reasoningTable;
    const bareAnywhere = this.barePlacement === "anywhere" && this.channel === "text";
    let k = from;
    // Where a markerless call may begin next (found once, kept while the scan is before it),
    // then a marker only up to there: each character is looked at a bounded number of times,
    // however many calls or markers there are.
    let nextBare = -2;
    for (;;) {
      if (bareAnywhere && (nextBare === -2 || (nextBare >= 0 && nextBare < k))) nextBare = this.nextBareStart(buf, k, buf.length);
      const at = nextBare < 0 ? table.next(buf, k) : table.nextWithin(buf, k, nextBare + 1);
      const bareAt = nextBare >= 0 && (at < 0 || nextBare < at) ? nextBare : -1;
      if (bareAt >= 0) {
        if (bareAt > from) this.emitFlow(buf.slice(from, bareAt), base + from);
        this.openBare(base + bareAt);
        return bareAt;
      }
      if (at < 0) {
        this.emitFlow(from === 0 ? buf : buf.slice(from), base + from);
        return buf.length;
      }
      const tag = table.set.match(buf, at);
      if (tag === NO_TAG || (tag === PARTIAL_TAG && final)) {
        // Not a marker, but a markerless call may begin with the same character (`[` of `[{`).
        if (bareAnywhere && this.bareSyntax!.startsWith.includes(buf[at]!)) {
          if (at > from) this.emitFlow(buf.slice(from, at), base + from);
          this.openBare(base + at);
          return at;
        }
        k = at + 1;
        continue;
      }
      if (at > from) this.emitFlow(buf.slice(from, at), base + from);
      if (tag === PARTIAL_TAG) {
        this.held = buf.slice(at);
        return buf.length;
      }
      const tagText = table.set.tags[tag]!;
      const action = table.actions[tag]!;
      if (action.kind === "open") this.openCall(action.marker, base + at);
      else this.repairStrayClose(tagText, base + at);
      return at + tagText.length;
    }
  }

  /** A close marker with nothing open: drop it, and say so. */
  private repairStrayClose(tag: string, at: number): void {
    this.out.push({
      type: "repair",
      kind: "stray-close-tag",
      message: `dropped ${tag}, which closed nothing`,
      before: tag,
      after: "",
      span: { start: at, end: at + tag.length },
    });
  }

  private openCall(marker: CallMarker, at: number): void {
    this.sawContent = true;
    this.mode = Mode.Call;
    const hint = marker.body ?? "auto";
    this.call = {
      marker,
      start: at,
      body: "",
      kind:
        hint === "raw" ? BodyKind.Raw : hint === "json" || hint === "python" ? BodyKind.Json : marker.bodyPrefix !== undefined ? BodyKind.Markup : BodyKind.Undecided,
      quote: 0,
      escaped: false,
      // Brackets the body is read with in front are open already (`functools[` + `{…}]`).
      depth: hint === "json" || hint === "python" ? bracketDepth(marker.bodyPrefix ?? "") : 0,
      jsonEnd: -1,
      nested: 0,
      inString: false,
      nameSearchDone: false,
      nameSearches: 0,
    };
  }

  private scanCall(buf: string, from: number, base: number, final: boolean): number {
    const call = this.call!;
    let k = from;
    if (call.kind === BodyKind.Undecided) {
      while (k < buf.length && isBlank(buf.charCodeAt(k))) k++;
      if (k === buf.length) {
        this.appendBody(buf, from, k, base);
        return k;
      }
      const c = buf.charCodeAt(k);
      if (c === 123 || c === 91 || c === 96) call.kind = BodyKind.Json;
      else if (c === 60) call.kind = BodyKind.Markup;
      else call.kind = BodyKind.Prose;
    }
    const table = this.callTables.get(call.marker)!;
    const segment = from;
    if (call.kind === BodyKind.Json) {
      const singleQuotes = call.marker.body === "python";
      for (; k < buf.length; k++) {
        const c = buf.charCodeAt(k);
        if (call.quote !== 0) {
          if (call.escaped) call.escaped = false;
          else if (c === 92) call.escaped = true;
          else if (c === call.quote) call.quote = 0;
          continue;
        }
        if (table.startsAt(c)) {
          const done = this.callMarker(buf, segment, k, base, table, final);
          if (done >= 0) return done;
          if (done === HELD) return buf.length;
        }
        if (c === 34 || (c === 39 && singleQuotes)) call.quote = c;
        else if (c === 123 || c === 91) call.depth++;
        else if (c === 125 || c === 93) {
          if (call.depth > 0 && --call.depth === 0 && call.jsonEnd < 0) {
            call.jsonEnd = call.body.length + (k + 1 - segment);
            if (call.marker.endsWithValue && call.marker.close === undefined) {
              this.appendBody(buf, segment, k + 1, base);
              this.endCallWithoutClose(call, base + k + 1);
              return k + 1;
            }
          }
        }
      }
    } else {
      for (;;) {
        const at = table.next(buf, k);
        if (at < 0) break;
        const done = this.callMarker(buf, segment, at, base, table, final);
        if (done >= 0) return done;
        if (done === HELD) return buf.length;
        k = at + 1;
      }
    }
    this.appendBody(buf, segment, buf.length, base);
    return buf.length;
  }

  /**
   * At a possible marker inside a call: ends the call (returns where scanning goes on), holds a
   * possible marker back (HELD), or returns NOT_A_MARKER (also for a nested open or close).
   */
  private callMarker(buf: string, segment: number, at: number, base: number, table: MarkerTable<CallAction>, final: boolean): number {
    const tag = table.set.match(buf, at);
    if (tag === NO_TAG || (tag === PARTIAL_TAG && final)) return NOT_A_MARKER;
    const call = this.call!;
    if (tag === PARTIAL_TAG) {
      this.appendBody(buf, segment, at, base);
      this.held = buf.slice(at);
      return HELD;
    }
    const action = table.actions[tag]!;
    const end = at + table.set.tags[tag]!.length;
    if (action.kind === "string") {
      call.inString = !call.inString;
      return NOT_A_MARKER;
    }
    // Inside a delimited string every marker is the string's text.
    if (call.inString) return NOT_A_MARKER;
    if (action.kind === "nest") {
      call.nested++;
      return NOT_A_MARKER;
    }
    if (action.kind === "close" && call.nested > 0) {
      call.nested--;
      return NOT_A_MARKER;
    }
    this.appendBody(buf, segment, at, base);
    if (action.kind === "close") {
      this.finishCall(call, call.body, base + end, true, []);
      return end;
    }
    if (action.kind === "end") {
      this.endCallWithoutClose(call, base + end, table.set.tags[tag]!);
      return end;
    }
    // A new call before this one was closed: end this one here and open the next.
    this.endCallWithoutClose(call, base + at);
    this.openCall(action.marker, base + at);
    return end;
  }

  private appendBody(buf: string, from: number, to: number, base: number): void {
    if (to <= from) return;
    const call = this.call!;
    const piece = buf.slice(from, to);
    call.body += piece;
    if (call.id !== undefined) {
      // A body handed on in pieces (the stage in front cuts it at each reasoning tag) streams
      // as one delta per chunk, as if it had come whole.
      const last = this.out[this.out.length - 1];
      if (last && last.type === "tool-call-delta" && last.id === call.id && last.span.end === base + from) {
        last.argumentsDelta += piece;
        last.span.end = base + to;
      } else {
        this.out.push({ type: "tool-call-delta", id: call.id, argumentsDelta: piece, span: { start: base + from, end: base + to } });
      }
    } else if (!call.nameSearchDone && call.kind !== BodyKind.Undecided && call.kind !== BodyKind.Prose) {
      this.searchName(call, piece, base + to);
    }
  }

  /** Announces the call (tool-call-start) as soon as its body names a known tool. */
  private searchName(call: OpenCall, piece: string, bodyEnd: number): void {
    const { marker } = call;
    let name = marker.toolName;
    if (name === undefined) {
      // A marker that cannot name its tool early is announced when its call ends.
      if (!marker.nameOf) {
        call.nameSearchDone = true;
        return;
      }
      if (!NAME_TRIGGER.test(piece) && call.body.length <= NAME_SEARCH_LIMIT) return;
      const head = (marker.bodyPrefix ?? "") + (call.body.length > NAME_SEARCH_LIMIT ? call.body.slice(0, NAME_SEARCH_LIMIT) : call.body);
      name = marker.nameOf(head)?.trim();
      if (name === undefined && (call.body.length > NAME_SEARCH_LIMIT || ++call.nameSearches >= NAME_SEARCH_ATTEMPTS)) call.nameSearchDone = true;
    }
    if (name === undefined) return;
    call.nameSearchDone = true;
    if (!this.toolByName.has(name)) return; // reported when the call ends
    call.id = this.nextId();
    const openSpan = { start: call.start, end: call.start + marker.open.length };
    this.out.push({ type: "tool-call-start", id: call.id, name, span: openSpan });
    const bodyStart = bodyEnd - call.body.length;
    this.out.push({ type: "tool-call-delta", id: call.id, argumentsDelta: call.body, span: { start: bodyStart, end: bodyEnd } });
  }

  /** A marker's text followed by words, never closed: it was a mention, so it is output again. */
  private abandonCall(call: OpenCall): void {
    this.call = undefined;
    this.mode = Mode.Flow;
    this.emitFlow(call.marker.open + call.body, call.start);
  }

  /** Reads a body with the protocol's reader; a reader that throws gives a parse error, never a crash. */
  private read(text: string, marker: CallMarker): BodyReading {
    try {
      return marker.read(text, this.tools, marker.toolName);
    } catch (error) {
      return { ok: false, kind: "invalid-call", message: `the call could not be read: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private finishCall(call: OpenCall, body: string, end: number, closed: boolean, scannerRepairs: Repair[], reading?: BodyReading, ending = ""): void {
    this.call = undefined;
    this.mode = Mode.Flow;
    const { marker } = call;
    const text = (marker.bodyPrefix ?? "") + body + (closed ? (marker.bodySuffix ?? "") : "");
    // The raw text is what the span covers: a turn's end marker that ended the call included.
    const raw = marker.open + body + (closed ? marker.close! : "") + ending;
    const read = reading ?? this.read(text, marker);
    settleCall(
      read,
      {
        toolByName: this.toolByName,
        span: { start: call.start, end },
        openSpan: { start: call.start, end: call.start + marker.open.length },
        raw,
        ...(call.id !== undefined ? { startedId: call.id } : {}),
        scannerRepairs,
        bodyOffset: call.start + marker.open.length - (marker.bodyPrefix?.length ?? 0),
        nextId: this.nextId,
      },
      this.out,
    );
    // Text the model wrote after its calls, inside the call's span (no close marker ended it).
    if (read.ok && read.textAfter !== undefined) {
      const restStart = Math.max(0, read.textAfter - (marker.bodyPrefix?.length ?? 0));
      if (restStart < body.length) this.emitFlow(body.slice(restStart), call.start + marker.open.length + restStart);
    }
  }

  /** A call ended by a turn's end, a new call or the end of the output, without its close marker. */
  /** `ending` is the turn's end marker that ended the call, consumed with it (its span runs to `end`). */
  private endCallWithoutClose(call: OpenCall, end: number, ending = ""): void {
    const { marker, body } = call;
    if (call.kind === BodyKind.Prose) {
      this.abandonCall(call);
      return;
    }
    if (marker.close !== undefined) {
      // Only a new call can end a call with a close marker early; it is read as far as it got.
      const repair: Repair = { kind: "implicit-close", message: `a new call began before ${marker.close}; closed the call there`, before: "", after: marker.close };
      this.finishCall(call, body, end, false, [repair], undefined, ending);
      return;
    }
    // The reader says itself which calls of the body are whole.
    if (marker.readsCutOff && call.kind !== BodyKind.Undecided) {
      this.finishCall(call, body, end, false, [], this.read((marker.bodyPrefix ?? "") + body, marker), ending);
      return;
    }
    // A call that has no close marker ends this way: it is a call only if its body is whole.
    const reading = this.wholeReading(call, body);
    if (reading) this.finishCall(call, body, end, false, [], reading, ending);
    // The span runs to `end`: a turn's end marker that ended the call is consumed with it.
    else this.unfinished(call, `the call was cut off before it was complete`, end);
  }

  /** The body read, if it is whole; undefined if it was cut off. */
  private wholeReading(call: OpenCall, body: string): BodyReading | undefined {
    if (call.kind === BodyKind.Undecided) return undefined;
    if (call.kind === BodyKind.Json && (call.quote !== 0 || call.depth !== 0 || call.jsonEnd < 0)) return undefined;
    const reading = this.read((call.marker.bodyPrefix ?? "") + body, call.marker);
    return !reading.ok || reading.complete ? reading : undefined;
  }

  private unfinished(call: OpenCall, message: string, end = call.start + call.marker.open.length + call.body.length): void {
    const id = call.id ?? this.nextId();
    this.call = undefined;
    this.mode = Mode.Flow;
    this.out.push({
      type: "parse-error",
      id,
      kind: "unfinished-tool-call",
      message,
      raw: call.marker.open + call.body,
      span: { start: call.start, end },
    });
  }

  /** The stream ended inside a call: recover it if it is whole, else report it unfinished. */
  private endInCall(): void {
    const call = this.call!;
    const { marker, body } = call;
    const bodyStart = call.start + marker.open.length;
    if (call.kind === BodyKind.Prose) {
      this.abandonCall(call);
      return;
    }
    if (marker.close === undefined) {
      this.endCallWithoutClose(call, bodyStart + body.length);
      return;
    }
    if (marker.requiresClose) {
      this.unfinished(call, `the output ended inside a tool call (no ${marker.close})`);
      return;
    }
    const missingClose: Repair = { kind: "missing-close-tag", message: `the output ended before ${marker.close}; the call was complete`, before: "", after: marker.close };
    if (marker.readsCutOff && call.kind !== BodyKind.Undecided) {
      // The reader says which calls are whole (recovered, as a JSON body is) and which were cut.
      const reading = this.read((marker.bodyPrefix ?? "") + body, marker);
      const recovered = reading.ok && reading.outcomes.some((o) => o.ok) && !reading.repairs.some((r) => r.kind === missingClose.kind && r.after === marker.close);
      this.finishCall(call, body, bodyStart + body.length, false, recovered ? [missingClose] : [], reading);
      return;
    }
    let cut = -1;
    let closed = false;
    if (call.kind === BodyKind.Json) {
      if (call.jsonEnd >= 0) cut = call.jsonEnd;
      else {
        // A close marker the string tracking missed (an unbalanced quote): take it after all.
        const close = body.indexOf(marker.close);
        if (close >= 0) {
          cut = close;
          closed = true;
        }
      }
    } else if (call.kind === BodyKind.Raw && call.inString && body.includes(marker.close)) {
      // A string that never closed (its opening delimiter may be the one missing): the call
      // ends at the first close marker after all, and what follows it is output again.
      cut = body.indexOf(marker.close);
      closed = true;
    } else if (call.kind === BodyKind.Markup || call.kind === BodyKind.Raw) {
      const reading = this.read((marker.bodyPrefix ?? "") + body, marker);
      if (reading.ok && reading.complete) cut = body.length;
    }
    if (cut < 0) {
      this.unfinished(call, `the output ended inside a tool call (no ${marker.close}) and the call is incomplete`);
      return;
    }
    const afterCut = closed ? cut + marker.close.length : cut;
    let rest = body.slice(afterCut);
    if (rest.trim() === "```") rest = "";
    this.finishCall(call, body.slice(0, cut), bodyStart + afterCut, closed, closed ? [] : [missingClose]);
    if (rest.length > 0) {
      // What followed the call is output again: given back to be split again as such.
      this.returned = { text: rest, start: bodyStart + afterCut };
    }
  }

  /** The whole output was held back as a possible bare call: decide now. */
  private settleBare(): void {
    const text = this.bare;
    this.bare = "";
    this.mode = Mode.Flow;
    const reading = this.bareTracker!.complete ? this.readBare(text) : undefined;
    if (reading) this.settleBareCall(text, this.bareStart, reading);
    // Not a call after all, and a call's marker stands in it (a bare `[TOOL_CALLS]` is a
    // bracketed value too): given back to be split again, so the marker counts.
    else if (this.markerOpens.some((open) => text.includes(open))) this.returned = { text, start: this.bareStart };
    else this.out.push({ type: "text", text, span: { start: this.bareStart, end: this.bareStart + text.length } });
  }

  /**
   * A markerless call that may stand in text is decided: the whole call (list) the tracker saw,
   * if any, is read; what follows it is text. A call begun for sure and not ended was cut off
   * (`cutOff`: by the end of the output) or broke off: it stays text, and an error says so.
   */
  private settleInlineBare(cutOff: boolean): void {
    const held = this.bare;
    const start = this.bareStart;
    const tracker = this.bareTracker!;
    this.bare = "";
    this.mode = Mode.Flow;
    const length = tracker.callLength ?? -1;
    const startedId = this.bareId;
    this.bareId = undefined;
    if (length > 0) this.settleBareCall(held.slice(0, length), start, undefined, startedId);
    const restStart = Math.max(length, 0);
    const rest = held.slice(restStart);
    const reportsRest = tracker.committed && rest.trim() !== "";
    if (length <= 0 && startedId !== undefined && !reportsRest) this.retractBare(startedId, start, start + held.length);
    this.emitFlow(rest, start + restStart);
    if (reportsRest) {
      const raw = rest.trim();
      const lead = rest.length - rest.trimStart().length;
      // The protocol's reader may say more precisely what is wrong (a mismatched bracket).
      const reading = this.readBare(raw);
      const said = reading && !reading.ok ? reading : undefined;
      this.out.push({
        type: "parse-error",
        id: length > 0 || startedId === undefined ? this.nextId() : startedId,
        kind: said?.kind ?? (cutOff ? "unfinished-tool-call" : "invalid-call"),
        message: said?.message ?? (cutOff ? "the output ended inside a call written without markers" : "a call written without markers broke off before it was complete"),
        raw,
        span: { start: start + restStart + lead, end: start + held.length },
      });
    }
  }

  /**
   * A markerless call announced early (tool-call-start, as soon as it named a tool) was not a
   * call after all: its text stays text. The "not-a-call" repair tells whoever showed the call
   * to drop it, and its id is given back, so that the calls after it are numbered as they are
   * when the output comes in one piece (where it was never announced).
   */
  private retractBare(id: string, start: number, end: number): void {
    this.out.push({ type: "repair", id, kind: "not-a-call", message: "what began like a call written without markers was not one; it stays text", before: "", after: "", span: { start, end } });
    if (id === `call_${this.callCount}`) this.callCount--;
  }

  /** The protocol's reading of a markerless call; a reader that throws gives a parse error, never a crash. */
  private readBare(text: string): BodyReading | undefined {
    try {
      return this.bareSyntax!.read(text, this.tools);
    } catch (error) {
      return { ok: false, kind: "invalid-call", message: `the call could not be read: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** Reads a markerless call (list) that begins at `start` and settles it. */
  private settleBareCall(text: string, start: number, known?: BodyReading, startedId?: string): void {
    const span = { start, end: start + text.length };
    const syntax = this.bareSyntax!;
    const reading = known ?? this.readBare(text);
    if (!reading) {
      if (startedId !== undefined) this.retractBare(startedId, start, start + text.length);
      this.emitFlow(text, start);
      return;
    }
    if (reading.ok && reading.textAfter !== undefined && reading.textAfter < text.length) {
      // The call ends before the text that follows it: that is read again as output.
      const { textAfter, ...whole } = reading;
      this.settleBareCall(text.slice(0, textAfter), start, whole, startedId);
      this.emitFlow(text.slice(textAfter), start + textAfter);
      return;
    }
    const settled: ParseEvent[] = [];
    settleCall(
      reading,
      {
        toolByName: this.toolByName,
        span,
        openSpan: span,
        raw: text,
        ...(startedId !== undefined ? { startedId } : {}),
        bodyOffset: span.start,
        // A form the protocol asks for is no repair; any other markerless call is one.
        scannerRepairs: syntax.ownForm
          ? []
          : [
              {
                kind: "bare-call",
                message: this.bareInline ? `read ${syntax.describe(text)} written without the protocol's markers` : `the whole output was ${syntax.describe(text)} without the protocol's markers`,
                before: "",
                after: "",
              },
            ],
        nextId: this.nextId,
      },
      settled,
    );
    // Without markers, an object that yields no call (an unknown tool, say) may have been meant
    // as an answer: it stays in the text, and the errors say why it was not run.
    if (!settled.some((e) => e.type === "tool-call-end")) this.emitFlow(text, start);
    for (const e of settled) this.out.push(e);
  }

  /** Emits text or reasoning, merged with the previous event when it continues it. */
  private emitFlow(text: string, start: number): void {
    if (text.length === 0) return;
    const type = this.channel === "reasoning" ? "reasoning" : "text";
    if (type === "text" && !this.sawContent && !isAllBlank(text)) this.sawContent = true;
    const last = this.out[this.out.length - 1];
    if (last && last.type === type && last.span.end === start) {
      last.text += text;
      last.span.end = start + text.length;
      return;
    }
    this.out.push({ type, text, span: { start, end: start + text.length } });
  }
}

/** How many brackets `text` leaves open (a body prefix such as `[`). */
function bracketDepth(text: string): number {
  let depth = 0;
  for (const c of text) depth += c === "[" || c === "{" ? 1 : c === "]" || c === "}" ? -1 : 0;
  return Math.max(0, depth);
}

const NOT_A_MARKER = -1;
const HELD = -2;

function isBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function isAllBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isBlank(text.charCodeAt(i))) return false;
  return true;
}
