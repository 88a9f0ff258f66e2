// The streaming state machine every protocol shares. It splits raw model output into text,
// reasoning (<think> blocks) and tool calls, and hands each call's body to the body readers
// once the call is closed. Protocols differ only in which tags open a call (CallOpener).
//
// Work is linear in the output: each character is looked at once, except a possible tag
// prefix at the end of a chunk (`<tool_ca`), which is held back, and is bounded by the
// longest tag. A call's body is collected as it streams and read once when the call ends.
// Every decision depends on the characters alone, so any chunking gives the same result.
import { parseJsonLenient, type Repair } from "../repair/json-repair.ts";
import type { ParseEvent, StreamParser, ToolSpec } from "../types.ts";
import { BareCallTracker } from "./bare-call-tracker.ts";
import { readCallBody } from "./call-body.ts";
import { isPlainObject } from "./call-candidate.ts";
import { readJsonCallBody } from "./json-call.ts";
import { settleCall } from "./settle-call.ts";
import { NO_TAG, PARTIAL_TAG, TagSet } from "./tag-match.ts";

/** A tag that opens a tool call, and the tag that closes it. */
export interface CallOpener {
  open: string;
  close: string;
  /** The tool, when the opening tag itself names it (`<get_weather>`). */
  toolName?: string;
  /** Text the body is read with in front (`<function=` is both the opener and part of the call). */
  bodyPrefix?: string;
  /** Text the body is read with at its end when the close tag was seen. */
  bodySuffix?: string;
}

export const TOOL_CALL_OPENER: CallOpener = { open: "<tool_call>", close: "</tool_call>" };

export interface ScannerOptions {
  tools: readonly ToolSpec[];
  /** Openers besides `<tool_call>`, which every protocol understands. */
  extraOpeners?: readonly CallOpener[];
}

const THINK_OPEN = "<think>";
const THINK_CLOSE = "</think>";

const enum Mode {
  /** Only blanks so far (or since a think block): the output may still be a bare call. */
  Start,
  /** The output began like a JSON call object; held back until it is decided. */
  Bare,
  Text,
  Think,
  Call,
}

const enum BodyKind {
  Undecided,
  Json,
  Markup,
}

/** Body characters searched for the tool's name so tool-call-start can be announced early. */
const NAME_SEARCH_LIMIT = 600;
/**
 * Searches per call. A name written first is found within four (the quotes or angle brackets
 * around it); a body that names its tool later is announced when it ends. This bounds the
 * work on bodies that never match.
 */
