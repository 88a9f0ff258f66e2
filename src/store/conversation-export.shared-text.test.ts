// Exported files hold each long text once (version 2), import back as the very same events,
// and refuse references that point nowhere; version-1 files (full copies) still import.
import { describe, expect, it } from "vitest";
import { bigReplyLog, recordedLogs } from "../persistence/recorded-logs.test-helper.ts";
import { createConversation } from "../domain/conversation.ts";
import { exportConversation, exportConversationInSlices, ImportError, importConversation } from "./conversation-export.ts";

describe("exported files with each long text once", () => {
  it("exports a run with a 1,000,000-character reply in a file about its size (it was four times that), and imports it back", async () => {
    const { events, reply } = await bigReplyLog();
    const conversation = { ...createConversation(5), title: "Big", events };
    const text = JSON.stringify(exportConversation(conversation));
    const before = JSON.stringify({ ...exportConversation(conversation), version: 1, events }).length;
    console.log(`export: ${text.length.toLocaleString("en-US")} characters (${(text.length / reply.length).toFixed(2)}x the reply); as version 1: ${before.toLocaleString("en-US")} (${(before / reply.length).toFixed(2)}x)`);
    expect(text.length).toBeLessThan(1.3 * reply.length);
    expect((await importConversation(text)).events).toEqual(events);
  });

  it("makes the file a slice of events at a time, pausing between slices, and it reads the same", async () => {
    const { events, reply } = await bigReplyLog(60_000, 16);
    const conversation = { ...createConversation(5), title: "Sliced", events };
    let pauses = 0;
    const file = await exportConversationInSlices(conversation, 7, async () => {
      pauses += 1;
    });
    expect(pauses).toBe(Math.ceil(events.length / 1_000));
    expect(file).toMatchObject({ version: 2, title: "Sliced", exportedAt: 7 });
    const text = JSON.stringify(file);
    // 16-character deltas: each still costs its time and place (a few characters), not its event.
    expect(text.length).toBeLessThan(3 * reply.length);
    expect((await importConversation(text)).events).toEqual(events);
  });

  it("imports recorded logs back exactly: calls, reasoning, broken calls, native steps, sub-agents, branches", async () => {
    const logs = await recordedLogs();
    for (const [name, events] of [...Object.entries(logs), ["all", Object.values(logs).flat()] as const]) {
      const conversation = { ...createConversation(5), title: name, events };
      expect((await importConversation(JSON.stringify(exportConversation(conversation)))).events, name).toEqual(events);
      // The same log as an older export wrote it (every text in full) imports the same.
      const versionOne = { ...exportConversation(conversation), version: 1, events };
      expect((await importConversation(JSON.stringify(versionOne))).events, name).toEqual(events);
    }
  });

  it("refuses a file whose references point nowhere or out of range, naming the event and field", async () => {
    const { events } = await bigReplyLog(5_000, 500);
    const file = exportConversation({ ...createConversation(5), events });
    const at = (type: string, test: (event: Record<string, unknown>) => boolean = () => true) =>
      (file.events as Record<string, unknown>[]).findIndex((event) => event.type === type && test(event));
    const patched = (index: number, patch: (event: Record<string, unknown>) => Record<string, unknown>) => ({
      ...file,
      events: (file.events as Record<string, unknown>[]).map((event, i) => (i === index ? patch(event) : event)),
    });
    const message = at("message");
    expect((file.events[message] as { message: { content: unknown } }).message.content).toMatchObject({ $: "step" });
    const withContent = (content: unknown) => patched(message, (event) => ({ ...event, message: { ...(event.message as object), content } }));
    await expect(importConversation(JSON.stringify(withContent({ $: "str", n: 99 })))).rejects.toThrow(new RegExp(`events\\.${message}\\.message\\.content: refers to text number 99`));
    await expect(importConversation(JSON.stringify(withContent({ $: "step", k: 7, of: "output" })))).rejects.toThrow(/refers to step number 7, but 1 step has started/);
    await expect(importConversation(JSON.stringify(withContent({ $: "nope" })))).rejects.toThrow(ImportError);
    // A stream's parse item with a span past its step's output: refused, no string of that size is made.
    const streamAt = (file.events as Record<string, unknown>[]).findIndex((event) => event.$ === "stream");
    const items = (file.events[streamAt] as { items: unknown[][] }).items;
    const parseItem = items.findIndex((item) => item.length === 3);
    const farSpan = patched(streamAt, (event) => ({ ...event, items: items.map((item, i) => (i === parseItem ? [item[0], 0, 6e8] : item)) }));
    await expect(importConversation(JSON.stringify(farSpan))).rejects.toThrow(new RegExp(`events\\.${streamAt}\\.items\\.${parseItem}: refers to \\[0, 600000000\\) of the step's output, which is not within`));
    const badItem = patched(streamAt, (event) => ({ ...event, items: [...items, ["x"]] }));
    await expect(importConversation(JSON.stringify(badItem))).rejects.toThrow(/an item is \[dt, text\]/);
    const badTime = patched(streamAt, (event) => ({ ...event, at: "noon" }));
    await expect(importConversation(JSON.stringify(badTime))).rejects.toThrow(/a stream record needs/);
    // A file that is fine but for its version.
    await expect(importConversation(JSON.stringify({ ...file, version: 3 }))).rejects.toThrow(/version must be 1 or 2/);
  });

  it("refuses a small file whose references stand for a huge text", async () => {
    const { events } = await bigReplyLog(300_000, 30_000);
    const file = exportConversation({ ...createConversation(5), events });
    const message = (file.events as Record<string, unknown>[]).find((event) => event.type === "message")!;
    // 1,000 copies of the message, each a reference to the 300,000-character reply: 3 * 10^8 characters.
    const bomb = { ...file, events: [...file.events, ...Array.from({ length: 1_000 }, () => message)] };
    const text = JSON.stringify(bomb);
    expect(text.length).toBeLessThan(500_000);
    await expect(importConversation(text)).rejects.toThrow(/stand for more text than the lab reads from one file/);
  });

  it("refuses a file whose prompts each repeat the one before twice by reference (a billion laughs), naming the place and the bound", async () => {
    // 16 steps: the last prompt is 300 × 2^16 = 19,660,800 characters, all of them 39 million,
    // from a file of a few kilobytes (each prompt: the one before, then the one before again).
    const head = exportConversation({ ...createConversation(5), title: "Laughs", events: [] });
    const records: unknown[] = [{ type: "run-start", runId: "r", at: 1, protocol: "hermes", messages: [{ role: "user", content: "hi" }], tools: [], limits: { maxSteps: 40, toolTimeoutMs: 1000 } }];
    let length = 300;
    for (let i = 0; i <= 16; i++) {
      const prompt = i === 0 ? "P".repeat(length) : { $: "prefix", n: i - 1, keep: length / 2, plus: [{ $: "str", n: i - 1 }] };
      records.push({ type: "step-start", runId: "r", at: 2 + i, stepId: `s${i}`, index: i, protocol: "hermes", messages: [{ role: "user", content: "hi" }], templateMessages: [], prompt, template: "chatml", settings: {} });
      records.push({ type: "step-end", runId: "r", at: 2 + i, stepId: `s${i}`, status: "final", durationMs: 1 });
      length *= 2;
    }
    const text = JSON.stringify({ ...head, events: records });
    expect(text.length).toBeLessThan(10_000);
    const refused = await importConversation(text).then(() => "imported", (error: unknown) => error);
    expect(refused).toBeInstanceOf(ImportError);
    // Where (the record and field), what (the references), and the bound (256 × the file's length).
    expect((refused as Error).message).toMatch(/events\.\d+\.prompt: the references of this file stand for more text than the lab reads from one file \([\d,]+ characters: 256 times the file's [\d,]+ characters, at most 268,435,456\)/);
    // The same prompts a few steps deep are within the bound, and decode to doubling texts.
    const few = JSON.stringify({ ...head, events: records.slice(0, 1 + 2 * 4) });
    const imported = await importConversation(few);
    expect(imported.events.flatMap((e) => (e.type === "step-start" ? [e.prompt.length] : []))).toEqual([300, 600, 1_200, 2_400]);
  });
});
