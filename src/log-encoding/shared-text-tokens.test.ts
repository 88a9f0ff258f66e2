// The compact encoding of token probabilities (shared-text-tokens.ts) inside the shared-text
// codec: exact round trips, older logs, a file that lies, and the size it reaches.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recordedProbability } from "toolcall-middleware/probabilities/recorded-precision.ts";
import type { LoopEvent, TokenProbability } from "toolcall-middleware/types.ts";
import { decodeEventLog, encodeEventLog, SharedTextCodec, type DecodeIssue } from "./shared-text.ts";
import { syntheticTokenLog } from "./synthetic-token-log.test-helper.ts";

const head = (topK: number): LoopEvent[] => [
  { type: "run-start", runId: "r", at: 0, protocol: "hermes", messages: [], tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } },
  { type: "step-start", runId: "r", at: 0, stepId: "s", index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: "p", template: "chatml", settings: {}, probabilities: { topK } },
];

/** Deltas of `pieces`, each with its tokens; offsets and times as the loop records them. */
function logOf(deltas: { tokens: TokenProbability[]; text?: string; at: number }[]): LoopEvent[] {
  const events = head(5);
  let offset = 0;
  let at = 0;
  for (const delta of deltas) {
    const text = delta.text ?? delta.tokens.map((token) => token.text).join("");
    at += delta.at;
    events.push({ type: "output-delta", runId: "r", at, stepId: "s", text, offset, tokens: delta.tokens });
    offset += text.length;
  }
  return events;
}

const roundTrip = (events: readonly LoopEvent[]) => {
  const issues: DecodeIssue[] = [];
  const decoded = decodeEventLog(JSON.parse(JSON.stringify(encodeEventLog(events))) as unknown[], issues);
  return { decoded, issues };
};

// Few texts, ids and probabilities, so that alternatives and numbers repeat (references are used).
const text = fc.oneof(fc.constantFrom("", " the", "<tool_call>", "I", "\n", "é", "{\""), fc.string({ maxLength: 6 }));
const anyP = fc.double({ min: 0, max: 1, noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0));
// Exact doubles (older logs, written in the array form) and probabilities as recorded now (three
// significant digits, written packed), mixed in one log.
const p = fc.oneof(fc.constantFrom(0, 1, 0.5, 0.25, 1 / 3, 1e-300, 5e-324), anyP, anyP.map(recordedProbability));
const id = fc.option(fc.constantFrom(0, 1, 7, 128_000, -1), { nil: undefined });
const alternative = fc.record({ text, p, id }).map(({ id: i, ...rest }) => (i === undefined ? rest : { ...rest, id: i }));
const token = fc
  .record({ text, p, id, top: fc.array(alternative, { maxLength: 6 }), greedy: fc.boolean() })
  .map(({ id: i, greedy, top, ...rest }): TokenProbability => {
    const t: TokenProbability = { ...rest, ...(i === undefined ? {} : { id: i }), top };
    // Often the token is its own first alternative, as a greedy engine reports it.
    return greedy ? { ...t, top: [{ text: t.text, p: t.p, ...(i === undefined ? {} : { id: i }) }, ...top] } : t;
  });
const delta = fc.record({ tokens: fc.array(token, { minLength: 0, maxLength: 4 }), text: fc.option(text, { nil: undefined }), at: fc.constantFrom(0, 1, 2.5) });

/**
 * Each case's tokens put in place of the third record's second item's tokens (a delta of the
 * synthetic log) give exactly one issue there, with the message expected.
 */
function expectEachRefused(encoded: Record<string, unknown>[], cases: [unknown, RegExp][]): void {
  const stream = encoded[2] as { items: unknown[][] };
  for (const [tokens, message] of cases) {
    const hostile = structuredClone(encoded);
    (hostile[2] as { items: unknown[][] }).items[1] = [stream.items[1]![0], stream.items[1]![1], tokens];
    const issues: DecodeIssue[] = [];
    decodeEventLog(hostile, issues);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ index: 2, path: ["items", 1, 2] });
    expect(issues[0]!.message).toMatch(message);
  }
}

