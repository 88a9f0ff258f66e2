// A synthetic 2,000-token reply, recorded with or without its tokens' top-5 alternatives: the
// log issue #31's size goal is measured on (an exported log with them ≤ 3× the size without).
// Used by the size test and by bench/detect-format.ts, so both measure the same log.
import { recordedProbability } from "toolcall-middleware/probabilities/recorded-precision.ts";
import type { LoopEvent, TokenProbability } from "toolcall-middleware/types.ts";

const tokenText = (i: number) => (i % 7 === 0 ? " the" : i % 5 === 0 ? "<tool_call>" : ` w${i % 97}`);

/** Probabilities as llama.cpp's server gives them: exp of a float32 log-probability (full doubles, rarely repeating). */
function serverLike(i: number, k: number): number {
  const logprob = Math.fround(-(((i * 7919 + k * 104_729) % 10_007) / 10_007) * (k + 1) * 2);
  return Math.exp(logprob);
}

export type SyntheticProbabilities = "simple" | "server-like" | "server-exact";

/**
 * The log. `probabilities`: "simple" (p = 0.5 / rank as recorded, ids counting up: the bench's
 * log since issue #31), "server-like" (a server's probabilities as the loop records them, at
 * three significant digits; ids spread over a 49,152-token vocabulary), "server-exact" (the
 * same as exact doubles, as logs recorded before the recorded precision hold them), or none.
 */
export function syntheticTokenLog(probabilities: SyntheticProbabilities | null, tokens = 2000): LoopEvent[] {
  const withTop = (text: string, i: number): TokenProbability => {
    if (probabilities === "simple") return { text, p: 0.5, id: i, top: Array.from({ length: 5 }, (_, k) => ({ text: tokenText(i + k), p: recordedProbability(0.5 / (k + 1)), id: i + k })) };
    const p = (k: number) => (probabilities === "server-like" ? recordedProbability(serverLike(i, k)) : serverLike(i, k));
    const top = Array.from({ length: 5 }, (_, k) => ({ text: tokenText(i + k), p: p(k), id: ((i + k) * 2654435761) % 49_152 }));
    return { text, p: top[0]!.p, id: top[0]!.id, top: [{ ...top[0]!, text }, ...top.slice(1)] };
  };
  const events: LoopEvent[] = [
    { type: "run-start", runId: "r", at: 0, protocol: "hermes", messages: [], tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } },
    { type: "step-start", runId: "r", at: 0, stepId: "s", index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: "p", template: "chatml", settings: {}, probabilities: { topK: probabilities ? 5 : 0 } },
  ];
  let offset = 0;
  for (let i = 0; i < tokens; i++) {
    const text = tokenText(i);
    events.push({ type: "output-delta", runId: "r", at: i, stepId: "s", text, offset, ...(probabilities ? { tokens: [withTop(text, i)] } : {}) });
    offset += text.length;
  }
  return events;
}
