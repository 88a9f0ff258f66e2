// The one place the lab calls wllama's createCompletion: a streamed raw completion of a body in
// llama-server's field names (wllama passes it through as JSON; its TypeScript type names some
// fields otherwise, hence the cast), cancelled by the step's signal.
//
// Chunks arrive through `onData` and the completion's own promise is always awaited here: wllama's
// async-iterator form leaves that promise to a reader, so a Stop (its AbortError) or a failure
// after the reader has left became an unhandled rejection in the page's console.
//
// A reader that leaves early (a Stop, a warm-up giving way) leaves only once wllama has finished
// with the request: wllama notices an abort between two `get_result` calls and then sends a
// `cancel` to its worker. Until that cancel is done the request still holds llama.cpp's one slot,
// so the engine's next request, sent as soon as the reader left, would have reached the worker
// before the cancel and run beside a request that was still generating.
import type { Wllama } from "@wllama/wllama";
import { AsyncQueue } from "toolcall-middleware/loop/async-queue.ts";
import type { CompletionBody } from "./completion-body.ts";
import type { CompletionChunk } from "./cpu-engine.ts";

type Item = { chunk: CompletionChunk } | { failure: unknown };

export async function streamCompletion(wllama: Pick<Wllama, "createCompletion">, body: CompletionBody, signal: AbortSignal): Promise<AsyncIterable<CompletionChunk>> {
  const queue = new AsyncQueue<Item>();
  // The step's signal, or the reader leaving: either ends the request in the runtime.
  const cancel = new AbortController();
  const onAbort = () => cancel.abort(signal.reason);
  if (signal.aborted) cancel.abort(signal.reason);
  else signal.addEventListener("abort", onAbort, { once: true });
  const options = { ...body, stream: true, abortSignal: cancel.signal, onData: (chunk: CompletionChunk) => queue.push({ chunk }) };
  const completion = wllama.createCompletion(options as unknown as Parameters<Wllama["createCompletion"]>[0]) as Promise<unknown>;
  const settled = completion
    .then(
      () => queue.close(),
      (failure: unknown) => {
        queue.push({ failure });
        queue.close();
      },
    )
    .finally(() => signal.removeEventListener("abort", onAbort));
  return (async function* () {
    try {
      for await (const item of queue) {
        if ("failure" in item) throw item.failure;
        yield item.chunk;
      }
    } finally {
      cancel.abort();
      await settled;
    }
  })();
}
