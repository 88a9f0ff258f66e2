// A step records its tokens' probabilities where the engine gives them, with the number of
// alternatives it asked for, and says why where the engine cannot: nothing is estimated.
import { describe, expect, it } from "vitest";
import { loopEventSchema } from "../event-log-schema.ts";
import { getProtocol } from "../protocols/registry.ts";
import type { Engine, EngineChunk, GenerationRequest, LoopEvent, TokenProbability } from "../types.ts";
import { runToolLoop } from "./run-tool-loop.ts";
import { drive } from "./test-support/drive.ts";

const token = (text: string, p: number, ...top: Array<[string, number]>): TokenProbability => ({ text, p, top: top.map(([t, q]) => ({ text: t, p: q })) });

function engineWith(chunks: EngineChunk[], support: Engine["tokenProbabilities"]): Engine & { asked: () => GenerationRequest | undefined } {
  let asked: GenerationRequest | undefined;
  return {
    name: "scripted",
    ...(support ? { tokenProbabilities: support } : {}),
    asked: () => asked,
    generate: async function* (_prompt, _settings, _signal, request) {
      asked = request;
      yield* chunks;
      yield { type: "usage", usage: { finishReason: "stop" } };
    },
  };
}

async function run(engine: Engine, topProbabilities?: number, outputChars = 1_000) {
  const { events } = await drive(
    runToolLoop({ engine, protocol: getProtocol("hermes")!, tools: [], messages: [{ role: "user", content: "Hi" }], runId: "r", outputLimits: { outputChars, reasoningChars: 100 }, ...(topProbabilities !== undefined ? { topProbabilities } : {}) }),
  );
  const stepStart = events.find((e): e is Extract<LoopEvent, { type: "step-start" }> => e.type === "step-start")!;
  const deltas = events.filter((e): e is Extract<LoopEvent, { type: "output-delta" }> => e.type === "output-delta");
  return { events, stepStart, deltas };
}

describe("token probabilities in the event log", () => {
  it("asks for the default top 5, records each delta's tokens as the engine gave them, and the log checks", async () => {
    const tokens = [token("Hel", 0.9, ["Hel", 0.9], ["I", 0.05]), token("lo", 0.8, ["lo", 0.8])];
    const engine = engineWith([{ type: "text", text: "Hello", tokens }], { supported: true });
    const { events, stepStart, deltas } = await run(engine);
    expect(engine.asked()?.topProbabilities).toBe(5);
    expect(stepStart.probabilities).toEqual({ topK: 5 });
    expect(deltas[0]!.tokens).toEqual(tokens);
    for (const event of events) expect(loopEventSchema.safeParse(JSON.parse(JSON.stringify(event))).success).toBe(true);
  });

  it("records every probability at three significant digits (recorded-precision.ts), whatever the engine gave", async () => {
    const exact = Math.exp(-0.4731234567);
    const tokens = [token("Hel", exact, ["Hel", exact], ["I", 0.000123456789], ["He", 1], ["Hi", 0])];
    const chunks: EngineChunk[] = [
      { type: "text", text: "Hel", tokens },
      { type: "text", text: "lo", tokens: [token("lo", 0.99996, ["lo", 0.99996])] },
    ];
    const { deltas } = await run(engineWith(chunks, { supported: true }));
    expect(deltas[0]!.tokens).toEqual([token("Hel", 0.623, ["Hel", 0.623], ["I", 0.000123], ["He", 1], ["Hi", 0])]);
    expect(deltas[1]!.tokens).toEqual([token("lo", 1, ["lo", 1])]);
  });

  it("bounds the number asked for, and asks for none at 0", async () => {
    const many = engineWith([{ type: "text", text: "a" }], { supported: true });
    expect((await run(many, 500)).stepStart.probabilities).toEqual({ topK: 20 });
    expect(many.asked()?.topProbabilities).toBe(20);
    const none = engineWith([{ type: "text", text: "a" }], { supported: true });
    expect((await run(none, 0)).stepStart.probabilities).toEqual({ topK: 0 });
    expect(none.asked()?.topProbabilities).toBeUndefined();
  });

  it("records why when the engine cannot, and does not ask it", async () => {
    const silent = engineWith([{ type: "text", text: "a" }], undefined);
    const { stepStart } = await run(silent);
    expect(stepStart.probabilities?.unsupported).toContain("does not report token probabilities");
    expect(silent.asked()?.topProbabilities).toBeUndefined();
    const refusing = engineWith([{ type: "text", text: "a" }], { supported: false, reason: "This server has no logprobs." });
    expect((await run(refusing)).stepStart.probabilities).toEqual({ topK: 5, unsupported: "This server has no logprobs." });
  });

  it("keeps only the tokens of the text that fits when a reply is cut at the output limit", async () => {
    const engine = engineWith([{ type: "text", text: "abcdef", tokens: [token("ab", 0.5), token("cd", 0.5), token("ef", 0.5)] }], { supported: true });
    const { deltas } = await run(engine, undefined, 4);
    expect(deltas[0]!.text).toBe("abcd");
    expect(deltas[0]!.tokens?.map((t) => t.text)).toEqual(["ab", "cd"]);
  });

  it("refuses a logged token with a probability above 1 or more alternatives than the bound", () => {
    const delta = { type: "output-delta", runId: "r", at: 0, stepId: "s", text: "a", offset: 0 };
    expect(loopEventSchema.safeParse({ ...delta, tokens: [token("a", 1.5)] }).success).toBe(false);
    const top = Array.from({ length: 21 }, (_, i) => [`t${i}`, 0.01] as [string, number]);
    expect(loopEventSchema.safeParse({ ...delta, tokens: [token("a", 0.5, ...top)] }).success).toBe(false);
    expect(loopEventSchema.safeParse(delta).success).toBe(true);
  });
});
