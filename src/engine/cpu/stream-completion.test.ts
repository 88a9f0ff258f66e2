import type { Wllama } from "@wllama/wllama";
import { describe, expect, it } from "vitest";
import { completionBody } from "./completion-body.ts";
import { streamCompletion } from "./stream-completion.ts";

describe("the call to wllama's createCompletion", () => {
  it("hands llama.cpp the body as is (n_probs, grammar, cache) with streaming and the step's signal", async () => {
    const calls: unknown[] = [];
    const wllama = {
      createCompletion: async (options: unknown) => {
        calls.push(options);
        return (async function* () {
          yield { choices: [{ text: "x", index: 0, finish_reason: null, logprobs: { content: [] } }] };
        })();
      },
    } as unknown as Wllama;
    const signal = new AbortController().signal;
    const body = completionBody("<|im_start|>user\nhi<|im_end|>\n", { maxTokens: 8, grammar: 'root ::= "x"' }, { runtimeAddsBos: false }, 4);
    const stream = await streamCompletion(wllama, body, signal);
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(calls).toEqual([{ ...body, stream: true, abortSignal: signal }]);
    expect(calls[0]).toMatchObject({ n_probs: 4, n_predict: 8, cache_prompt: true, grammar: 'root ::= "x"' });
    expect(chunks).toHaveLength(1);
  });
});
