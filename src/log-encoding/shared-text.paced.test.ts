// The paced forms of the shared-text codec (encodeAllPaced, decodePaced) give a turn between
// pieces of one delta's tokens, and write and read exactly what the forms at once do: the same
// records, the same events, the same issues, and a codec left in the same state.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LoopEvent, TokenProbability } from "toolcall-middleware/types.ts";
import { SharedTextCodec, TOKENS_PER_PIECE, type DecodeIssue } from "./shared-text.ts";
import { syntheticTokenLog } from "./synthetic-token-log.test-helper.ts";

const head: LoopEvent[] = [
  { type: "run-start", runId: "r", at: 0, protocol: "hermes", messages: [], tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } },
  { type: "step-start", runId: "r", at: 0, stepId: "s", index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: "p", template: "chatml", settings: {}, probabilities: { topK: 5 } },
];

/** A log of deltas; `offset` may be off (a delta that writes over the output) and `at` missing (no stream). */
function logOf(deltas: { tokens: unknown[]; text?: string; at?: number; rewrite: boolean }[]): LoopEvent[] {
  const events = [...head];
  let offset = 0;
  for (const delta of deltas) {
    const text = delta.text ?? delta.tokens.map((token) => (token as { text?: unknown }).text).filter((t) => typeof t === "string").join("");
    const event = { type: "output-delta", runId: "r", stepId: "s", text, offset: delta.rewrite ? 0 : offset, tokens: delta.tokens, ...(delta.at === undefined ? {} : { at: delta.at }) };
    events.push(event as unknown as LoopEvent);
    offset += text.length;
  }
  return events;
}

const text = fc.oneof(fc.constantFrom("", " the", "<tool_call>", "I", "\n"), fc.string({ maxLength: 4 }));
const p = fc.constantFrom(0, 1, 0.5, 0.25, 1 / 3, 0.123);
const alternative = fc.record({ text, p, id: fc.option(fc.constantFrom(0, 7), { nil: undefined }) }).map(({ id, ...rest }) => (id === undefined ? rest : { ...rest, id }));
const plainToken = fc.record({ text, p, top: fc.array(alternative, { maxLength: 4 }) }).map((t): TokenProbability => t);
// Now and then a token not shaped as recorded: the delta's tokens are then written as they are.
const token = fc.oneof({ weight: 9, arbitrary: plainToken }, { weight: 1, arbitrary: fc.constantFrom<unknown>({ text: "x", p: "high", top: [] }, { text: "y", p: 0.5 }) });
const delta = fc.record({
  tokens: fc.array(token, { maxLength: 9 }),
  text: fc.option(text, { nil: undefined }),
  at: fc.option(fc.constantFrom(1, 2), { nil: undefined }),
  rewrite: fc.boolean().map((b) => b && Math.random() < 0.1),
});

const counting = () => {
  const calls = { count: 0 };
  return { calls, checkpoint: async () => void (calls.count += 1) };
};

