// The result of parsing must not depend on how the stream was chunked: random chunkings,
// one character at a time and cuts at every tag boundary all fold to the one-shot result,
// for every protocol, on generated outputs that mix prose, reasoning, and good and bad calls.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listProtocols } from "../protocols/registry.ts";
import type { ParseEvent } from "../types.ts";
import { parseChunks } from "./collect.ts";
import { charChunks, foldOf, splitAt, tagBoundaries, testTools } from "./test-fixtures.ts";

const proseFragment = fc.constantFrom(
  "Hello",
  " ",
  "\n",
  "the weather",
  "<b>",
  "</b>",
  "<div>",
  "3 < 4",
  "a > b",
  "<",
  "<tool",
  "<think",
  "</tool_call>",
  "</think>",
  "{",
  "}",
  '"',
  "```",
  "<get_weather",
  "<function",
  "&amp;",
  "é漢🙂",
);
const prose = fc.array(proseFragment, { maxLength: 8 }).map((parts) => parts.join(""));
const value = fc.array(fc.constantFrom("Seoul", " ", '"', "<", ">", "\\", "<tool_call>", "</tool_call>", "{", "}", "\n", "ü"), { maxLength: 5 }).map((p) => p.join(""));
const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const callSegment = fc.oneof(
  value.map((v) => `<tool_call>\n{"name": "get_weather", "arguments": {"location": ${JSON.stringify(v)}}}\n</tool_call>`),
  value.map((v) => `<tool_call>{"name": "get_weather", "parameters": {"location": ${JSON.stringify(v)}, "days": "3",}}</tool_call>`),
  fc.constant(`<tool_call>{'name': 'get_weather', 'arguments': {location: 'Oslo', detailed: True}</tool_call>`),
  fc.constant(`<tool_call>[{"name": "get_weather", "arguments": {"location": "A"}}, {"name": "tag_items", "arguments": {"tags": ["x"]}}]</tool_call>`),
  fc.constant(`<tool_call>{"name": "launch", "arguments": {}}</tool_call>`),
  fc.constant(`<tool_call>{"name": "get_weather", "arguments": {"days": "many"}}</tool_call>`),
  fc.constant(`<tool_call>{"name": "get_weather", "arguments": {"location": "A"}}\n`), // implicitly closed by what follows, or at the end
  value.map((v) => `<tool_call>\n<tool_name>get_weather</tool_name>\n<location>${xmlText(v)}</location>\n</tool_call>`),
  fc.constant(`<get_weather><location>Paris</location><days>2</days></get_weather>`),
  fc.constant(`<tool_call>\n<tool_name>tag_items</tool_name>\n<tags><item>a</item><item>b</item></tags>\n</tool_call>`),
  value.map((v) => `<tool_call>\n<function=get_weather>\n<parameter=location>\n${v}\n</parameter>\n</function>\n</tool_call>`),
  fc.constant(`<function=tag_items>\n<parameter=tags>\n["a", "b"]\n</parameter>\n</function>`),
  fc.constant(`<tool_call>\nnot a call`),
  fc.constant(`<tool_call>{"name": "get_weather", "arguments": {"location": "A"}}\n{"name": "get_weather", "arguments": {"location": "B"}} ok?</tool_call>`),
  fc.constant(`<tool_call>\n{"name": "get_weather", "arguments": {"location": "He said "hi" there"}}\n</tool_call>`),
  fc.constant(`<tool_call>\n{"name": "get_weather", "arguments": {"location": "an "odd quote"}}\n</tool_call>`),
  // The five more formats: each protocol reads its own, and the others must not be confused by them.
  value.map((v) => `<|python_tag|>{"name": "get_weather", "parameters": {"location": ${JSON.stringify(v)}}}<|eom_id|>`),
  fc.constant(`<|python_tag|>{"name": "get_weather", "parameters": {"location": "A"}}; {"name": "tag_items", "parameters": {"tags": ["x"]}}`),
  value.map((v) => `<function=get_weather>{"location": ${JSON.stringify(v)}}</function>`),
  fc.constant(`<|python_start|>[get_weather(location='Oslo', days=2), tag_items(tags=["a", 'b'])]<|python_end|>`),
  fc.constant(`<|python_start|>[get_weather(location='cut`),
  value.map((v) => `[TOOL_CALLS]get_weather[ARGS]{"location": ${JSON.stringify(v)}}</s>`),
  fc.constant(`[TOOL_CALLS][{"name": "get_weather", "arguments": {"location": "A"}}]`),
  fc.constant("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"location\": \"A\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"),
  fc.constant("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"location\": \"B\"}<｜tool▁call▁end｜>"),
);
const thinkSegment = prose.map((p) => `<think>${p}</think>`);
const segment = fc.oneof({ arbitrary: prose, weight: 3 }, { arbitrary: callSegment, weight: 3 }, { arbitrary: thinkSegment, weight: 1 });
const tail = fc.constantFrom(
  "",
  "",
  "<think>unclosed reasoning <tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"X\"}}\n</tool_call> more",
  '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Se',
  "<tool_call>\n<tool_name>get_weather</tool_name>\n<location>Seoul</location>\n",
  "<tool_",
);
const mixedOutput = fc.tuple(fc.array(segment, { maxLength: 6 }), tail).map(([segments, end]) => segments.join("") + end);
const bareOutput = fc.constantFrom(
  '{"name": "get_weather", "parameters": {"location": "A"}}; {"name": "get_weather", "parameters": {"location": "B"}}',
  "[get_weather(location='Lima', days=2)]",
  "[get_weather(location=nowhere)]",
  "[1, 2, 3]",
  '{"name": "get_weather", "arguments": {"location": "Seoul"}}',
  '  \n```json\n{"name": "get_weather", "arguments": {"location": "Seoul",}}\n```\n',
  '<think>x</think>\n[{"name": "get_weather", "arguments": {"location": "A"}}]',
  '{"answer": "<tool_call>"}',
  '{"name": "get_weather", "arguments": {"location": "Seoul"}} and then',
  "```\nplain code\n```",
  '{"name": "get_weather", "arguments": {"location": "Seo',
);
const output = fc.oneof({ arbitrary: mixedOutput, weight: 4 }, { arbitrary: bareOutput, weight: 1 });
const cuts = fc.array(fc.nat(), { maxLength: 40 });

