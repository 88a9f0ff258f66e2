// The reasoning stage: the first stage of every protocol's streaming parser. It splits the raw
// output into reasoning blocks (`<think>…</think>`) and the rest, and hands every character
// on, with its exact offset in the raw output, to the stage behind it (the call scanner) in
// the channel it belongs to. The tags themselves are consumed here: they are in no event's
// text, and their offsets are left out of every span.
//
// The rule for tags inside a call. The stage looks for its tags only where the stage behind it
// does not own the text. A call owns its text from its opening marker until it ends (closed,
// cut by a new call or a turn's end, or by the end of the output), and an output held back as a
// possible markerless call owns its text until that is decided. So a `<think>` or `</think>`
// inside a call — in a JSON string or anywhere in its body, and whether the call was opened in
// text or in reasoning — is the call's text: it neither opens nor closes reasoning, and a call
// opened inside reasoning returns to reasoning when it ends. Text the stage behind gives back
// (an output that began like a markerless call and was not one; what followed a call recovered
// at the end of the output) is split again from its start, so tags in it count after all.
//
// Ownership at a tag depends only on the text before it, which the stage hands on before it
// decides. So every decision depends on the characters alone and any chunking gives the same
// result. Work is linear: each character is looked at once here (a possible tag at the end of
// a chunk, at most a tag's length, is held back), once more behind, and at most once again if
// it was held back as a possible markerless call that was not one.
import type { ParseEvent, StreamParser } from "../types.ts";
import { NO_TAG, PARTIAL_TAG, TagSet } from "./tag-match.ts";

export type Channel = "text" | "reasoning";

export interface ReasoningTags {
  open: string;
  close: string;
  /** More tags that open a block (Harmony's analysis channel written with or without its `<|start|>assistant`). */
  alsoOpen?: readonly string[];
  /**
   * More pairs of tags, each block closed only by its own pair's close (Magistral writes
   * `<think>…</think>` as plain text where its tokenizer has `[THINK]…[/THINK]`).
   */
  alsoPairs?: readonly { open: string; close: string }[];
  /**
   * Tags that frame messages without being text (Harmony's `<|channel|>final<|message|>`,
   * `<|end|>`, `<|return|>`): consumed silently where they stand outside a call, never stray;
   * inside a reasoning block each one ends it. With `open` and `close` empty: a format that has
   * such tags and no reasoning block.
   */
  framing?: readonly string[];
}

/** Raw output given back to be split again, beginning at `start`. */
export interface ReturnedText {
  text: string;
  start: number;
}

/** The stage behind the reasoning stage. */
export interface ChannelSink {
  /** Takes raw output `text`, which begins at `start`, in the current channel. */
  write(text: string, start: number): void;
  /** Whether the text written so far leaves something open that owns what follows (a call). */
  readonly ownsText: boolean;
  /** The channel changes here; a possible marker held back before it is decided as not one. */
  switchChannel(channel: Channel): void;
  /** A close tag with nothing open at `at`: dropped, and the sink says so. */
  dropStrayClose(tag: string, at: number): void;
  /** Text written earlier that must be split again, if the last write or endOwned gave some back. */
  takeReturned(): ReturnedText | undefined;
  /** Decides a possible marker held back at the end of what was written: the output ended. */
  settleHeld(): void;
  /** The output ended while the sink owns the text: ends what it owns (it may give text back). */
  endOwned(): void;
  /** The events produced since the last flush. */
  flush(): ParseEvent[];
  /** The output ended and nothing is owned: the last events. */
  end(): ParseEvent[];
}

type TagKind = "open" | "close" | "frame";

export class ReasoningStage implements StreamParser {
  private readonly sink: ChannelSink;
  /** Outside reasoning: both tags matter (a close is stray); inside: only the close. */
  private readonly outsideTags: TagSet | undefined;
  private readonly outsideKinds: TagKind[] = [];
  /** For each outside tag, the pair it belongs to (0: `open`/`close`, then `alsoPairs`). */
  private readonly outsidePairs: number[] = [];
  /** Inside a block, per pair: its close and the framing tags. */
  private readonly insideTagsByPair: TagSet[] = [];
  private insideTags: TagSet | undefined;
  private readonly firstChars: string;
  private inReasoning = false;
  /** Raw output received so far, in characters. */
  private total = 0;
  /** A possible tag at the end of the input, held back until the next chunk decides it. */
  private held = "";
  private ended = false;