describe("token probabilities in the shared-text codec", () => {
  it("any recorded tokens read back exactly (property)", () => {
    fc.assert(
      fc.property(fc.array(delta, { maxLength: 12 }), (deltas) => {
        const events = logOf(deltas);
        const { decoded, issues } = roundTrip(events);
        expect(issues).toEqual([]);
        expect(decoded).toEqual(events);
      }),
      { numRuns: 300 },
    );
  });

  it("a log whose older part was stored as recorded and the rest appended by a rebuilt writer reads back exactly (property)", () => {
    fc.assert(
      fc.property(fc.array(delta, { maxLength: 12 }), fc.nat(), (deltas, cut) => {
        const events = logOf(deltas);
        const at = 2 + (cut % (deltas.length + 1));
        // The older chunks: the events as they are (as the codec wrote tokens before), read by one codec.
        const old = JSON.parse(JSON.stringify(events.slice(0, at))) as unknown[];
        // The store rebuilds its writer from the events in memory, then appends in the compact form.
        const writer = new SharedTextCodec();
        for (const event of events.slice(0, at)) writer.encode(event);
        const appended = JSON.parse(JSON.stringify(writer.encodeAll(events.slice(at)))) as unknown[];
        const reader = new SharedTextCodec();
        const issues: DecodeIssue[] = [];
        const read = [...old, ...appended].flatMap((record, index) => reader.decode(record, index, issues));
        expect(issues).toEqual([]);
        expect(read).toEqual(events);
      }),
      { numRuns: 300 },
    );
  });

  it("writes tokens compactly, and the synthetic 2,000-token log's probabilities read back exactly", () => {
    for (const kind of ["simple", "server-like", "server-exact"] as const) {
      const events = syntheticTokenLog(kind);
      const encoded = JSON.stringify(encodeEventLog(events));
      expect(encoded).not.toContain('"top"');
      const { decoded, issues } = roundTrip(events);
      expect(issues).toEqual([]);
      expect(decoded).toEqual(events);
    }
  });

  it.each(["server-like", "server-exact"] as const)("reads a log written before the compact encoding, and one a writer continued after it (%s probabilities)", (kind) => {
    const events = syntheticTokenLog(kind, 60);
    // The earlier codec wrote a delta with tokens as the event itself, each its own record.
    const old = events.map((event) => JSON.parse(JSON.stringify(event)) as unknown);
    const issues: DecodeIssue[] = [];
    expect(decodeEventLog(old, issues)).toEqual(events);
    expect(issues).toEqual([]);

    // A store rebuilds a writer from the events in memory, then appends chunks in the new encoding
    // to a conversation whose first chunk was stored in the old one.
    const writer = new SharedTextCodec();
    for (const event of events.slice(0, 30)) writer.encode(event);
    const appended = JSON.parse(JSON.stringify(writer.encodeAll(events.slice(30)))) as unknown[];
    expect(JSON.stringify(appended)).not.toContain('"top"');
    const reader = new SharedTextCodec();
    const read = [...old.slice(0, 30), ...appended].flatMap((record, index) => reader.decode(record, index, issues));
    expect(issues).toEqual([]);
    expect(read).toEqual(events);
  });

  it("refuses references a file makes up, naming the record, the item and the token", () => {
    const encoded = JSON.parse(JSON.stringify(encodeEventLog(syntheticTokenLog("simple", 4)))) as Record<string, unknown>[];
    const cases: [unknown, RegExp][] = [
      [[-1, 2, 99, -1], /token 0: alternative 0 refers to alternative number 99, but the step has \d+ before it/],
      [[-50, 2, -1], /token 0: its p refers to probability number 49, but the step has \d+ before it/],
      [[[9, -1, 2, -1]], /token 0: its text is the next 9 characters of the delta, which has 3 left/],
      [[-1, 2.5, -1], /token 0: its id must be a whole number or null/],
      [[-1, 2, { text: "x" }, 0.5], /token 0: alternative 0 is −1, a number, a string or \[text, id\]/],
      [[-1, 2, "x"], /token 0: alternative 0 has no p/],
      [[-1, 2, "x", "0.5"], /token 0: alternative 0's p must be a number/],
    ];
    expectEachRefused(encoded, cases);
  });

  it("refuses packed tokens that make up references or are cut, naming the token and the place", () => {
    const encoded = JSON.parse(JSON.stringify(encodeEventLog(syntheticTokenLog("simple", 4)))) as Record<string, unknown>[];
    expect(typeof (encoded[2] as { items: unknown[][] }).items[1]![2]).toBe("string");
    const cases: [unknown, RegExp][] = [
      // h = 1 + 2·40 = 81 = 1·64 + 17: the first alternative 40 back; the step has fewer.
      ["#RA", /token 0: its first alternative refers to the alternative 40 back, but the step has \d+ \(at character 2 of the packed token\)/],
      // h = 2 (new, no id), then a p 40 back: code 32 + 1,824 + 2·8 = 1,872 = (1·29 + 0)·64 + 16.
      ["C#!Q", /token 0: its p refers to the probability 40 back, but the step has \d+/],
      ["C", /token 0: its p is missing/],
      ["CBé", /token 0: alternative 1 has a character that is no digit/],
      ["CBEZab", /token 0: alternative 1's text is 25 characters, but the packed token has 2 left/],
      ["CBE!!!!!!!!!A", /token 0: alternative 1's text length is too long a number/],
      [["Z"], /token 0: its text is the next 25 characters of the delta, which has 3 left/],
    ];
    expectEachRefused(encoded, cases);
  });

  it("refuses them in a delta written as its own record too, naming its tokens", () => {
    const events = syntheticTokenLog("simple", 3);
    const hostile = [...(encodeEventLog(events.slice(0, 2)) as unknown[]), { ...events[2], tokens: [[1, 0.5, 0, 7, 0.1]] }];
    const issues: DecodeIssue[] = [];
    decodeEventLog(JSON.parse(JSON.stringify(hostile)) as unknown[], issues);
    expect(issues).toEqual([{ index: 2, path: ["tokens"], message: "token 0: alternative 0 refers to alternative number 7, but the step has 0 before it" }]);
  });

  it("counts what alternatives referred to against the import's bound", () => {
    const long = "x".repeat(1000);
    const events = logOf(Array.from({ length: 20 }, () => ({ tokens: [{ text: "a", p: 0.5, top: [{ text: "a", p: 0.5 }, { text: long, p: 0.1 }] }], at: 1 })));
    const encoded = JSON.parse(JSON.stringify(encodeEventLog(events))) as unknown[];
    const issues: DecodeIssue[] = [];
    decodeEventLog(encoded, issues, { referencedChars: 5_000 });
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]!.message).toMatch(/stand for more text than the lab reads from one file \(5,000 characters\)/);
  });

  it("an exported 2,000-token reply with top-5 probabilities as recorded is at most 3 times its size without", () => {
    // Issue #31's goal. 27x as the events are, 5.25x in the exact array form, 2.7x packed; the
    // server-like log (every p distinct, ids random) is printed by bench/detect-format.ts.
    const size = (events: LoopEvent[]) => JSON.stringify(encodeEventLog(events)).length;
    const ratio = size(syntheticTokenLog("simple")) / size(syntheticTokenLog(null));
    expect(ratio).toBeLessThan(3);
  });
});
