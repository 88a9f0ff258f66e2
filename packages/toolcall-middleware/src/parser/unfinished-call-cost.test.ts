// The cost of unfinished calls (issue 29 item 14): a reply of `<tool_call>{` over and over is one
// cut-off call per 12 characters, each read as lenient JSON. The work must grow linearly with
// the output, and a cut-off body must not go through a strict JSON.parse that throws (a thrown
// SyntaxError cost ~30 µs per call: 5 MB of such calls held the page for seconds).
import { afterEach, describe, expect, it, vi } from "vitest";
import { getProtocol } from "../protocols/registry.ts";
import type { ParseEvent, ToolSpec } from "../types.ts";

const tools: ToolSpec[] = [{ name: "calculator", description: "Evaluates an expression", parameters: { type: "object", properties: { expression: { type: "string" } } } }];

/** Parses `text` in pieces of `piece` characters, counting what JSON.parse was given and how often it threw. */
function parseCounting(text: string, piece: number): { events: ParseEvent[]; parses: number; throws: number; chars: number } {
  const strict = JSON.parse;
  const counts = { parses: 0, throws: 0, chars: 0 };
  vi.spyOn(JSON, "parse").mockImplementation((source: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    counts.parses++;
    counts.chars += source.length;
    try {
      return strict(source, reviver);
    } catch (error) {
      counts.throws++;
      throw error;
    }
  });
  const parser = getProtocol("hermes")!.createParser(tools);
  const events: ParseEvent[] = [];
  for (let at = 0; at < text.length; at += piece) events.push(...parser.push(text.slice(at, at + piece)));
  events.push(...parser.end());
  vi.restoreAllMocks();
  return { events, ...counts };
}

/** The events without the streamed argument deltas (which follow the chunking by design). */
function settled(events: ParseEvent[]): ParseEvent[] {
  return events.filter((e) => e.type !== "tool-call-delta");
}

describe("unfinished calls", () => {
  afterEach(() => vi.restoreAllMocks());

  it("cost no thrown strict parse, and the work grows linearly with the output", () => {
    const small = parseCounting("<tool_call>{".repeat(1_000), 4_096);
    const large = parseCounting("<tool_call>{".repeat(10_000), 4_096);
    // Each cut-off call is still reported (one error per call), so nothing is lost…
    expect(small.events.filter((e) => e.type === "parse-error")).toHaveLength(1_000);
    expect(large.events.filter((e) => e.type === "parse-error")).toHaveLength(10_000);
    // …but none of them goes through a JSON.parse that throws.
    expect(small.throws).toBe(0);
    expect(large.throws).toBe(0);
    // Ten times the output, at most ten times the characters read as JSON (none re-read).
    expect(large.chars).toBeLessThanOrEqual(10 * small.chars);
    expect(large.parses).toBeLessThanOrEqual(10 * small.parses);
  });

  it("give the same results streamed in pieces as read whole", () => {
    const text = `${"<tool_call>{".repeat(500)}<tool_call>{"name": "calculator", "arguments": {"expression": "1"}}</tool_call>${"<tool_call>{\n".repeat(300)}`;
    const whole = settled(parseCounting(text, text.length).events);
    expect(whole.filter((e) => e.type === "tool-call-end")).toHaveLength(1);
    for (const piece of [1, 7, 4_096]) expect(settled(parseCounting(text, piece).events)).toEqual(whole);
  });
});
