// A step's usage from llama.cpp's own report on its last chunk: `timings` (prompt_n tokens
// prefilled, cache_n reused from the cache the step before left, speeds) and the finish reason.
// Reuse is reported like WebLLM's prefix reuse: reused vs prefilled tokens of the prompt.
import type { EngineUsage } from "toolcall-middleware/types.ts";

/** The part of llama.cpp's `timings` the lab reads. */
export interface LlamaTimings {
  cache_n?: number;
  prompt_n?: number;
  prompt_ms?: number;
  prompt_per_second?: number;
  predicted_n?: number;
  predicted_per_second?: number;
}

export interface FinalChunkFacts {
  timings?: LlamaTimings;
  finishReason?: string | null;
  /** Tokens the model was asked to write at most (n_predict), to tell max_tokens from the window. */
  maxTokens?: number;
  contextWindowSize?: number;
  timeToFirstTokenMs?: number;
}

const finite = (value: number | undefined): value is number => typeof value === "number" && Number.isFinite(value);

export function usageFromFinalChunk(facts: FinalChunkFacts): EngineUsage {
  const t = facts.timings ?? {};
  const usage: EngineUsage = { kvState: "kv_cache" };
  if (finite(t.prompt_n)) {
    usage.prefilledTokens = t.prompt_n;
    usage.reusedTokens = finite(t.cache_n) ? t.cache_n : 0;
    usage.promptTokens = t.prompt_n + usage.reusedTokens;
  }
  if (finite(t.predicted_n)) usage.completionTokens = t.predicted_n;
  if (finite(t.prompt_per_second) && t.prompt_per_second > 0) usage.prefillTokensPerSecond = t.prompt_per_second;
  if (finite(t.predicted_per_second) && t.predicted_per_second > 0) usage.decodeTokensPerSecond = t.predicted_per_second;
  if (finite(facts.timeToFirstTokenMs)) usage.timeToFirstTokenMs = facts.timeToFirstTokenMs;
  if (facts.finishReason) usage.finishReason = facts.finishReason;
  if (facts.finishReason === "length") {
    const used = (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0);
    const windowFull = facts.contextWindowSize !== undefined && used >= facts.contextWindowSize;
    const budgetSpent = facts.maxTokens !== undefined && (usage.completionTokens ?? 0) >= facts.maxTokens;
    usage.cutOff = windowFull && !budgetSpent ? "context-window" : "max-tokens";
  }
  return usage;
}
