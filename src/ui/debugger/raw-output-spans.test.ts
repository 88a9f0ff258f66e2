import { describe, expect, it } from "vitest";
import type { ParseEvent } from "toolcall-middleware/types.ts";
import type { StepParseEvent } from "./build-steps.ts";
import { LONG_LINE_RUN_CHARS } from "./long-lines.ts";
import { chunkRawOutput, parseEventAt, segmentRawOutput, type RawSegment } from "./raw-output-spans.ts";

const indexed = (events: ParseEvent[]): StepParseEvent[] => events.map((event, index) => ({ index, event }));

// "Hi <tool_call>{'a':1}</tool_call>" — text, then a call holding a repair.
const events = indexed([
  { type: "text", text: "Hi ", span: { start: 0, end: 3 } },
  { type: "tool-call-start", id: "c", name: "f", span: { start: 3, end: 14 } },
  { type: "repair", id: "c", kind: "single-quotes", message: "quotes", before: "{'a':1}", after: '{"a":1}', span: { start: 14, end: 21 } },
  { type: "tool-call-end", id: "c", call: { id: "c", name: "f", arguments: { a: 1 } }, span: { start: 3, end: 33 } },
]);

describe("segmentRawOutput", () => {
  it("colours each stretch by the most telling kind covering it and leaves the rest unparsed", () => {
    const segments = segmentRawOutput(40, events);
    expect(segments.map((s) => [s.start, s.end, s.kind])).toEqual([
      [0, 3, "text"],
      [3, 14, "tool-call"],
      [14, 21, "repaired"],
      [21, 33, "tool-call"],
      [33, 40, "unparsed"],
    ]);
    expect(segments.every((s) => !s.highlighted)).toBe(true);
  });

  it("covers the whole text without gaps or overlaps", () => {
    const segments = segmentRawOutput(40, events, { start: 10, end: 25 });
    let at = 0;
    for (const s of segments) {
      expect(s.start).toBe(at);
      at = s.end;
    }
    expect(at).toBe(40);
  });

  it("splits at the highlight and marks exactly the highlighted stretch", () => {
    const segments = segmentRawOutput(40, events, { start: 10, end: 25 });
    const lit = segments.filter((s) => s.highlighted);
    expect(lit.map((s) => [s.start, s.end, s.kind])).toEqual([
      [10, 14, "tool-call"],
      [14, 21, "repaired"],
      [21, 25, "tool-call"],
    ]);
  });

  it("marks an empty span's place with an empty highlighted segment", () => {
    const segments = segmentRawOutput(10, indexed([{ type: "text", text: "", span: { start: 4, end: 4 } }]), { start: 4, end: 4 });
    expect(segments).toContainEqual({ start: 4, end: 4, kind: "unparsed", highlighted: true });
  });

  it("clamps spans beyond the text streamed so far", () => {
    const segments = segmentRawOutput(5, indexed([{ type: "text", text: "x", span: { start: 2, end: 99 } }]));
    expect(segments.map((s) => [s.start, s.end, s.kind])).toEqual([
      [0, 2, "unparsed"],
      [2, 5, "text"],
    ]);
  });
});

describe("parseEventAt", () => {
  it("picks the narrowest span under the offset", () => {
    expect(parseEventAt(events, 1)).toBe(0);
    expect(parseEventAt(events, 15)).toBe(2);
    expect(parseEventAt(events, 5)).toBe(1);
    expect(parseEventAt(events, 25)).toBe(3);
  });

  it("returns null where nothing was parsed", () => {
    expect(parseEventAt(events, 35)).toBeNull();
  });

  it("round-trips: the event a click selects highlights a stretch containing the click", () => {
    for (let offset = 0; offset < 33; offset++) {
      const index = parseEventAt(events, offset);
      expect(index).not.toBeNull();
      const span = events[index as number]?.event.span;
      const lit = segmentRawOutput(40, events, span).filter((s) => s.highlighted);
      expect(lit.some((s) => s.start <= offset && offset < s.end)).toBe(true);
    }
  });
});

describe("chunkRawOutput", () => {
  it("cuts a long output into runs of whole lines whose clipped segments cover it exactly", () => {
    const text = Array.from({ length: 2_000 }, (_, i) => `line ${i}`).join("\n");
    const segments: RawSegment[] = [
      { start: 0, end: 5_000, kind: "text", highlighted: false },
      { start: 5_000, end: 5_000, kind: "tool-call", highlighted: true },
      { start: 5_000, end: 9_000, kind: "tool-call", highlighted: true },
      { start: 9_000, end: text.length, kind: "unparsed", highlighted: false },
    ];
    const chunks = chunkRawOutput(text, segments, 1_000);
    expect(chunks.length).toBeGreaterThan(10);
    for (const [i, chunk] of chunks.entries()) {
      // Each run ends a line (but the last), and the runs follow each other.
      if (i < chunks.length - 1) expect(text[chunk.end - 1]).toBe("\n");
      expect(chunk.start).toBe(i === 0 ? 0 : chunks[i - 1]!.end);
      const covered = chunk.segments.filter((s) => s.end > s.start);
      expect(covered[0]!.start).toBe(chunk.start);
      expect(covered.at(-1)!.end).toBe(chunk.end);
    }
    expect(chunks.at(-1)!.end).toBe(text.length);
    const kinds = chunks.flatMap((c) => c.segments.map((s) => `${s.kind}:${s.start}-${s.end}`));
    expect(kinds).toContain("tool-call:5000-5000");
  });

  it("cuts a line of 960,000 characters (80,000 unfinished calls) into runs of at most LONG_LINE_RUN_CHARS, never inside a surrogate pair", () => {
    const text = `${"<tool_call>{".repeat(80_000)}\n${"😀".repeat(10_000)}`;
    const segments: RawSegment[] = [
      { start: 0, end: 960_000, kind: "error", highlighted: false },
      { start: 960_000, end: text.length, kind: "text", highlighted: false },
    ];
    const chunks = chunkRawOutput(text, segments, 4_000);
    expect(Math.max(...chunks.map((c) => c.end - c.start))).toBeLessThanOrEqual(LONG_LINE_RUN_CHARS);
    expect(chunks.length).toBeGreaterThanOrEqual(960_000 / LONG_LINE_RUN_CHARS);
    for (const [i, chunk] of chunks.entries()) {
      expect(chunk.start).toBe(i === 0 ? 0 : chunks[i - 1]!.end);
      const code = text.charCodeAt(chunk.end - 1);
      expect(code >= 0xd800 && code <= 0xdbff).toBe(false);
      const covered = chunk.segments.filter((s) => s.end > s.start);
      expect(covered[0]!.start).toBe(chunk.start);
      expect(covered.at(-1)!.end).toBe(chunk.end);
    }
    expect(chunks.at(-1)!.end).toBe(text.length);
  });
});
