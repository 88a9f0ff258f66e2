// A reply that never ends (a server that ignores max_tokens, an endless reasoning stream, call
// arguments without end) is stopped at the step's output limits: what fits is kept, the
// generation is told to stop, and the step and the run end as cut off, saying why.
import { describe, expect, it } from "vitest";
import { getProtocol } from "../protocols/registry.ts";
import type { ChatMessage, Engine, EngineChunk, ExecutableTool, LoopEvent, LoopEventType } from "../types.ts";
import { runToolLoop } from "./run-tool-loop.ts";
import { STEP_OUTPUT_LIMITS, type StepOutputLimits } from "./stream-step.ts";
import { drive } from "./test-support/drive.ts";

type EventOf<T extends LoopEventType> = Extract<LoopEvent, { type: T }>;
const ofType = <T extends LoopEventType>(events: LoopEvent[], type: T) => events.filter((event): event is EventOf<T> => event.type === type);
const user = (content: string): ChatMessage => ({ role: "user", content });
let ran = 0;
const echo: ExecutableTool = {
  name: "echo",
  description: "Echoes",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: async () => {
    ran += 1;
    return "ok";
  },
};

/** Streams `first` then `chunk` for ever, until its signal aborts; remembers whether it was stopped. */
function endlessEngine(first: EngineChunk[], chunk: EngineChunk, native = false): Engine & { stopped: () => boolean; chunks: () => number } {
  let seen: AbortSignal | undefined;
  let chunks = 0;
  const stream = async function* (signal: AbortSignal): AsyncGenerator<EngineChunk> {
    seen = signal;
    for (const c of first) yield c;
    while (!signal.aborted) {
      chunks += 1;
      if (chunks > 100_000) throw new Error("never stopped");
      await Promise.resolve();
      yield chunk;
    }
  };
  return {
    name: "endless",
    stopped: () => seen?.aborted === true,
    chunks: () => chunks,
    generate: (_prompt, _settings, signal) => stream(signal),
    ...(native ? { native: { request: () => ({ model: "m" }), generate: (_body: Record<string, unknown>, signal: AbortSignal) => stream(signal) } } : {}),
  };
}

async function run(engine: Engine, limits: StepOutputLimits = { outputChars: 1_000, reasoningChars: 700 }) {
  ran = 0;
  const { events, result } = await drive(runToolLoop({ engine, protocol: getProtocol("hermes")!, tools: [echo], messages: [user("Hi")], runId: "r", outputLimits: limits }));
  return { events, result, stepEnd: ofType(events, "step-end")[0]!, runEnd: ofType(events, "run-end")[0]! };
}

describe("a step's output limits", () => {
  it("stops an endless reply at the limit, keeps what fits, tells the engine to stop and ends the run as cut off", async () => {
    const engine = endlessEngine([], { type: "text", text: "x".repeat(300) });
    const { events, stepEnd, runEnd, result } = await run(engine);
    const kept = ofType(events, "output-delta").map((d) => d.text).join("");
    expect(kept).toBe("x".repeat(1_000));
    expect(engine.stopped()).toBe(true);
    expect(engine.chunks()).toBeLessThan(10);
    expect(stepEnd).toMatchObject({ status: "cut-off", cutOff: "output-limit" });
    expect(stepEnd.error).toMatch(/reply \(text and call arguments\) passed the lab's limit of 1,000 characters for one step/);
    expect(runEnd).toMatchObject({ status: "cut-off", error: stepEnd.error });
    expect(result.messages.at(-1)).toMatchObject({ role: "assistant", content: "x".repeat(1_000) });
  });

  it("stops a flood of one-character tokens with probabilities at the token limit, ending the reply where the last kept token ends", async () => {
    const token = (text: string) => ({ text, p: 0.5, top: [{ text, p: 0.5 }, { text: "z", p: 0.25 }] });
    // Three tokens a chunk, far inside the character limit: the token limit (10) stops it.
    const engine = endlessEngine([], { type: "text", text: "abc", tokens: [token("a"), token("b"), token("c")] });
    const { events, stepEnd, runEnd } = await run(engine, { outputChars: 1_000, reasoningChars: 700, tokens: 10 });
    const deltas = ofType(events, "output-delta");
    expect(deltas.map((d) => d.text).join("")).toBe("abcabcabca");
    expect(deltas.flatMap((d) => d.tokens ?? []).map((t) => t.text).join("")).toBe("abcabcabca");
    expect(engine.stopped()).toBe(true);
    expect(stepEnd).toMatchObject({ status: "cut-off", cutOff: "output-limit" });
    expect(stepEnd.error).toMatch(/passed the lab's limit of 10 tokens recorded with their probabilities for one step/);
    expect(runEnd.status).toBe("cut-off");
  });

  it("has a token limit by default: 250,000 tokens, a quarter of the character limit", () => {
    expect(STEP_OUTPUT_LIMITS).toEqual({ outputChars: 1_000_000, reasoningChars: 1_000_000, tokens: 250_000 });
  });

  it("does not run the calls of a reply cut at the limit", async () => {
    const call = '<tool_call>\n{"name": "echo", "arguments": {"text": "hi"}}\n</tool_call>';
    const { stepEnd, result } = await run(endlessEngine([{ type: "text", text: call }], { type: "text", text: "y".repeat(100) }));
    expect(stepEnd.cutOff).toBe("output-limit");
    expect(ran).toBe(0);
    expect(result.messages.at(-1)).toMatchObject({ role: "tool", isError: true });
  });

  it("stops endless reasoning at its own limit", async () => {
    const engine = endlessEngine([{ type: "text", text: "Thinking…" }], { type: "reasoning", text: "r".repeat(256) });
    const { events, stepEnd } = await run(engine);
    const reasoning = ofType(events, "parse").flatMap((p) => (p.event.type === "reasoning" ? [p.event.text] : [])).join("");
    expect(reasoning).toBe("r".repeat(700));
    expect(engine.stopped()).toBe(true);
    expect(stepEnd.error).toMatch(/reasoning passed the lab's limit of 700 characters/);
  });

  it("counts a native call's streamed arguments as output", async () => {
    const engine = endlessEngine([{ type: "tool-call-delta", index: 0, name: "echo", argumentsDelta: '{"text": "' }], { type: "tool-call-delta", index: 0, argumentsDelta: "z".repeat(128) }, true);
    const { events, stepEnd } = await run(engine);
    const args = ofType(events, "parse").flatMap((p) => (p.event.type === "tool-call-delta" ? [p.event.argumentsDelta] : [])).join("");
    expect(args.length).toBe(1_000);
    expect(stepEnd.cutOff).toBe("output-limit");
    expect(ran).toBe(0);
  });

  it("never splits a surrogate pair at the limit", async () => {
    const { events } = await run(endlessEngine([{ type: "text", text: "a".repeat(999) }], { type: "text", text: "😀" }));
    const kept = ofType(events, "output-delta").map((d) => d.text).join("");
    expect(kept).toBe("a".repeat(999));
  });

});
