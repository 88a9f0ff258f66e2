// A transcript may carry its turns' tokens with their probabilities (recorded from a real run):
// the replay then streams token by token and reports them, bounded to what the step asked for.
import { describe, expect, it } from "vitest";
import type { EngineChunk, TokenProbability } from "toolcall-middleware/types.ts";
import { ReplayEngine } from "./replay-engine.ts";
import { parseTranscript, TranscriptError } from "./transcript.ts";

const token = (text: string, p: number): TokenProbability => ({ text, p, top: [{ text, p }, { text: "I", p: 0.1 }, { text: "The", p: 0.05 }] });
const never = () => new AbortController().signal;

async function collect(stream: AsyncIterable<EngineChunk>): Promise<EngineChunk[]> {
  const out: EngineChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}
const texts = (chunks: EngineChunk[]) => chunks.filter((c): c is Extract<EngineChunk, { type: "text" }> => c.type === "text");
const usageOf = (chunks: EngineChunk[]) => chunks.find((c): c is Extract<EngineChunk, { type: "usage" }> => c.type === "usage")!.usage;

describe("a replay transcript with token probabilities", () => {
  const transcript = parseTranscript({ title: "t", turns: ["<tool_call>{}</tool_call>", "plain"], tokens: [[token("<tool_call>", 0.62), token("{}", 0.9), token("</tool_call>", 0.99)], null] });

  it("streams a turn token by token with its probabilities, at most the alternatives asked for", async () => {
    const engine = new ReplayEngine(transcript, { delayMs: 0 });
    expect(engine.tokenProbabilities).toEqual({ supported: true });
    const chunks = texts(await collect(engine.generate("p", {}, never(), { topProbabilities: 2 })));
    expect(chunks.map((c) => c.text)).toEqual(["<tool_call>", "{}", "</tool_call>"]);
    expect(chunks[0]!.tokens).toEqual([{ text: "<tool_call>", p: 0.62, top: [{ text: "<tool_call>", p: 0.62 }, { text: "I", p: 0.1 }] }]);
  });

  it("says so in the usage for a turn with none recorded, and sends none unasked", async () => {
    const engine = new ReplayEngine(transcript, { delayMs: 0, position: 1 });
    expect(usageOf(await collect(engine.generate("p", {}, never(), { topProbabilities: 5 }))).probabilitiesMissing).toContain("turn 2");
    engine.reset(0);
    expect(texts(await collect(engine.generate("p", {}, never()))).every((c) => c.tokens === undefined)).toBe(true);
  });

  it("keeps only the tokens before a stop string", async () => {
    const engine = new ReplayEngine(transcript, { delayMs: 0 });
    const chunks = texts(await collect(engine.generate("p", { stop: ["</tool_call>"] }, never(), { topProbabilities: 5 })));
    expect(chunks.map((c) => c.text).join("")).toBe("<tool_call>{}");
    expect(chunks.flatMap((c) => c.tokens ?? []).map((t) => t.text)).toEqual(["<tool_call>", "{}"]);
  });

  it("refuses tokens that are not the turn, naming where; a transcript without tokens says the engine has none", () => {
    expect(() => parseTranscript({ title: "t", turns: ["abc"], tokens: [[token("ab", 0.5)]] })).toThrow(TranscriptError);
    expect(() => parseTranscript({ title: "t", turns: ["abc"], tokens: [[token("ab", 0.5)]] })).toThrow(/tokens\.0/);
    expect(new ReplayEngine(parseTranscript({ title: "t", turns: ["a"] })).tokenProbabilities).toEqual({ supported: false, reason: "This replay transcript records no token probabilities." });
  });
});
