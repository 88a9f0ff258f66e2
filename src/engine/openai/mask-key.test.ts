// The key is masked in streamed text without losing the tokens' probabilities: a person who
// gives the server engine a key (llama-server's --api-key) still gets the decision point.
import { describe, expect, it } from "vitest";
import type { EngineChunk, TokenProbability } from "toolcall-middleware/types.ts";
import { maskKeyInStream } from "./mask-key.ts";

const key = "sk-test-0123456789abcdef";
const token = (text: string, id: number): TokenProbability => ({ text, id, p: 0.5, top: [{ text, id, p: 0.5 }] });

async function* chunks(list: EngineChunk[]): AsyncGenerator<EngineChunk> {
  for (const chunk of list) yield chunk;
}
async function collect(source: AsyncIterable<EngineChunk>): Promise<EngineChunk[]> {
  const out: EngineChunk[] = [];
  for await (const chunk of source) out.push(chunk);
  return out;
}
const textChunks = (list: EngineChunk[]) => list.filter((chunk): chunk is Extract<EngineChunk, { type: "text" }> => chunk.type === "text");

describe("the key masked in a reply that carries its tokens", () => {
  it("keeps every token, in order, with the text it spells, when the key is not in the reply", async () => {
    const words = ["Hello", ",", " I", " am", " a", " small", " model", " that", " writes", " text", "."];
    const input: EngineChunk[] = words.map((word, id) => ({ type: "text", text: word, tokens: [token(word, id)] }));
    const out = await collect(maskKeyInStream(chunks([...input, { type: "usage", usage: { finishReason: "stop" } }]), [key]));
    const texts = textChunks(out);
    expect(texts.map((chunk) => chunk.text).join("")).toBe(words.join(""));
    expect(texts.flatMap((chunk) => chunk.tokens ?? []).map((t) => t.id)).toEqual(words.map((_, id) => id));
    // Each chunk's tokens spell its text (the step records them against it).
    for (const chunk of texts) expect((chunk.tokens ?? []).map((t) => t.text).join("")).toBe(chunk.text);
    // Held back while a key could still be forming, all let out before the usage.
    expect(out.at(-1)?.type).toBe("usage");
  });

  it("masks a key written across tokens and keeps no token from there on", async () => {
    const pieces = ["Your", " key", " is ", key.slice(0, 9), key.slice(9), " ok", "."];
    const input: EngineChunk[] = pieces.map((piece, id) => ({ type: "text", text: piece, tokens: [token(piece, id)] }));
    const out = await collect(maskKeyInStream(chunks(input), [key]));
    const texts = textChunks(out);
    expect(texts.map((chunk) => chunk.text).join("")).toBe("Your key is •••• ok.");
    expect(JSON.stringify(out)).not.toContain(key);
    expect(JSON.stringify(out)).not.toContain(key.slice(9));
  });

  it("lets a chunk whose tokens do not spell its text through as text, in order with the rest", async () => {
    const input: EngineChunk[] = [
      { type: "text", text: "plain ", tokens: [] },
      { type: "text", text: "tok", tokens: [token("tok", 7)] },
      { type: "text", text: "en", tokens: [token("x", 8)] },
    ];
    const out = await collect(maskKeyInStream(chunks(input), [key]));
    const texts = textChunks(out);
    expect(texts.map((chunk) => chunk.text).join("")).toBe("plain token");
    expect(texts.flatMap((chunk) => chunk.tokens ?? []).map((t) => t.id)).toEqual([7]);
  });
});