describe("the shared-text codec, paced", () => {
  it("writes the records encodeAll writes, and leaves the codec where encodeAll does (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(delta, { maxLength: 8 }), fc.array(delta, { maxLength: 4 }), fc.integer({ min: 1, max: 3 }), async (deltas, more, piece) => {
        const events = logOf([...deltas, ...more]);
        const cut = 2 + deltas.length;
        const atOnce = new SharedTextCodec();
        const paced = new SharedTextCodec();
        const { checkpoint } = counting();
        expect(await paced.encodeAllPaced(events.slice(0, cut), checkpoint, piece)).toEqual(atOnce.encodeAll(events.slice(0, cut)));
        // The same state: what follows is written the same by both.
        expect(paced.encodeAll(events.slice(cut))).toEqual(atOnce.encodeAll(events.slice(cut)));
      }),
      { numRuns: 300 },
    );
  });

  it("reads back the events and issues decode does, record by record (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(delta, { maxLength: 8 }), fc.integer({ min: 1, max: 3 }), async (deltas, piece) => {
        const events = logOf(deltas);
        const records = JSON.parse(JSON.stringify(new SharedTextCodec().encodeAll(events))) as unknown[];
        const atOnce = new SharedTextCodec();
        const paced = new SharedTextCodec();
        const { checkpoint } = counting();
        const issuesAtOnce: DecodeIssue[] = [];
        const issuesPaced: DecodeIssue[] = [];
        for (const [index, record] of records.entries()) {
          expect(await paced.decodePaced(record, index, issuesPaced, checkpoint, piece)).toEqual(atOnce.decode(record, index, issuesAtOnce));
        }
        expect(issuesPaced).toEqual(issuesAtOnce);
        expect(issuesPaced).toEqual([]);
        // Both codecs are where the writer was: the log read back writes on the same.
        expect(paced.encodeAll(events.slice(2))).toEqual(atOnce.encodeAll(events.slice(2)));
      }),
      { numRuns: 300 },
    );
  });

  it(`gives a turn every ${TOKENS_PER_PIECE} tokens of one delta, writing and reading`, async () => {
    // 2,000 tokens in one delta (what the import's worker gives and the save writes: one event's tokens are never cut).
    const log = syntheticTokenLog("server-like", 2_000);
    const tokens = log.slice(2).flatMap((e) => (e.type === "output-delta" ? (e.tokens ?? []) : []));
    const one: LoopEvent[] = [...log.slice(0, 2), { type: "output-delta", runId: "r", at: 1, stepId: "s", text: tokens.map((t) => t.text).join(""), offset: 0, tokens }];
    const writing = counting();
    const records = await new SharedTextCodec().encodeAllPaced(one, writing.checkpoint);
    expect(records).toEqual(new SharedTextCodec().encodeAll(one));
    // One before each event, and three inside the delta's check and three inside its writing.
    expect(writing.calls.count).toBeGreaterThanOrEqual(3 + 2 * (2_000 / TOKENS_PER_PIECE - 1));
    const reading = counting();
    const reader = new SharedTextCodec();
    const issues: DecodeIssue[] = [];
    const read: unknown[] = [];
    for (const [index, record] of (JSON.parse(JSON.stringify(records)) as unknown[]).entries()) read.push(...(await reader.decodePaced(record, index, issues, reading.checkpoint)));
    expect(issues).toEqual([]);
    expect(read).toEqual(one);
    expect(reading.calls.count).toBeGreaterThanOrEqual(2_000 / TOKENS_PER_PIECE - 1);
  });

  it("refuses what decode refuses, with the same words, when a delta's tokens are read in pieces", async () => {
    const events = logOf([{ tokens: Array.from({ length: 6 }, (_, i) => ({ text: String(i), p: 0.5, top: [{ text: "x", p: 0.25 }] })), rewrite: false }]);
    const [record] = (JSON.parse(JSON.stringify(new SharedTextCodec().encodeAll(events))) as Record<string, unknown>[]).slice(2);
    const lying = [
      { ...record, tokens: [...(record!.tokens as unknown[]).slice(0, 4), [1, 0.5, null, 99, 0.1]] },
      { ...record, tokens: [...(record!.tokens as unknown[]).slice(0, 4), [9, 0.5, null]] },
      { ...record, stepId: "nowhere" },
    ];
    for (const hostile of lying) {
      const records = [...(new SharedTextCodec().encodeAll(head) as unknown[]), hostile];
      const [atOnce, paced] = [new SharedTextCodec(), new SharedTextCodec()];
      const issuesAtOnce: DecodeIssue[] = [];
      const issuesPaced: DecodeIssue[] = [];
      const readAtOnce = records.flatMap((r, index) => atOnce.decode(r, index, issuesAtOnce));
      const readPaced: unknown[] = [];
      for (const [index, r] of records.entries()) readPaced.push(...(await paced.decodePaced(r, index, issuesPaced, async () => {}, 2)));
      expect(issuesAtOnce.length).toBeGreaterThan(0);
      expect(issuesPaced).toEqual(issuesAtOnce);
      expect(readPaced).toEqual(readAtOnce);
    }
  });
});
