import { describe, expect, it } from "vitest";
import type { ParseEvent } from "toolcall-middleware/types.ts";
import { parseRows, rowOfEvent } from "./parse-rows.ts";

const text = (t: string, start: number): ParseEvent => ({ type: "text", text: t, span: { start, end: start + t.length } });
const reasoning = (t: string, start: number): ParseEvent => ({ type: "reasoning", text: t, span: { start, end: start + t.length } });
const indexed = (events: ParseEvent[]) => events.map((event, index) => ({ index, event }));

describe("parse rows", () => {
  it("shows consecutive text fragments as one row spanning and spelling them all", () => {
    const events = indexed([text("The ", 0), text("weat", 4), text("her ", 8), text("is", 12)]);
    const rows = parseRows(events);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ first: 0, last: 3, event: { type: "text", text: "The weather is", span: { start: 0, end: 14 } } });
    // The log's events are untouched.
    expect(events[0]!.event).toEqual(text("The ", 0));
  });

  it("keeps a decision between prose as its own row, and text apart from reasoning", () => {
    const start: ParseEvent = { type: "tool-call-start", id: "c1", name: "f", span: { start: 10, end: 16 } };
    const events = indexed([reasoning("thi", 0), reasoning("nk", 3), text("Ok", 5), text(". ", 7), start, text("after", 20), text("!", 25)]);
    const rows = parseRows(events);
    expect(rows.map((r) => [r.first, r.last, r.event.type])).toEqual([
      [0, 1, "reasoning"],
      [2, 3, "text"],
      [4, 4, "tool-call-start"],
      [5, 6, "text"],
    ]);
    expect(rows[1]!.event).toMatchObject({ text: "Ok. ", span: { start: 5, end: 9 } });
    expect(rowOfEvent(rows, 0)).toBe(0);
    expect(rowOfEvent(rows, 3)).toBe(1);
    expect(rowOfEvent(rows, 4)).toBe(2);
    expect(rowOfEvent(rows, 6)).toBe(3);
    expect(rowOfEvent(rows, 7)).toBe(-1);
  });

  it("merges only events that are next to each other in the log when a filter skips some", () => {
    const events = indexed([text("a", 0), text("b", 1), text("c", 2)]);
    expect(parseRows(events, [0, 2]).map((r) => [r.first, r.last])).toEqual([
      [0, 0],
      [2, 2],
    ]);
  });
});
