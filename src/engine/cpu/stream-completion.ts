// The one place the lab calls wllama's createCompletion: a streamed raw completion of a body in
// llama-server's field names (wllama passes it through as JSON; its TypeScript type names some
// fields otherwise, hence the cast), cancelled by the step's signal.
import type { RawCompletionChunk, Wllama } from "@wllama/wllama";
import type { CompletionBody } from "./completion-body.ts";
import type { CompletionChunk } from "./cpu-engine.ts";

export async function streamCompletion(wllama: Wllama, body: CompletionBody, signal: AbortSignal): Promise<AsyncIterable<CompletionChunk>> {
  const stream: AsyncIterable<RawCompletionChunk> = await wllama.createCompletion({ ...(body as unknown as { prompt: string }), stream: true, abortSignal: signal });
  return stream;
}