const NAME_SEARCH_ATTEMPTS = 8;
const JSON_NAME = /^\s*(?:```[A-Za-z0-9_]*\s*)?\{\s*"(?:name|tool_name)"\s*:\s*"([^"\\]+)"/;
const MARKUP_NAME = /^\s*(?:<(?:tool_name|function_name)>\s*([^<\s][^<]*?)\s*<\/|<function=([^>\s]+)>|<invoke\s+name="([^"]+)")/;

interface OpenCall {
  opener: CallOpener;
  /** Offset of the opening tag in the raw output. */
  start: number;
  body: string;
  kind: BodyKind;
  /** JSON body: inside a string, after a backslash, nesting depth, where the top value ended. */
  inString: boolean;
  escaped: boolean;
  depth: number;
  jsonEnd: number;
  id?: string;
  nameSearchDone: boolean;
  nameSearches: number;
  returnMode: Mode.Text | Mode.Think;
}

export class ToolCallScanner implements StreamParser {
  private readonly tools: readonly ToolSpec[];
  private readonly toolByName: ReadonlyMap<string, ToolSpec>;
  private readonly openers: readonly CallOpener[];
  private readonly textTags: TagSet;
  private readonly thinkTags: TagSet;
  /** Per opener: the tags that end its call (its close tag, or a new <tool_call>). */
  private readonly callTags: Map<CallOpener, TagSet>;

  private mode: Mode = Mode.Start;
  /** Input received so far, in characters. Every buffer scanned ends here. */
  private total = 0;
  /** The undecided tail of the last buffer (a possible tag prefix). */
  private held = "";
  /** Start mode: the blanks seen, and where they began. */
  private lead = "";
  private leadStart = 0;
  /** Bare mode: the text held back, and its tracker. */
  private bare = "";
  private bareStart = 0;
  private bareTracker = new BareCallTracker();
  /** Whether anything but blanks has been output (text, or a call): then no bare call. */
  private sawContent = false;
  private call: OpenCall | undefined;
  private callCount = 0;
  private out: ParseEvent[] = [];
  private ended = false;

  constructor(options: ScannerOptions) {
    this.tools = options.tools;
    this.toolByName = new Map(options.tools.map((t) => [t.name, t]));
    this.openers = [TOOL_CALL_OPENER, ...(options.extraOpeners ?? [])];
    // Order matters only for ties; no tag here is a prefix of another.
    this.textTags = new TagSet([THINK_OPEN, THINK_CLOSE, TOOL_CALL_OPENER.close, ...this.openers.map((o) => o.open)]);
    this.thinkTags = new TagSet([THINK_CLOSE, TOOL_CALL_OPENER.open]);
    this.callTags = new Map(this.openers.map((o) => [o, new TagSet([o.close, TOOL_CALL_OPENER.open])]));
  }

  push(chunk: string): ParseEvent[] {
    if (this.ended) throw new Error("push() after end(): create a new parser for each output");
    if (chunk.length === 0) return [];
    this.total += chunk.length;
    const buf = this.held.length > 0 ? this.held + chunk : chunk;
    this.held = "";
    this.run(buf, false);
    return this.flush();
  }

  end(): ParseEvent[] {
    if (this.ended) return [];
    this.ended = true;
    const buf = this.held;
    this.held = "";
    if (buf.length > 0) this.run(buf, true);
    while (this.mode === Mode.Call) this.endInCall();
    if (this.mode === Mode.Bare) this.settleBare();
    else if (this.mode === Mode.Start && this.lead.length > 0) this.emitFlow(Mode.Text, this.lead, this.leadStart);
    return this.flush();
  }

  private flush(): ParseEvent[] {
    const events = this.out;
    this.out = [];
    return events;
  }

  private nextId = (): string => `call_${++this.callCount}`;

  /** Scans `buf`, which ends at the end of the input received so far. */
  private run(buf: string, final: boolean): void {
    let i = 0;
    let base = this.total - buf.length;
    while (i < buf.length) {
      switch (this.mode) {
        case Mode.Start:
          i = this.scanStart(buf, i, base);
          break;
        case Mode.Bare: {
          const ruledOut = this.bareTracker.feed(buf, i, buf.length);
          if (ruledOut < 0) {
            this.bare += i === 0 ? buf : buf.slice(i);
            i = buf.length;
          } else {
            // Not a bare call after all: scan everything held back as ordinary output.
            buf = this.bare + buf.slice(i);
            base = this.total - buf.length;
            this.bare = "";
            this.mode = Mode.Text;
            i = 0;
          }
          break;
        }
        case Mode.Text:
        case Mode.Think:
          i = this.scanFlow(buf, i, base, final);
          break;
        case Mode.Call:
          i = this.scanCall(buf, i, base, final);
          break;
      }
    }
  }

  private scanStart(buf: string, from: number, base: number): number {
    let k = from;
    while (k < buf.length && isBlank(buf.charCodeAt(k))) k++;
    if (this.lead.length === 0) this.leadStart = base + from;
    this.lead += buf.slice(from, k);
    if (k === buf.length) return k;
    const c = buf.charCodeAt(k);
    if (c === 123 || c === 91 || c === 96) {
      this.mode = Mode.Bare;
      this.bare = this.lead;
      this.bareStart = this.leadStart;
      this.bareTracker = new BareCallTracker();
      // The tracker has not seen the blanks; they cannot rule anything out.
    } else {
      this.mode = Mode.Text;
      if (this.lead.length > 0) this.emitFlow(Mode.Text, this.lead, this.leadStart);
    }
    this.lead = "";
    return k;
  }

  /** Text or think mode: text up to the next tag that matters. */
  private scanFlow(buf: string, from: number, base: number, final: boolean): number {
    const mode = this.mode as Mode.Text | Mode.Think;
    const tags = mode === Mode.Text ? this.textTags : this.thinkTags;
    let k = from;
    for (;;) {
      const lt = buf.indexOf("<", k);
      if (lt < 0) {
        this.emitFlow(mode, from === 0 ? buf : buf.slice(from), base + from);
        return buf.length;
      }
      const tag = tags.match(buf, lt);
      if (tag === NO_TAG || (tag === PARTIAL_TAG && final)) {
        k = lt + 1;
        continue;
      }
      if (lt > from) this.emitFlow(mode, buf.slice(from, lt), base + from);
      if (tag === PARTIAL_TAG) {
        this.held = buf.slice(lt);
        return buf.length;
      }
      const tagText = tags.tags[tag]!;
      const end = lt + tagText.length;
      this.onFlowTag(mode, tagText, base + lt);
      return end;
    }
  }

  private onFlowTag(mode: Mode.Text | Mode.Think, tag: string, at: number): void {
    if (mode === Mode.Think) {
      if (tag === THINK_CLOSE) this.mode = this.sawContent ? Mode.Text : Mode.Start;
      else this.openCall(TOOL_CALL_OPENER, at, Mode.Think);
      return;
    }
    if (tag === THINK_OPEN) {
      this.mode = Mode.Think;
      return;
    }
    if (tag === THINK_CLOSE || tag === TOOL_CALL_OPENER.close) {
      // A close tag with nothing open: drop it, and say so.
      this.out.push({
        type: "repair",
        kind: "stray-close-tag",
        message: `dropped ${tag}, which closed nothing`,
        before: tag,
        after: "",
        span: { start: at, end: at + tag.length },
      });
      return;
    }
    const opener = this.openers.find((o) => o.open === tag)!;
    this.openCall(opener, at, Mode.Text);
  }

  private openCall(opener: CallOpener, at: number, returnMode: Mode.Text | Mode.Think): void {
    this.sawContent = true;
    this.mode = Mode.Call;
    this.call = {
      opener,
      start: at,
      body: "",
      kind: opener.bodyPrefix !== undefined ? BodyKind.Markup : BodyKind.Undecided,
      inString: false,
      escaped: false,
      depth: 0,
      jsonEnd: -1,
      nameSearchDone: false,
      nameSearches: 0,
      returnMode,
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
      else {
        // `<tool_call>` followed by prose: a literal mention of the tag, not a call.
        this.appendBody(buf, from, k, base);
        this.abandonCall(call);
        return k;
      }
    }
    const tags = this.callTags.get(call.opener)!;
    const segment = from;
    if (call.kind === BodyKind.Json) {
      for (; k < buf.length; k++) {
        const c = buf.charCodeAt(k);
        if (call.inString) {
          if (call.escaped) call.escaped = false;
          else if (c === 92) call.escaped = true;
          else if (c === 34) call.inString = false;
          continue;
        }
        if (c === 34) call.inString = true;
        else if (c === 123 || c === 91) call.depth++;
        else if (c === 125 || c === 93) {
          if (call.depth > 0 && --call.depth === 0 && call.jsonEnd < 0) call.jsonEnd = call.body.length + (k + 1 - segment);
        } else if (c === 60) {
          const done = this.callTag(buf, segment, k, base, tags, final);
          if (done >= 0) return done;
        }
      }
    } else {
      for (;;) {
        const lt = buf.indexOf("<", k);
        if (lt < 0) break;
        const done = this.callTag(buf, segment, lt, base, tags, final);
        if (done >= 0) return done;
        k = lt + 1;
      }
    }
    this.appendBody(buf, segment, buf.length, base);
    return buf.length;
  }

  /** At a `<` inside a call: closes the call, holds a possible tag back, or returns -1. */
  private callTag(buf: string, segment: number, lt: number, base: number, tags: TagSet, final: boolean): number {
    const tag = tags.match(buf, lt);
    if (tag === NO_TAG || (tag === PARTIAL_TAG && final)) return -1;
    this.appendBody(buf, segment, lt, base);
    if (tag === PARTIAL_TAG) {
      this.held = buf.slice(lt);
      return buf.length;
    }
    const call = this.call!;
    const end = lt + tags.tags[tag]!.length;
    if (tag === 0) {
      this.finishCall(call, call.body, base + end, true, []);
      return end;
    }
    // A new <tool_call> before this one was closed: close it here and open the next.
    this.finishCall(call, call.body, base + lt, false, [
      { kind: "implicit-close", message: `a new ${TOOL_CALL_OPENER.open} began before ${call.opener.close}; closed the call there`, before: "", after: call.opener.close },
    ]);
    this.openCall(TOOL_CALL_OPENER, base + lt, call.returnMode);
    return end;
  }

  private appendBody(buf: string, from: number, to: number, base: number): void {
    if (to <= from) return;
    const call = this.call!;
    const piece = buf.slice(from, to);
    call.body += piece;
    if (call.id !== undefined) {
      this.out.push({ type: "tool-call-delta", id: call.id, argumentsDelta: piece, span: { start: base + from, end: base + to } });
    } else if (!call.nameSearchDone && call.kind !== BodyKind.Undecided) {
      this.searchName(call, piece, base + to);
    }
  }

  /** Announces the call (tool-call-start) as soon as its body names a known tool. */
  private searchName(call: OpenCall, piece: string, bodyEnd: number): void {
    let name = call.opener.toolName;
    if (name === undefined) {
      const trigger = call.kind === BodyKind.Json ? piece.includes('"') : piece.includes(">") || piece.includes("<");
      if (!trigger && call.body.length <= NAME_SEARCH_LIMIT) return;
      const head = (call.opener.bodyPrefix ?? "") + (call.body.length > NAME_SEARCH_LIMIT ? call.body.slice(0, NAME_SEARCH_LIMIT) : call.body);
      const m = (call.kind === BodyKind.Json ? JSON_NAME : MARKUP_NAME).exec(head);
      if (m) name = (m[1] ?? m[2] ?? m[3])!.trim();
      else if (call.body.length > NAME_SEARCH_LIMIT || ++call.nameSearches >= NAME_SEARCH_ATTEMPTS) call.nameSearchDone = true;
    }
    if (name === undefined) return;
    call.nameSearchDone = true;
    if (!this.toolByName.has(name)) return; // reported when the call ends
    call.id = this.nextId();
    const openSpan = { start: call.start, end: call.start + call.opener.open.length };
    this.out.push({ type: "tool-call-start", id: call.id, name, span: openSpan });
    const bodyStart = bodyEnd - call.body.length;
    this.out.push({ type: "tool-call-delta", id: call.id, argumentsDelta: call.body, span: { start: bodyStart, end: bodyEnd } });
  }

  private abandonCall(call: OpenCall): void {
    this.call = undefined;
    this.mode = call.returnMode;
    this.emitFlow(call.returnMode, call.opener.open + call.body, call.start);
  }

  private finishCall(call: OpenCall, body: string, end: number, closed: boolean, scannerRepairs: Repair[]): void {
    this.call = undefined;
    this.mode = call.returnMode;
    const { opener } = call;
    const text = (opener.bodyPrefix ?? "") + body + (closed ? (opener.bodySuffix ?? "") : "");
    const reading = readCallBody(text, this.tools, opener.toolName);
    const raw = opener.open + body + (closed ? opener.close : "");
    settleCall(
      reading,
      {
        toolByName: this.toolByName,
        span: { start: call.start, end },
        openSpan: { start: call.start, end: call.start + opener.open.length },
        raw,
        ...(call.id !== undefined ? { startedId: call.id } : {}),
        scannerRepairs,
        bodyOffset: call.start + opener.open.length - (opener.bodyPrefix?.length ?? 0),
        nextId: this.nextId,
      },
      this.out,
    );
  }

  /** The stream ended inside a call: recover it if it is whole, else report it unfinished. */
  private endInCall(): void {
    const call = this.call!;
    const { opener, body } = call;
    const bodyStart = call.start + opener.open.length;
    const missingClose: Repair = { kind: "missing-close-tag", message: `the output ended before ${opener.close}; the call was complete`, before: "", after: opener.close };
    let cut = -1;
    let rest: string;
    let closed = false;
    if (call.kind === BodyKind.Json) {
      if (call.jsonEnd >= 0) cut = call.jsonEnd;
      else {
        // A close tag the string tracking missed (an unbalanced quote): take it after all.
        const close = body.indexOf(opener.close);
        if (close >= 0) {
          cut = close;
          closed = true;
        }
      }
    } else if (call.kind === BodyKind.Markup) {
      const reading = readCallBody((opener.bodyPrefix ?? "") + body, this.tools, opener.toolName);
      if (reading.ok && reading.complete) cut = body.length;
    }
    if (cut < 0) {
      const id = call.id ?? this.nextId();
      this.call = undefined;
      this.mode = call.returnMode;
      this.out.push({
        type: "parse-error",
        id,
        kind: "unfinished-tool-call",
        message: `the output ended inside a tool call (no ${opener.close}) and the call is incomplete`,
        raw: opener.open + body,
        span: { start: call.start, end: bodyStart + body.length },
      });
      return;
    }
    const afterCut = closed ? cut + opener.close.length : cut;
    rest = body.slice(afterCut);
    const restTrimmed = rest.trim();
    if (restTrimmed === "```") rest = "";
    this.finishCall(call, body.slice(0, cut), bodyStart + afterCut, closed, closed ? [] : [missingClose]);
    if (rest.length > 0) {
      // What followed the call is output again: scan it as such.
      this.run(rest, true);
    }
  }

  /** The whole output was held back as a possible bare call: decide now. */
  private settleBare(): void {
    const text = this.bare;
    this.bare = "";
    this.mode = Mode.Text;
    const span = { start: this.bareStart, end: this.bareStart + text.length };
    if (this.bareTracker.complete && this.looksLikeCall(text)) {
      const reading = readJsonCallBody(text);
      const fenced = text.trimStart().startsWith("`");
      settleCall(
        reading,
        {
          toolByName: this.toolByName,
          span,
          openSpan: span,
          raw: text,
          bodyOffset: span.start,
          scannerRepairs: [
            {
              kind: "bare-call",
              message: `the whole output was a ${fenced ? "fenced " : ""}call object without ${TOOL_CALL_OPENER.open} tags`,
              before: "",
              after: TOOL_CALL_OPENER.open,
            },
          ],
          nextId: this.nextId,
        },
        this.out,
      );
      return;
    }
    this.out.push({ type: "text", text, span });
  }

  /** A bare object is a call if it names a known tool, or has the shape of a call. */
  private looksLikeCall(text: string): boolean {
    const parsed = parseJsonLenient(text);
    if (!parsed.ok) return false;
    const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
    return (
      items.length > 0 &&
      items.every((item) => {
        if (!isPlainObject(item)) return false;
        const target = isPlainObject(item.function) ? item.function : item;
        if (typeof target.name !== "string") return false;
        return this.toolByName.has(target.name.trim()) || "arguments" in target || "parameters" in target;
      })
    );
  }

  /** Emits text or reasoning, merged with the previous event when it continues it. */
  private emitFlow(mode: Mode, text: string, start: number): void {
    if (text.length === 0) return;
    const type = mode === Mode.Think ? "reasoning" : "text";
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

function isBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function isAllBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isBlank(text.charCodeAt(i))) return false;
  return true;
}
