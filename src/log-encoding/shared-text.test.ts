// The log as saved and exported holds each long text once, and reads back as the very same
// events; a file whose references point nowhere is refused with its place, not a crash.
import { describe, expect, it } from "vitest";
import { loopEventSchema } from "toolcall-middleware/event-log-schema.ts";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { toolCallRun } from "../store/test-events.ts";
import { bigCallLog, bigReplyLog, recordedLogs } from "../persistence/recorded-logs.test-helper.ts";
import { decodeEventLog, encodeEventLog, SharedTextCodec, type DecodeIssue } from "./shared-text.ts";

const size = (value: unknown) => JSON.stringify(value).length;

function roundTrip(events: readonly LoopEvent[]): { decoded: unknown[]; issues: DecodeIssue[] } {
  const issues: DecodeIssue[] = [];
  // Through JSON, as a file or a stored chunk is.
  const decoded = decodeEventLog(JSON.parse(JSON.stringify(encodeEventLog(events))) as unknown[], issues);
  return { decoded, issues };
}

describe("the shared-text encoding of a log", () => {
  it("writes the model's own chat template once, however many steps record it; a log without it is as before", () => {
    const template = `{# a model's own template #}${"{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}".repeat(40)}`;
    const plain = toolCallRun("r1", [{ role: "user", content: "2+2?" }]);
    const events = plain.map((event): LoopEvent => (event.type === "step-start" ? { ...event, modelChatTemplate: template } : event));
    expect(events.filter((e) => e.type === "step-start")).toHaveLength(2);
    const encoded = JSON.stringify(encodeEventLog(events));
    expect(encoded.split("a model's own template").length - 1).toBe(1);
    expect(size(encodeEventLog(events)) - size(encodeEventLog(plain))).toBeLessThan(template.length + 200);
    const { decoded, issues } = roundTrip(events);
    expect(issues).toEqual([]);
    expect(decoded).toEqual(events);
    expect(roundTrip(plain).decoded).toEqual(plain);
  });

  it("writes a 1,000,000-character reply about once (the plain log holds it about five times)", async () => {
    const { events, reply } = await bigReplyLog();
    const plain = size(events);
    const encoded = size(encodeEventLog(events));
    console.log(`1,000,000-character reply: plain log ${plain.toLocaleString("en-US")} chars (${(plain / reply.length).toFixed(2)}x), encoded ${encoded.toLocaleString("en-US")} (${(encoded / reply.length).toFixed(2)}x)`);
    expect(plain).toBeGreaterThan(4 * reply.length);
    expect(encoded).toBeLessThan(1.3 * reply.length);
    const { decoded, issues } = roundTrip(events);
    expect(issues).toEqual([]);
    expect(decoded).toEqual(events);
  });

  it("writes a reply that is one 200,000-character call about three times (output, the call, the turn as the next prompt writes it), not thirteen", async () => {
    const { events, argument } = await bigCallLog(200_000);
    const plain = size(events);
    const encoded = size(encodeEventLog(events));
    console.log(`200,000-character call: plain ${(plain / argument.length).toFixed(2)}x, encoded ${(encoded / argument.length).toFixed(2)}x`);
    expect(plain).toBeGreaterThan(10 * argument.length);
    expect(encoded).toBeLessThan(3.5 * argument.length);
    const { decoded, issues } = roundTrip(events);
    expect(issues).toEqual([]);
    expect(decoded).toEqual(events);
  });

  it("gives back exactly the recorded events of calls, reasoning, broken calls, native steps, sub-agents and branches", async () => {
    const logs = { ...(await recordedLogs()), handWritten: [...toolCallRun("a", [{ role: "user", content: "x".repeat(300) }]), ...toolCallRun("b", [])] };
    const all = Object.values(logs).flat();
    for (const [name, events] of [...Object.entries(logs), ["all together", all] as const]) {
      const { decoded, issues } = roundTrip(events);
      expect(issues, name).toEqual([]);
      expect(decoded, name).toEqual(events);
      // Every decoded event is one the schema accepts (as the recorded one was).
      expect(decoded.every((event) => loopEventSchema.safeParse(event).success), name).toBe(true);
    }
    // The recorded logs repeat text (messages, prompts, parse texts), and the encoding is smaller.
    for (const [name, events] of Object.entries(logs)) {
      const [plain, encoded] = [size(events), size(encodeEventLog(events))];
      console.log(`${name}: plain ${plain.toLocaleString("en-US")} chars, encoded ${encoded.toLocaleString("en-US")} (${((100 * encoded) / plain).toFixed(0)}%)`);
      if (name !== "handWritten") expect(encoded, name).toBeLessThan(plain);
    }
  });

  it("reads a log in pieces with one codec, as a saved log is read chunk by chunk, and writes on after it", async () => {
    const events = Object.values(await recordedLogs()).flat();
    const half = Math.floor(events.length / 2);
    const writer = new SharedTextCodec();
    const firstPart = JSON.parse(JSON.stringify(writer.encodeAll(events.slice(0, half)))) as unknown[];
    const reader = new SharedTextCodec();
    const issues: DecodeIssue[] = [];
    expect(firstPart.flatMap((record, i) => reader.decode(record, i, issues))).toEqual(events.slice(0, half));
    expect(issues).toEqual([]);
    // What the reader knows now is what the writer knew: it writes the rest the same way.
    expect(reader.encodeAll(events.slice(half))).toEqual(writer.encodeAll(events.slice(half)));
    // And a codec that took the first part in event by event (a rebuild) is in the same place.
    const rebuilt = new SharedTextCodec();
    for (const event of events.slice(0, half)) rebuilt.encode(event);
    const rest = events.slice(half);
    const again = new SharedTextCodec();
    again.encodeAll(events.slice(0, half));
    expect(rebuilt.encodeAll(rest)).toEqual(again.encodeAll(rest));
  });

  it("leaves a plain (old) log as it is when decoding it", async () => {
    const events = (await recordedLogs()).memory;
    const issues: DecodeIssue[] = [];
    expect(decodeEventLog(JSON.parse(JSON.stringify(events)) as unknown[], issues)).toEqual(events);
    expect(issues).toEqual([]);
  });

  it("round-trips a hand-made log whose deltas write over their step's output, and long texts of one length", () => {
    const start = { type: "step-start", runId: "r", at: 1, stepId: "s", index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: "p", template: "t", settings: {} };
    const long = "a".repeat(300_000);
    const rewrites = Array.from({ length: 2_000 }, (_, i) => ({ type: "output-delta", runId: "r", at: 3 + i, stepId: "s", text: "b", offset: i % 7 }));
    const parse = { type: "parse", runId: "r", at: 9_000, stepId: "s", event: { type: "text", text: "b", span: { start: 0, end: 1 } } };
    // Texts longer than V8 hashes in full, of one length, differing only at their end.
    const twins = Array.from({ length: 50 }, (_, i) => ({ type: "tool-end", runId: "r", at: 10_000 + i, stepId: "s", callId: "c", name: "t", status: "ok", content: `${"x".repeat(20_000)}${i}`.slice(-20_000), durationMs: 1 }));
    const log = [start, { type: "output-delta", runId: "r", at: 2, stepId: "s", text: long, offset: 0 }, ...rewrites, parse, ...twins, ...twins] as unknown as LoopEvent[];
    const encoded = encodeEventLog(log);
    const { decoded, issues } = roundTrip(log);
    expect(issues).toEqual([]);
    expect(decoded).toEqual(log);
    // The second copy of each twin is a reference; the rewritten output is referred to by nothing.
    expect(encoded.slice(-50).every((record) => typeof (record as { content: unknown }).content === "object")).toBe(true);
    expect(JSON.stringify(encoded)).not.toContain(`"$":"span"`);
  });

  it("writes calls nested deeper than it walks as they are, and reads them back", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 3_000; i += 1) deep = { d: deep };
    const call = { id: "c", name: "f", arguments: { deep, pad: "p".repeat(300) } };
    const start = { type: "step-start", runId: "r", at: 1, stepId: "s", index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: "p", template: "t", settings: {} };
    const log = [start, { type: "tool-start", runId: "r", at: 2, stepId: "s", call }, { type: "tool-start", runId: "r", at: 3, stepId: "s", call }] as unknown as LoopEvent[];
    const encoded = encodeEventLog(log) as { call?: unknown }[];
    expect(encoded[2]?.call).toBe(call);
    const { decoded, issues } = roundTrip(log);
    expect(issues).toEqual([]);
    expect(decoded).toEqual(log);
  });

  describe("refuses references that point nowhere, with the event's place", () => {
    const text = "t".repeat(400);
    const base = [
      { type: "run-start", runId: "r", at: 1, protocol: "hermes", messages: [{ role: "user", content: text }], tools: [], limits: { maxSteps: 2, toolTimeoutMs: 1 } },
      { type: "step-start", runId: "r", at: 2, stepId: "s", index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: "p", template: "t", settings: {} },
      { type: "output-delta", runId: "r", at: 3, stepId: "s", text: "hello", offset: 0 },
    ];
    const decode = (event: unknown, options?: { referencedChars?: number }) => {
      const issues: DecodeIssue[] = [];
      const decoded = decodeEventLog([...base, event], issues, options);
      return { issues, last: decoded.at(-1) };
    };
    const message = (content: unknown) => ({ type: "message", runId: "r", at: 4, message: { role: "assistant", content } });

    it.each([
      ["a text number past the table", { $: "str", n: 1 }, /text number 1, but 1 long text was written/],
      ["a negative text number", { $: "str", n: -1 }, /text number -1/],
      ["a huge text number", { $: "str", n: 1e300 }, /text number 1e\+300/],
      ["a step that never started", { $: "step", k: 5, of: "output" }, /step number 5, but 1 step has started/],
      ["a step part that does not exist", { $: "step", k: 0, of: "everything" }, /"everything"/],
      ["an unknown kind", { $: "zip", n: 0 }, /"zip" is not a kind of reference/],
      ["a span outside a parse event", { $: "span" }, /only allowed as a parse event's text/],
      ["a prefix outside a prompt", { $: "prefix", n: 0, keep: 1, plus: "" }, /only allowed as a step's prompt/],
    ])("%s", (_name, ref, message_) => {
      const { issues, last } = decode(message(ref));
      expect(issues).toEqual([{ index: 3, path: ["message", "content"], message: expect.stringMatching(message_) }]);
      expect(last).toMatchObject({ message: { content: "" } });
    });

    it("a span past the step's output (no huge string is made)", () => {
      const parse = { type: "parse", runId: "r", at: 4, stepId: "s", event: { type: "text", text: { $: "span" }, span: { start: 0, end: 6e8 } } };
      expect(decode(parse).issues).toEqual([{ index: 3, path: ["event", "text"], message: expect.stringMatching(/not within the 5 characters/) }]);
      const orphan = { ...parse, stepId: "nowhere", event: { ...parse.event, span: { start: 0, end: 2 } } };
      expect(decode(orphan).issues[0]?.message).toMatch(/no step-start of this step/);
      const fine = { ...parse, event: { ...parse.event, span: { start: 1, end: 4 } } };
      expect(decode(fine)).toEqual({ issues: [], last: { ...fine, event: { ...fine.event, text: "ell" } } });
    });

    it("a reference to an output a delta wrote over", () => {
      const over = { type: "output-delta", runId: "r", at: 4, stepId: "s", text: "J", offset: 0 };
      const issues: DecodeIssue[] = [];
      decodeEventLog([...base, over, message({ $: "step", k: 0, of: "output" })], issues);
      expect(issues).toEqual([{ index: 4, path: ["message", "content"], message: expect.stringMatching(/which a delta wrote over/) }]);
      const stream = { $: "stream", runId: "r", stepId: "s", at: 5, items: [[0, "x"]] };
      const again: DecodeIssue[] = [];
      decodeEventLog([...base, over, stream], again);
      expect(again[0]?.message).toMatch(/a stream of a step whose output a delta wrote over/);
    });

    it("a call reference past the calls written, and a prompt part that is not a text", () => {
      const start = { type: "tool-start", runId: "r", at: 4, stepId: "s", call: { $: "call", n: 0 } };
      expect(decode(start).issues).toEqual([{ index: 3, path: ["call"], message: "refers to call number 0, but 0 long calls were written before it" }]);
      // A call that has an id is a call as written, whatever else it holds.
      const literal = { ...start, call: { $: "call", n: 0, id: "c", name: "f", arguments: {} } };
      expect(decode(literal)).toEqual({ issues: [], last: literal });
      const step = { ...base[1], stepId: "s2", prompt: { $: "prefix", n: 0, keep: 300, plus: ["a", { $: "span" }] } };
      expect(decode(step).issues[0]?.message).toMatch(/"plus" holds strings and/);
    });

    it("a prompt keeping more than its base has", () => {
      const step = { ...base[1], stepId: "s2", prompt: { $: "prefix", n: 0, keep: 401, plus: "x" } };
      expect(decode(step).issues).toEqual([{ index: 3, path: ["prompt"], message: "keeps 401 characters of a text of 400" }]);
    });

    it("references standing for more text than the budget", () => {
      const many = Array.from({ length: 20 }, (_, i) => message({ $: "str", n: 0 }) && { ...message({ $: "str", n: 0 }), at: 10 + i });
      const issues: DecodeIssue[] = [];
      decodeEventLog([...base, ...many], issues, { referencedChars: 5_000 });
      // 400 characters each: the 13th passes 5,000.
      expect(issues.map((issue) => issue.index)).toEqual(Array.from({ length: 8 }, (_, i) => 15 + i));
      expect(issues[0]?.message).toMatch(/stand for more text than the lab reads/);
    });
  });
});
