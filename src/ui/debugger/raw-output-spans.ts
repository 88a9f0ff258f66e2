// What the parser made of each stretch of a step's raw output: the coloured segments the raw
// output view draws, which parse event a click lands on, and the selected event's highlight.
import type { ParseEvent, Span } from "toolcall-middleware/types.ts";
import { cutOutsidePair } from "toolcall-middleware/text/surrogate-pairs.ts";
import { LONG_LINE_RUN_CHARS } from "./long-lines.ts";
import type { StepParseEvent } from "./build-steps.ts";

export type SpanKind = "text" | "reasoning" | "tool-call" | "repaired" | "error";
export type SegmentKind = SpanKind | "unparsed";

export interface RawSegment {
  start: number;
  end: number;
  kind: SegmentKind;
  /** Inside the selected parse event's span (an empty segment marks an empty span's place). */
  highlighted: boolean;
}

export function spanKindOf(event: ParseEvent): SpanKind {
  switch (event.type) {
    case "text":
      return "text";
    case "reasoning":
      return "reasoning";
    case "tool-call-start":
    case "tool-call-delta":
    case "tool-call-end":
      return "tool-call";
    case "repair":
      return "repaired";
    case "parse-error":
      return "error";
  }
}

// Where spans overlap (a repair inside a call, an error over a call), the more telling kind wins.
const PRIORITY: Record<SegmentKind, number> = { unparsed: 0, text: 1, reasoning: 2, "tool-call": 3, repaired: 4, error: 5 };
const KINDS: SpanKind[] = ["text", "reasoning", "tool-call", "repaired", "error"];

function clampSpan(span: Span, length: number): Span {
  const start = Math.max(0, Math.min(length, Math.floor(span.start)));
  const end = Math.max(start, Math.min(length, Math.floor(span.end)));
  return { start, end };
}

/**
 * Cuts [0, length) into segments of one kind each (a sweep over span boundaries: n log n in the
 * number of parse events, never per character), split again at the highlight's edges.
 */
export function segmentRawOutput(length: number, events: readonly StepParseEvent[], highlight?: Span | null): RawSegment[] {
  const deltas = new Map<number, number[]>();
  const mark = (at: number, kind: number, delta: number) => {
    let row = deltas.get(at);
    if (!row) {
      row = [0, 0, 0, 0, 0];
      deltas.set(at, row);
    }
    row[kind] = (row[kind] as number) + delta;
  };
  for (const { event } of events) {
    const span = clampSpan(event.span, length);
    if (span.end <= span.start) continue;
    const kind = KINDS.indexOf(spanKindOf(event));
    mark(span.start, kind, 1);
    mark(span.end, kind, -1);
  }
  const hl = highlight ? clampSpan(highlight, length) : null;
  const cuts = new Set<number>([0, length, ...deltas.keys()]);
  if (hl) {
    cuts.add(hl.start);
    cuts.add(hl.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const open = [0, 0, 0, 0, 0];
  const segments: RawSegment[] = [];
  for (let i = 0; i < points.length; i++) {
    const at = points[i] as number;
    const row = deltas.get(at);
    if (row) for (let k = 0; k < 5; k++) open[k] = (open[k] as number) + (row[k] as number);
    if (hl && hl.start === hl.end && hl.start === at) segments.push({ start: at, end: at, kind: "unparsed", highlighted: true });
    const next = points[i + 1];
    if (next === undefined || next <= at) continue;
    let kind: SegmentKind = "unparsed";
    for (let k = 4; k >= 0; k--) {
      if ((open[k] as number) > 0) {
        kind = KINDS[k] as SpanKind;
        break;
      }
    }
    const highlighted = hl !== null && hl.end > hl.start && at >= hl.start && next <= hl.end;
    const last = segments[segments.length - 1];
    if (last && last.end === at && last.kind === kind && last.highlighted === highlighted && last.end > last.start) last.end = next;
    else segments.push({ start: at, end: next, kind, highlighted });
  }
  return segments;
}

/**
 * The parse event a click at `offset` means: the narrowest span covering it; among equals the
 * more telling kind, then the later event. Null where no span covers the offset.
 */
export function parseEventAt(events: readonly StepParseEvent[], offset: number): number | null {
  let best: StepParseEvent | null = null;
  let bestWidth = Infinity;
  for (const candidate of events) {
    const { start, end } = candidate.event.span;
    if (!(offset >= start && offset < end)) continue;
    const width = end - start;
    const better =
      width < bestWidth ||
      (width === bestWidth &&
        best !== null &&
        PRIORITY[spanKindOf(candidate.event)] >= PRIORITY[spanKindOf(best.event)]);
    if (better) {
      best = candidate;
      bestWidth = width;
    }
  }
  return best ? best.index : null;
}

/** A run of whole lines of the raw output, with the segments (clipped to it) that colour it. */
export interface RawChunk {
  start: number;
  end: number;
  segments: RawSegment[];
}

/**
 * Cuts a long raw output into runs of whole lines of about `chars` characters, each with its
 * segments clipped to it: the view draws each run as a block of its own that the browser lays
 * out only when it is in view, and redraws only the run that grew. (50,000 lines in one text
 * run took ≈ 90 ms of layout per streamed update.) A run with no line end within
 * `longLineChars` ends there, whole surrogate pairs kept.
 */
export function chunkRawOutput(text: string, segments: readonly RawSegment[], chars: number, longLineChars = LONG_LINE_RUN_CHARS): RawChunk[] {
  const chunks: RawChunk[] = [];
  let segment = 0;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf("\n", start + chars);
    const lineEnd = newline < 0 ? text.length : newline + 1;
    const end = lineEnd - start > longLineChars ? Math.max(start + 1, cutOutsidePair(text, start + longLineChars)) : lineEnd;
    const clipped: RawSegment[] = [];
    while (segment < segments.length) {
      const s = segments[segment]!;
      if (s.start > end || (s.start === end && end < text.length)) break;
      const from = Math.max(s.start, start);
      const to = Math.min(s.end, end);
      if (to > from || (s.start === s.end && s.start >= start)) clipped.push({ ...s, start: from, end: s.start === s.end ? from : to });
      if (s.end > end) break;
      segment += 1;
    }
    chunks.push({ start, end, segments: clipped });
    start = end;
  }
  return chunks;
}