  /** With `tags` null the format has no reasoning blocks and every character is handed on as text. */
  constructor(tags: ReasoningTags | null, sink: ChannelSink) {
    this.sink = sink;
    if (!tags) {
      this.outsideTags = this.insideTags = undefined;
      this.firstChars = "";
      return;
    }
    const framing = tags.framing ?? [];
    // Empty open and close: a format with framing tags and no reasoning block of its own.
    const pairs = [{ open: tags.open, close: tags.close }, ...(tags.alsoPairs ?? [])].filter((pair) => pair.open !== "" && pair.close !== "");
    // Longer tags first: a tag that begins another (`<|channel|>` …) must not win over it.
    const outside: [string, TagKind, number][] = [
      ...pairs.map(({ open }, pair): [string, TagKind, number] => [open, "open", pair]),
      ...(tags.alsoOpen ?? []).map((t): [string, TagKind, number] => [t, "open", 0]),
      ...framing.map((t): [string, TagKind, number] => [t, "frame", 0]),
    ];
    pairs.forEach(({ close }, pair) => {
      if (!framing.includes(close)) outside.push([close, "close", pair]);
    });
    outside.sort((a, b) => b[0].length - a[0].length);
    this.outsideTags = new TagSet(outside.map(([t]) => t));
    this.outsideKinds = outside.map(([, kind]) => kind);
    this.outsidePairs = outside.map(([, , pair]) => pair);
    this.insideTagsByPair = pairs.map(({ close }) => new TagSet([...new Set([close, ...framing])].sort((a, b) => b.length - a.length)));
    this.insideTags = this.insideTagsByPair[0];
    this.firstChars = [...new Set(outside.map(([t]) => t[0]!))].join("");
  }

  push(chunk: string): ParseEvent[] {
    if (this.ended) throw new Error("push() after end(): create a new parser for each output");
    if (chunk.length === 0) return [];
    const start = this.total - this.held.length;
    this.total += chunk.length;
    const buf = this.held.length > 0 ? this.held + chunk : chunk;
    this.held = "";
    this.split(buf, start, false);
    return this.sink.flush();
  }

  end(): ParseEvent[] {
    if (this.ended) return [];
    this.ended = true;
    const held = this.held;
    this.held = "";
    if (held.length > 0) this.split(held, this.total - held.length, true);
    this.sink.settleHeld();
    while (this.sink.ownsText) {
      this.sink.endOwned();
      const returned = this.sink.takeReturned();
      if (returned) {
        this.split(returned.text, returned.start, true);
        this.sink.settleHeld();
      }
    }
    return this.sink.end();
  }

  /** Hands `buf` (beginning at `base` in the raw output) on, acting on the tags that count. */
  private split(buf: string, base: number, final: boolean): void {
    let from = 0;
    let k = 0;
    for (;;) {
      const at = this.nextTagStart(buf, k);
      const tags = this.inReasoning ? this.insideTags! : this.outsideTags!;
      const tag = at < 0 ? NO_TAG : tags.match(buf, at);
      if (at >= 0 && (tag === NO_TAG || (tag === PARTIAL_TAG && final))) {
        k = at + 1;
        continue;
      }
      // Everything before a (possible) tag goes on first: whether the tag counts depends on it.
      const to = at < 0 ? buf.length : at;
      if (to > from) {
        this.sink.write(from === 0 && to === buf.length ? buf : buf.slice(from, to), base + from);
        from = to;
        const returned = this.sink.takeReturned();
        if (returned) {
          // Split the given-back text again, then go on where this buffer was.
          buf = returned.text + buf.slice(from);
          base = returned.start;
          from = k = 0;
          continue;
        }
      }
      if (at < 0) return;
      if (tag === PARTIAL_TAG) {
        this.held = buf.slice(at);
        return;
      }
      if (this.sink.ownsText) {
        // The call's text (see the rule above): handed on with what follows it.
        k = at + 1;
        continue;
      }
      const tagText = tags.tags[tag]!;
      if (this.inReasoning) {
        this.inReasoning = false;
        this.sink.switchChannel("text");
      } else if (this.outsideKinds[tag] === "open") {
        this.inReasoning = true;
        this.insideTags = this.insideTagsByPair[this.outsidePairs[tag]!];
        this.sink.switchChannel("reasoning");
      } else if (this.outsideKinds[tag] === "close") {
        // A close with no block open (a chat template may open the block itself).
        this.sink.dropStrayClose(tagText, base + at);
      } else {
        // A framing tag: the held-back marker prefix before it is decided, as at a channel change.
        this.sink.switchChannel("text");
      }
      from = k = at + tagText.length;
    }
  }

  /** The next position at or after `from` where a tag may begin, or -1. */
  private nextTagStart(buf: string, from: number): number {
    if (this.firstChars.length === 0) return -1;
    if (this.firstChars.length === 1) return buf.indexOf(this.firstChars, from);
    for (let k = from; k < buf.length; k++) if (this.firstChars.includes(buf[k]!)) return k;
    return -1;
  }
}
