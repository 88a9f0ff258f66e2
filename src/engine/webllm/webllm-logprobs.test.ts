// WebLLM's token probabilities: asked for as logprobs/top_logprobs (WebLLM takes at most 5, and
// its own request check accepts what we send), read from its chunks (one token's entry per
// chunk), and sent out with the text they belong to, also where a stop string's start was held back.
import { postInitAndCheckFieldsCompletion } from "@mlc-ai/web-llm";
import { describe, expect, it } from "vitest";
import type { EngineChunk } from "toolcall-middleware/types.ts";
import { buildRequest, WebLlmEngine, type CompletionTransport, type RawCompletionChunk } from "./webllm-engine.ts";

function transport(chunks: RawCompletionChunk[]) {
  const sent: unknown[] = [];
  let i = 0;
  const t: CompletionTransport = {
    startStream: async (request) => (sent.push(request), "s"),
    nextChunk: async () => chunks[i++],
    closeStream: async () => undefined,
    interrupt: () => undefined,
  };
  return { t, sent };
}

// WebLLM's makeStreamDeltaChunk on the raw path: the last token's ChatCompletionTokenLogprob.
const piece = (text: string, logprob: number, ...top: Array<[string, number]>): RawCompletionChunk => ({
  choices: [{ text, finish_reason: null, logprobs: { content: [{ token: text, bytes: [], logprob, top_logprobs: top.map(([token, l]) => ({ token, bytes: [], logprob: l })) }] } }],
});

async function collect(stream: AsyncIterable<EngineChunk>) {
  const out: EngineChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}
const texts = (chunks: EngineChunk[]) => chunks.filter((c): c is Extract<EngineChunk, { type: "text" }> => c.type === "text");

describe("WebLLM's token probabilities", () => {
  it("asks for logprobs with at most 5 alternatives, in a request WebLLM's own check accepts", () => {
    const request = buildRequest("p", { maxTokens: 8 }, 10);
    expect(request).toMatchObject({ logprobs: true, top_logprobs: 5 });
    expect(() => postInitAndCheckFieldsCompletion(request as Parameters<typeof postInitAndCheckFieldsCompletion>[0], "m")).not.toThrow();
    expect(buildRequest("p", {})).not.toHaveProperty("logprobs");
  });

  it("yields each token with its text, holding a stop string's start back with the token that wrote it", async () => {
    const { t, sent } = transport([
      piece("Hi", Math.log(0.7), ["Hi", Math.log(0.7)], ["<tool_call>", Math.log(0.2)]),
      piece("<|im", Math.log(0.5)),
      piece("x", Math.log(0.4)),
      { choices: [{ text: "", finish_reason: "stop" }] },
      { choices: [], usage: { prompt_tokens: 3, completion_tokens: 3 } },
    ]);
    const engine = new WebLlmEngine(t, "SmolLM2-135M-Instruct-q0f32-MLC");
    expect(engine.tokenProbabilities).toEqual({ supported: true });
    const chunks = await collect(engine.generate("p", { stop: ["<|im_end|>"] }, new AbortController().signal, { topProbabilities: 3 }));
    expect(sent[0]).toMatchObject({ logprobs: true, top_logprobs: 3 });
    const out = texts(chunks);
    expect(out.map((c) => c.text).join("")).toBe("Hi<|imx");
    expect(out[0]!.tokens!.map((tk) => [tk.text, Number(tk.p.toFixed(2)), tk.top.map((a) => a.text)])).toEqual([["Hi", 0.7, ["Hi", "<tool_call>"]]]);
    expect(out.flatMap((c) => c.tokens ?? []).map((tk) => tk.text)).toEqual(["Hi", "<|im", "x"]);
    const usage = chunks.at(-1);
    expect(usage?.type === "usage" && usage.usage.probabilitiesMissing).toBeFalsy();
  });

  it("says so when WebLLM sends none (its logprobs content empty)", async () => {
    const { t } = transport([{ choices: [{ text: "ok", logprobs: { content: [] } }] }, { choices: [{ text: "", finish_reason: "stop" }] }, { choices: [], usage: { prompt_tokens: 1, completion_tokens: 1 } }]);
    const chunks = await collect(new WebLlmEngine(t, "m").generate("p", {}, new AbortController().signal, { topProbabilities: 5 }));
    const usage = chunks.at(-1);
    expect(usage?.type === "usage" && usage.usage.probabilitiesMissing).toContain("no logprobs");
  });
});
