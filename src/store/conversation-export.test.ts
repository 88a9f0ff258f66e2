import { describe, expect, it } from "vitest";
import { parseTranscript } from "../engine/replay/transcript.ts";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { createConversation, type Conversation } from "../domain/conversation.ts";
import { exportConversation, importConversation, transcriptFromEvents } from "./conversation-export.ts";
import { toolCallRun } from "./test-events.ts";
import { SERVER_PROMPT_CHARS } from "toolcall-middleware/native/server-prompt.ts";
import { STEP_OUTPUT_LIMITS } from "toolcall-middleware/loop/stream-step.ts";

/** A file as exports were written before text was shared (version 1: the events as they are). */
const versionOneFile = (conversation: Conversation) => ({ ...exportConversation(conversation), version: 1, events: conversation.events });

describe("conversation export and import", () => {
  it("round-trips the event log through JSON as a new conversation", async () => {
    const conversation = { ...createConversation(5), title: "Maths", events: toolCallRun("r1", [{ role: "user", content: "2+2?" }]) };
    const text = JSON.stringify(exportConversation(conversation));
    const imported = await importConversation(text);
    expect(imported.events).toEqual(conversation.events);
    expect(imported.title).toBe("Maths (imported)");
    expect(imported.id).not.toBe(conversation.id);
    expect(imported.settings).toEqual(conversation.settings);
  });

  it("keeps an imported server prompt within SERVER_PROMPT_CHARS, saying how much was cut (a 2.4 MB file held 16 million characters)", async () => {
    const events = toolCallRun("r1", [{ role: "user", content: "2+2?" }]);
    const flood = "\u202e".repeat(SERVER_PROMPT_CHARS + 5);
    const withPrompt = events.map((e) => (e.type === "step-start" && e.index === 0 ? { ...e, serverPrompt: { text: flood } } : e));
    for (const file of [exportConversation({ ...createConversation(5), events: withPrompt }), versionOneFile({ ...createConversation(5), events: withPrompt })]) {
      const imported = await importConversation(JSON.stringify(file));
      const start = imported.events.find((e) => e.type === "step-start")!;
      expect(start.type === "step-start" && start.serverPrompt).toEqual({ text: flood.slice(0, SERVER_PROMPT_CHARS), cutChars: 5 });
      // Everything else is as it was.
      expect(imported.events.filter((e) => e !== start)).toEqual(withPrompt.filter((e) => !(e.type === "step-start" && e.index === 0)));
    }
  });

  it("refuses a step recording more tokens than a live step keeps (STEP_OUTPUT_LIMITS.tokens), counted across its deltas, naming the delta", async () => {
    const base = toolCallRun("r1", [{ role: "user", content: "2+2?" }]);
    const deltaAt = base.findIndex((e) => e.type === "output-delta");
    const flood = (count: number) => Array.from({ length: count }, () => ({ text: "", p: 0.5, top: [] }));
    const fifth = STEP_OUTPUT_LIMITS.tokens / 5;
    const withTokens = (counts: number[]) => {
      const events = [...base];
      const delta = events[deltaAt]!;
      events.splice(deltaAt, 1, ...counts.map((count, i) => ({ ...delta, ...(i > 0 ? { text: "", offset: 15 } : {}), tokens: flood(count) }) as LoopEvent));
      return events;
    };
    // At the bound (in deltas of 50,000: the schema takes at most 100,000 a delta): imported. One past it, in a sixth delta: refused, that delta named.
    await expect(importConversation(JSON.stringify(versionOneFile({ ...createConversation(5), events: withTokens([fifth, fifth, fifth, fifth, fifth]) })))).resolves.toBeDefined();
    await expect(importConversation(JSON.stringify(versionOneFile({ ...createConversation(5), events: withTokens([fifth, fifth, fifth, fifth, fifth, 1]) })))).rejects.toThrow(
      `events.${deltaAt + 5}.tokens: step "r1-s1" records more than 250,000 tokens with their probabilities`,
    );
  });

  it("checks every field of every event against the log's schema, naming the event and the field", async () => {
    const file = versionOneFile({ ...createConversation(5), events: toolCallRun("r1", []) });
    const badStatus = { ...file, events: file.events.map((e, i) => (i === 8 ? { ...e, status: "done" } : e)) };
    await expect(importConversation(JSON.stringify(badStatus))).rejects.toThrow(/events\.8\.status/);
    const badSettings = { ...file, events: file.events.map((e, i) => (i === 1 ? { ...e, settings: { temperature: "hot" } } : e)) };
    await expect(importConversation(JSON.stringify(badSettings))).rejects.toThrow(/events\.1\.settings\.temperature/);
    const badCall = { ...file, events: file.events.map((e, i) => (i === 9 ? { ...e, message: { role: "assistant", content: "x", toolCalls: [{ id: 1 }] } } : e)) };
    await expect(importConversation(JSON.stringify(badCall))).rejects.toThrow(/events\.9\.message\.toolCalls\.0\.id/);
  });

  it("refuses offsets and spans a view could not use: negative, fractional, or past the output recorded so far", async () => {
    const file = versionOneFile({ ...createConversation(5), events: toolCallRun("r1", []) });
    const deltaAt = file.events.findIndex((e) => e.type === "output-delta");
    const withDelta = (patch: Record<string, unknown>) => ({ ...file, events: file.events.map((e, i) => (i === deltaAt ? { ...e, ...patch } : e)) });
    // The attack of issue 18: one delta whose offset leaves a gap of 2e8 or 6e8 characters.
    for (const offset of [2e8, 6e8]) {
      await expect(importConversation(JSON.stringify(withDelta({ offset })))).rejects.toThrow(new RegExp(`events\\.${deltaAt}\\.offset: ${offset} is past the end of its step's output so far \\(0 characters\\)`));
    }
    await expect(importConversation(JSON.stringify(withDelta({ offset: -1 })))).rejects.toThrow(new RegExp(`events\\.${deltaAt}\\.offset`));
    await expect(importConversation(JSON.stringify(withDelta({ offset: 0.5 })))).rejects.toThrow(new RegExp(`events\\.${deltaAt}\\.offset`));
    const parseAt = file.events.findIndex((e) => e.type === "parse");
    const badSpan = { ...file, events: file.events.map((e, i) => (i === parseAt && e.type === "parse" ? { ...e, event: { ...e.event, span: { start: -3, end: 2.5 } } } : e)) };
    await expect(importConversation(JSON.stringify(badSpan))).rejects.toThrow(new RegExp(`events\\.${parseAt}\\.event\\.span\\.start`));
    // A delta that overlaps what came before (offset inside the text) is still a log the view can place.
    const second = { ...file.events[deltaAt]!, text: "again", offset: 2 };
    const overlapping = { ...file, events: [...file.events.slice(0, deltaAt + 1), second, ...file.events.slice(deltaAt + 1)] };
    await expect(importConversation(JSON.stringify(overlapping))).resolves.toBeDefined();
  });

  it("names what is wrong with a bad file", async () => {
    await expect(importConversation("{not json")).rejects.toThrow(/not JSON/);
    await expect(importConversation(JSON.stringify({ hello: 1 }))).rejects.toThrow(/not a Toolcall Lab conversation export — format.*saved with the Conversations pane's "Export" button/);
    const conversation = { ...createConversation(5), events: toolCallRun("r1", []) };
    const file = versionOneFile(conversation);
    const broken = { ...file, events: [...file.events, { type: "tool-end", runId: "r1", at: 1, stepId: "s" }] };
    await expect(importConversation(JSON.stringify(broken))).rejects.toThrow(/events\.18\.callId/);
    const unknownType = { ...file, events: [{ type: "explode", runId: "r", at: 1 }] };
    await expect(importConversation(JSON.stringify(unknownType))).rejects.toThrow(/events\.0\.type/);
    await expect(importConversation(JSON.stringify({ ...file, events: "none" }))).rejects.toThrow(/events: .*expected array/i);
    // A tool's recorded exchange (an MCP call's JSON-RPC) is checked too: the debugger lists it.
    const badTrace = { ...file, events: file.events.map((event) => (event.type === "tool-end" ? { ...event, trace: "junk" } : event)) };
    await expect(importConversation(JSON.stringify(badTrace))).rejects.toThrow(/trace/);
    const trace = [{ direction: "sent", at: 2, message: { jsonrpc: "2.0", id: 0, method: "tools/call" }, label: "POST http://127.0.0.1/mcp" }];
    const goodTrace = { ...file, events: file.events.map((event) => (event.type === "tool-end" ? { ...event, trace } : event)) };
    const imported = await importConversation(JSON.stringify(goodTrace));
    expect(imported.events.find((event) => event.type === "tool-end")).toMatchObject({ trace });
  });

  it("checks a long log a slice at a time, pausing between slices, and names a bad event by its place in the whole log", async () => {
    const conversation = { ...createConversation(5), events: Array.from({ length: 40 }, (_, i) => toolCallRun(`r${i}`, [])).flat() };
    expect(conversation.events.length).toBeGreaterThan(600);
    let pauses = 0;
    const pause = async () => {
      pauses += 1;
    };
    const imported = await importConversation(JSON.stringify(versionOneFile(conversation)), 1, pause);
    expect(imported.events).toEqual(conversation.events);
    expect(pauses).toBe(Math.ceil(conversation.events.length / 250));
    // A version-2 file: slices of about as many events (a stream record holds several).
    pauses = 0;
    expect((await importConversation(JSON.stringify(exportConversation(conversation)), 1, pause)).events).toEqual(conversation.events);
    expect(pauses).toBeGreaterThan(1);
    const file = versionOneFile(conversation);
    const broken = { ...file, events: file.events.map((e, i) => (i === 600 || i === 601 ? { ...e, runId: "" } : e)) };
    await expect(importConversation(JSON.stringify(broken), 1, pause)).rejects.toThrow(/events\.600\.runId: .*events\.601\.runId/);
  });
});

describe("transcriptFromEvents", () => {
  const delta = (runId: string, stepId: string, text: string, parent?: LoopEvent["parent"]): LoopEvent => ({ type: "output-delta", runId, at: 1, stepId, text, offset: 0, ...(parent ? { parent } : {}) });
  const start = (runId: string, stepId: string, protocol: string, parent?: LoopEvent["parent"]): LoopEvent => ({
    type: "step-start", runId, at: 1, stepId, index: 0, protocol, messages: [], templateMessages: [], prompt: "", template: "chatml", settings: {}, ...(parent ? { parent } : {}),
  });

  it("lists each step's raw output in the order steps started, nested steps included", () => {
    const parent = { runId: "r1", stepId: "r1-s1", callId: "c" };
    const events: LoopEvent[] = [
      start("r1", "r1-s1", "xml"), delta("r1", "r1-s1", "<tool_call>"), delta("r1", "r1-s1", "…</tool_call>"),
      start("sub", "sub-s1", "xml", parent), delta("sub", "sub-s1", "sub answer", parent),
      start("r1", "r1-s2", "xml"), delta("r1", "r1-s2", "done"),
      start("r2", "r2-s1", "hermes"), delta("r2", "r2-s1", "second run"),
    ];
    const all = transcriptFromEvents(events, "All");
    expect(all.turns).toEqual(["<tool_call>…</tool_call>", "sub answer", "done", "second run"]);
    expect(all.protocol).toBe("xml");
    expect(parseTranscript(all)).toMatchObject({ title: "All", protocol: "xml" });
    expect(transcriptFromEvents(events, "Second", "r2")).toMatchObject({ protocol: "hermes", turns: ["second run"] });
    expect(transcriptFromEvents(events, "First", "r1").turns).toEqual(["<tool_call>…</tool_call>", "sub answer", "done"]);
    expect(all.usage).toBeUndefined(); // no step had token counts
  });

  it("keeps each turn's token counts where the run had them, null where not, aligned with the turns", () => {
    const usage = (stepId: string, promptTokens?: number, completionTokens?: number): LoopEvent => ({
      type: "usage", runId: "r1", at: 1, stepId, usage: { finishReason: "stop", ...(promptTokens !== undefined ? { promptTokens } : {}), ...(completionTokens !== undefined ? { completionTokens } : {}) },
    });
    const events: LoopEvent[] = [
      start("r1", "r1-s1", "hermes"), delta("r1", "r1-s1", "call"), usage("r1-s1", 812, 41),
      start("r1", "r1-s2", "hermes"), usage("r1-s2", 900), // failed before its first token: not a turn
      start("r1", "r1-s3", "hermes"), delta("r1", "r1-s3", "no counts"), usage("r1-s3"),
      start("r1", "r1-s4", "hermes"), delta("r1", "r1-s4", "final"), usage("r1-s4", 870, 12),
    ];
    const transcript = transcriptFromEvents(events, "Counted");
    expect(transcript.turns).toEqual(["call", "no counts", "final"]);
    expect(transcript.usage).toEqual([{ promptTokens: 812, completionTokens: 41 }, null, { promptTokens: 870, completionTokens: 12 }]);
    expect(parseTranscript(JSON.parse(JSON.stringify(transcript))).usage).toEqual(transcript.usage);
  });

  it("keeps which turns were cut off at a length limit, so the replay ends them the same way", () => {
    const end = (stepId: string, cutOff?: "max-tokens"): LoopEvent => ({ type: "step-end", runId: "r1", at: 1, stepId, status: cutOff ? "cut-off" : "final", durationMs: 1, ...(cutOff ? { cutOff } : {}) });
    const events: LoopEvent[] = [start("r1", "r1-s1", "hermes"), delta("r1", "r1-s1", "<think>long"), end("r1-s1", "max-tokens"), start("r1", "r1-s2", "hermes"), delta("r1", "r1-s2", "ok"), end("r1-s2")];
    const transcript = transcriptFromEvents(events, "Cut");
    expect(transcript.cutOff).toEqual(["max-tokens", null]);
    expect(parseTranscript(JSON.parse(JSON.stringify(transcript))).cutOff).toEqual(["max-tokens", null]);
  });
});
