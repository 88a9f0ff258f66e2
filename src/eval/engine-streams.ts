// An engine whose every stream (prompt mode and native mode) goes through the same wrapper, the
// rest of it unchanged: how the evaluation adds a deadline without tokens, or pacing, to any engine.
import type { Engine, EngineChunk } from "toolcall-middleware/types.ts";

export type StreamWrapper = (start: (signal: AbortSignal) => AsyncIterable<EngineChunk>, signal: AbortSignal) => AsyncIterable<EngineChunk>;

export function wrapEngineStreams(engine: Engine, wrap: StreamWrapper): Engine {
  const native = engine.native;
  const count = engine.countPromptTokens?.bind(engine);
  return {
    name: engine.name,
    ...(engine.constrains !== undefined ? { constrains: engine.constrains } : {}),
    ...(engine.contextWindowSize !== undefined ? { contextWindowSize: engine.contextWindowSize } : {}),
    // Kept: without it the tool loop would not ask for probabilities, and eval cases would lose their call p.
    ...(engine.tokenProbabilities !== undefined ? { tokenProbabilities: engine.tokenProbabilities } : {}),
    ...(count ? { countPromptTokens: count } : {}),
    generate: (prompt, settings, signal, request) => wrap((inner) => engine.generate(prompt, settings, inner, request), signal),
    ...(native ? { native: { request: (input, settings) => native.request(input, settings), generate: (body, signal) => wrap((inner) => native.generate(body, inner), signal) } } : {}),
  };
}