const protocols = listProtocols();

function checkSpans(raw: string, events: ParseEvent[]): void {
  for (const e of events) {
    expect(e.span.start).toBeGreaterThanOrEqual(0);
    expect(e.span.end).toBeLessThanOrEqual(raw.length);
    expect(e.span.start).toBeLessThanOrEqual(e.span.end);
    if (e.type === "text" || e.type === "reasoning") expect(raw.slice(e.span.start, e.span.end)).toBe(e.text);
    if (e.type === "tool-call-delta") expect(raw.slice(e.span.start, e.span.end)).toBe(e.argumentsDelta);
    // Several errors of one body share its span; the body's raw text comes with the first (settle-call.ts).
    if (e.type === "parse-error" && e.kind !== "unfinished-tool-call" && e.raw !== "") expect(raw.slice(e.span.start, e.span.end)).toBe(e.raw);
  }
}

/**
 * Every ended call was announced once, before its deltas and its end; nothing follows its end.
 * Every announced call is settled: it ends, fails with its id, or is taken back ("not-a-call",
 * after which its id may be announced again).
 */
function checkCallLifecycle(events: ParseEvent[]): void {
  const started = new Set<string>();
  const ended = new Set<string>();
  for (const e of events) {
    if (e.type === "tool-call-start") {
      expect(started.has(e.id)).toBe(false);
      started.add(e.id);
    } else if (e.type === "tool-call-delta") {
      expect(started.has(e.id) && !ended.has(e.id)).toBe(true);
    } else if (e.type === "tool-call-end") {
      expect(started.has(e.id) && !ended.has(e.id)).toBe(true);
      expect(e.call.id).toBe(e.id);
      ended.add(e.id);
    } else if (e.type === "parse-error" && e.id !== undefined && started.has(e.id)) {
      ended.add(e.id);
    } else if (e.type === "repair" && e.kind === "not-a-call") {
      expect(e.id !== undefined && started.has(e.id) && !ended.has(e.id)).toBe(true);
      started.delete(e.id!);
    }
  }
  expect([...started].filter((id) => !ended.has(id))).toEqual([]);
}

describe.each(protocols.map((p) => [p.name, p] as const))("chunking does not change the result (%s)", (_name, protocol) => {
  it("random chunkings fold to the one-shot result", () => {
    fc.assert(
      fc.property(output, cuts, (raw, positions) => {
        const chunks = splitAt(raw, positions.map((p) => p % (raw.length + 1)));
        expect(foldOf(protocol, chunks)).toEqual(foldOf(protocol, [raw]));
      }),
      { numRuns: 300 },
    );
  });

  it("one character at a time folds to the one-shot result", () => {
    fc.assert(
      fc.property(output, (raw) => {
        expect(foldOf(protocol, charChunks(raw))).toEqual(foldOf(protocol, [raw]));
      }),
      { numRuns: 200 },
    );
  });

  it("cuts at every tag boundary fold to the one-shot result", () => {
    fc.assert(
      fc.property(output, (raw) => {
        expect(foldOf(protocol, splitAt(raw, tagBoundaries(raw)))).toEqual(foldOf(protocol, [raw]));
      }),
      { numRuns: 200 },
    );
  });

  it("every event's span points at its text in the raw output, and calls start before they end", () => {
    fc.assert(
      fc.property(output, cuts, (raw, positions) => {
        for (const chunks of [[raw], splitAt(raw, positions.map((p) => p % (raw.length + 1)))]) {
          const events = parseChunks(protocol, testTools, chunks);
          checkSpans(raw, events);
          checkCallLifecycle(events);
        }
      }),
      { numRuns: 200 },
    );
  });
});
