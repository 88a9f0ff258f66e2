// Token probabilities from an OpenAI-compatible server, in both shapes servers write, through a
// real local HTTP stream; a server that sends none is reported, not papered over.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAiTestServer, type OpenAiTestServer } from "../../../e2e/openai-server/server.ts";
import type { EngineChunk } from "toolcall-middleware/types.ts";
import { tokensFromLogprobs } from "../logprobs.ts";
import { OpenAiEngine } from "./openai-engine.ts";

let server: OpenAiTestServer;
beforeAll(async () => {
  server = await startOpenAiTestServer({ models: [{ id: "m" }] });
});
afterAll(() => server.close());

async function collect(stream: AsyncIterable<EngineChunk>): Promise<EngineChunk[]> {
  const out: EngineChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

// llama.cpp's server on /v1/completions (server-task.cpp, probs_vector_to_json): one token per event.
const llamaCppPiece = (token: string, logprob: number, ...top: Array<[string, number]>) => ({
  content: [{ id: 7, token, bytes: [...Buffer.from(token)], logprob, top_logprobs: top.map(([t, l], i) => ({ id: i, token: t, bytes: [...Buffer.from(t)], logprob: l })) }],
});

describe("token probabilities from an OpenAI-compatible server", () => {
  it("asks for logprobs = top k on /v1/completions and yields each piece's tokens (llama.cpp's shape)", async () => {
    server.script({ text: ["<tool_call>", "I"], logprobs: [llamaCppPiece("<tool_call>", Math.log(0.62), ["<tool_call>", Math.log(0.62)], ["I", Math.log(0.21)]), llamaCppPiece("I", Math.log(0.5))] });
    const engine = new OpenAiEngine({ baseUrl: server.url, model: "m", mode: "prompt" });
    expect(engine.tokenProbabilities).toEqual({ supported: true });
    const chunks = await collect(engine.generate("p", {}, new AbortController().signal, { topProbabilities: 5 }));
    expect(server.requests.at(-1)!.body!.logprobs).toBe(5);
    const texts = chunks.filter((c): c is Extract<EngineChunk, { type: "text" }> => c.type === "text");
    expect(texts[0]!.tokens![0]!.text).toBe("<tool_call>");
    expect(texts[0]!.tokens![0]!.p).toBeCloseTo(0.62, 6);
    expect(texts[0]!.tokens![0]!.id).toBe(7);
    expect(texts[0]!.tokens![0]!.top.map((a) => [a.text, Number(a.p.toFixed(2))])).toEqual([["<tool_call>", 0.62], ["I", 0.21]]);
    expect(texts[1]!.tokens![0]!.top).toEqual([]);
    const usage = chunks.find((c) => c.type === "usage");
    expect(usage?.type === "usage" && usage.usage.probabilitiesMissing).toBeFalsy();
  });

  it("reads OpenAI's legacy completions shape (vLLM): parallel lists, alternatives as maps, sorted by probability", () => {
    const tokens = tokensFromLogprobs({ tokens: ["Hi", "!"], token_logprobs: [Math.log(0.5), 0], top_logprobs: [{ Hello: Math.log(0.3), Hi: Math.log(0.5) }, { "!": 0 }], text_offset: [0, 2] });
    expect(tokens?.map((t) => t.text)).toEqual(["Hi", "!"]);
    expect(tokens![0]!.top.map((a) => a.text)).toEqual(["Hi", "Hello"]);
    expect(tokens![1]!.p).toBe(1);
  });

  it("leaves out what has not the shape, and reads llama.cpp's lowest float (a probability of 0) as 0", () => {
    expect(tokensFromLogprobs(null)).toBeUndefined();
    expect(tokensFromLogprobs({ content: [{ token: 3, logprob: 0 }, "x"] })).toBeUndefined();
    expect(tokensFromLogprobs({ content: [{ token: "a", logprob: -3.4028234663852886e38, top_logprobs: [{ token: "b", logprob: "no" }] }] })).toEqual([{ text: "a", p: 0, top: [] }]);
  });

  it("does not ask without topProbabilities, and says so in the usage when a server ignores the request", async () => {
    server.script({ text: ["a"] }, { text: ["b"] });
    const engine = new OpenAiEngine({ baseUrl: server.url, model: "m", mode: "prompt" });
    await collect(engine.generate("p", {}, new AbortController().signal));
    expect(server.requests.at(-1)!.body!.logprobs).toBeUndefined();
    const chunks = await collect(engine.generate("p", {}, new AbortController().signal, { topProbabilities: 3 }));
    const usage = chunks.find((c) => c.type === "usage");
    expect(usage?.type === "usage" && usage.usage.probabilitiesMissing).toContain("no logprobs");
  });

  it("native mode does not claim probabilities", () => {
    expect(new OpenAiEngine({ baseUrl: server.url, model: "m", mode: "native" }).tokenProbabilities).toBeUndefined();
  });
});
