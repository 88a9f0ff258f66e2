// A server that keeps its connection open with keep-alive comments but never sends a token would
// hold a case, and `npm run eval`, forever. A case gets a deadline that each token pushes back:
// with no token for that long its request is aborted and the case fails with the reason.
import type { Engine, EngineChunk } from "toolcall-middleware/types.ts";
import { wrapEngineStreams } from "./engine-streams.ts";

export class NoTokensError extends Error {
  constructor(readonly ms: number) {
    super(`no token from the engine for ${formatSeconds(ms)} (the case's deadline without tokens)`);
    this.name = "NoTokensError";
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** The engine with each stream failing once `ms` pass without a chunk. */
export function withTokenDeadline(engine: Engine, ms: number): Engine {
  return wrapEngineStreams(engine, (start, signal) => guarded(signal, ms, start));
}

async function* guarded(signal: AbortSignal, ms: number, start: (signal: AbortSignal) => AsyncIterable<EngineChunk>): AsyncGenerator<EngineChunk> {
  const idle = new AbortController();
  const iterator = start(AbortSignal.any([signal, idle.signal]))[Symbol.asyncIterator]();
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), ms);
      });
      const next = await Promise.race([iterator.next(), deadline]).finally(() => clearTimeout(timer));
      if (next === "late") {
        // The request is stopped (its connection closed), then the case fails with the reason.
        idle.abort();
        throw new NoTokensError(ms);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    idle.abort();
    void iterator.return?.()?.catch(() => undefined);
  }
}
