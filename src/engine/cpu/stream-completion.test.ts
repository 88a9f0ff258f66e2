import type { Wllama } from "@wllama/wllama";
import { describe, expect, it } from "vitest";
import { completionBody } from "./completion-body.ts";
import { streamCompletion } from "./stream-completion.ts";

type Options = { onData: (chunk: unknown) => void; abortSignal: AbortSignal } & Record<string, unknown>;

/** wllama's createCompletion with onData: chunks are handed to the callback, the promise settles at the end. */
function scriptedWllama(run: (options: Options) => Promise<void>) {
  const calls: Options[] = [];
  const wllama = {
    createCompletion: (options: Options) => {
      calls.push(options);
      return run(options);
    },
  } as unknown as Pick<Wllama, "createCompletion">;
  return { wllama, calls };
}

describe("the call to wllama's createCompletion", () => {
  it("hands llama.cpp the body as is (n_probs, grammar, cache) with streaming and the step's signal", async () => {
    const { wllama, calls } = scriptedWllama(async (options) => {
      options.onData({ choices: [{ text: "x", index: 0, finish_reason: null, logprobs: { content: [] } }] });
    });
    const signal = new AbortController().signal;
    const body = completionBody("<|im_start|>user\nhi<|im_end|>\n", { maxTokens: 8, grammar: 'root ::= "x"' }, { runtimeAddsBos: false }, 4);
    const chunks = [];
    for await (const chunk of await streamCompletion(wllama, body, signal)) chunks.push(chunk);
    const { onData, ...sent } = calls[0]!;
    expect(typeof onData).toBe("function");
    expect(sent).toEqual({ ...body, stream: true, abortSignal: signal });
    expect(sent).toMatchObject({ n_probs: 4, n_predict: 8, cache_prompt: true, grammar: 'root ::= "x"' });
    expect(chunks).toHaveLength(1);
  });

  it("reports a failure to the reader after the chunks before it", async () => {
    const { wllama } = scriptedWllama(async (options) => {
      options.onData({ choices: [{ text: "a" }] });
      throw new Error("decode failed");
    });
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const chunk of await streamCompletion(wllama, completionBody("p", {}, { runtimeAddsBos: false }), new AbortController().signal)) seen.push(chunk);
      })(),
    ).rejects.toThrow("decode failed");
    expect(seen).toHaveLength(1);
  });

  it("leaves no unhandled rejection when the reader stops first and the completion then fails (a Stop)", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const stop = new AbortController();
      let fail: (error: Error) => void = () => undefined;
      const { wllama } = scriptedWllama(
        (options) =>
          new Promise<void>((_, reject) => {
            options.onData({ choices: [{ text: "a" }] });
            fail = reject;
          }),
      );
      for await (const chunk of await streamCompletion(wllama, completionBody("p", {}, { runtimeAddsBos: false }), stop.signal)) {
        expect(chunk).toBeDefined();
        break; // the reader leaves, as the engine does on Stop
      }
      stop.abort();
      const abort = new Error("Operation aborted");
      abort.name = "AbortError";
      fail(abort);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
