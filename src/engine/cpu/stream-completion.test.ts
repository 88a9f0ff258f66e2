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
  it("hands llama.cpp the body as is (n_probs, grammar, cache) with streaming and a signal that follows the step's", async () => {
    const { wllama, calls } = scriptedWllama(async (options) => {
      options.onData({ choices: [{ text: "x", index: 0, finish_reason: null, logprobs: { content: [] } }] });
    });
    const step = new AbortController();
    const signal = step.signal;
    const body = completionBody("<|im_start|>user\nhi<|im_end|>\n", { maxTokens: 8, grammar: 'root ::= "x"' }, { runtimeAddsBos: false }, 4);
    const chunks = [];
    for await (const chunk of await streamCompletion(wllama, body, signal)) chunks.push(chunk);
    const { onData, abortSignal, ...sent } = calls[0]!;
    expect(typeof onData).toBe("function");
    expect(sent).toEqual({ ...body, stream: true });
    expect(abortSignal).toBeInstanceOf(AbortSignal);
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

  it("a Stop reaches wllama's request through its signal", async () => {
    const step = new AbortController();
    const { wllama, calls } = scriptedWllama((options) => new Promise<void>((resolve) => options.abortSignal.addEventListener("abort", () => resolve())));
    const stream = await streamCompletion(wllama, completionBody("p", {}, { runtimeAddsBos: false }), step.signal);
    const reading = (async () => {
      for await (const chunk of stream) expect(chunk).toBeDefined();
    })();
    expect(calls[0]!.abortSignal.aborted).toBe(false);
    step.abort();
    expect(calls[0]!.abortSignal.aborted).toBe(true);
    await reading;
  });

  it("a reader that leaves early leaves only once wllama has finished with the request (its cancel done), and cancels it", async () => {
    // wllama's shape: the abort is noticed between two get_result calls, then a cancel is sent; the promise settles after both.
    let finishCancel: () => void = () => undefined;
    const cancelDone = new Promise<void>((resolve) => (finishCancel = resolve));
    const { wllama, calls } = scriptedWllama(
      (options) =>
        new Promise<void>((_, reject) => {
          options.onData({ choices: [{ text: "a" }] });
          options.abortSignal.addEventListener("abort", () => {
            void cancelDone.then(() => {
              const abort = new Error("Operation aborted");
              abort.name = "AbortError";
              reject(abort);
            });
          });
        }),
    );
    let left = false;
    const reader = (async () => {
      for await (const chunk of await streamCompletion(wllama, completionBody("p", {}, { runtimeAddsBos: false }), new AbortController().signal)) {
        expect(chunk).toBeDefined();
        break; // the reader leaves without the step's signal (a warm-up giving way, a loop that has what it needs)
      }
      left = true;
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls[0]!.abortSignal.aborted).toBe(true);
    expect(left).toBe(false);
    finishCancel();
    await reader;
    expect(left).toBe(true);
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
      const stream = await streamCompletion(wllama, completionBody("p", {}, { runtimeAddsBos: false }), stop.signal);
      const reading = (async () => {
        for await (const chunk of stream) {
          expect(chunk).toBeDefined();
          stop.abort();
          break; // the reader leaves, as the engine does on Stop
        }
      })();
      const abort = new Error("Operation aborted");
      abort.name = "AbortError";
      await new Promise((resolve) => setTimeout(resolve, 5));
      fail(abort);
      await reading;
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
