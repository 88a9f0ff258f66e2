// The one place the lab calls wllama's createCompletion: a streamed raw completion of a body in
// llama-server's field names (wllama passes it through as JSON; its TypeScript type names some
// fields otherwise, hence the cast), cancelled by the step's signal.
//
// Chunks arrive through `onData` and the completion's own promise is always awaited here: wllama's
// async-iterator form leaves that promise to a reader, so a Stop (its AbortError) or a failure
// after the reader has left became an unhandled rejection in the page's console.
import type { Wllama } from "@wllama/wllama";
import { AsyncQueue } from "toolcall-middleware/loop/async-queue.ts";
import type { CompletionBody } from "./completion-body.ts";
import type { CompletionChunk } from "./cpu-engine.ts";

type Item = { chunk: CompletionChunk } | { failure: unknown };

export async function streamCompletion(wllama: Pick<Wllama, "createCompletion">, body: CompletionBody, signal: AbortSignal): Promise<AsyncIterable<CompletionChunk>> {
  const queue = new AsyncQueue<Item>();
  const options = { ...body, stream: true, abortSignal: signal, onData: (chunk: CompletionChunk) => queue.push({ chunk }) };
  const completion = wllama.createCompletion(options as unknown as Parameters<Wllama["createCompletion"]>[0]) as Promise<unknown>;
  completion.then(
    () => queue.close(),
    (failure: unknown) => {
      queue.push({ failure });
      queue.close();
    },
  );
  return (async function* () {
    for await (const item of queue) {
      if ("failure" in item) throw item.failure;
      yield item.chunk;
    }
  })();
}
