// Whether a step asks its engine for each token's probability and alternatives, and if it
// cannot, why: recorded on the step-start, so a view says "this engine does not report
// probabilities" instead of showing nothing and leaving a reader to guess.
import { DEFAULT_TOP_PROBABILITIES, MAX_TOP_PROBABILITIES } from "../event-log-schema.ts";
import type { Engine, ProbabilityRecording } from "../types.ts";

/** The number of alternatives a run asked for, as a whole number within the recorded bound. */
export function boundedTopK(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return DEFAULT_TOP_PROBABILITIES;
  return Math.min(MAX_TOP_PROBABILITIES, Math.max(0, Math.floor(requested)));
}

export function probabilityRecording(engine: Engine, native: boolean, requested: number | undefined): ProbabilityRecording {
  const topK = boundedTopK(requested);
  if (topK === 0) return { topK };
  if (native) return { topK, unsupported: "Native tool calling: the server writes the calls itself (llama.cpp's server refuses logprobs with tools while streaming), so the lab asks for probabilities in prompt mode only." };
  const support = engine.tokenProbabilities;
  if (!support) return { topK, unsupported: `The engine (${engine.name}) does not report token probabilities.` };
  if (!support.supported) return { topK, unsupported: support.reason };
  return { topK };
}
