// llama.cpp's report of how far it has read a prompt (a request with return_progress: true gets
// one per batch, as `prompt_progress` on a streamed chunk: llama-server's /v1/completions and
// the same server code in the page, wllama), read into what the event log records.
import type { PromptProgress } from "toolcall-middleware/types.ts";

export interface LlamaPromptProgress {
  total?: number;
  cache?: number;
  processed?: number;
  time_ms?: number;
}

/** The report as the event log records it; undefined where it is not one. */
export function promptProgressOf(report: LlamaPromptProgress | undefined | null): PromptProgress | undefined {
  if (!report || typeof report !== "object") return undefined;
  const { total, cache, processed, time_ms: elapsed } = report;
  if (![total, processed].every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0)) return undefined;
  return {
    totalTokens: Math.round(total!),
    cachedTokens: typeof cache === "number" && Number.isFinite(cache) && cache >= 0 ? Math.round(cache) : 0,
    processedTokens: Math.round(processed!),
    elapsedMs: typeof elapsed === "number" && Number.isFinite(elapsed) && elapsed >= 0 ? elapsed : 0,
  };
}
