// A synthetic 2,000-token reply, recorded with or without its tokens' top-5 alternatives: the
// log issue #31's size goal is measured on (an exported log with them ≤ 3× the size without).
// Used by the size test and by bench/detect-format.ts, so both measure the same log.
import type { LoopEvent, TokenProbability } from "toolcall-middleware/types.ts";

const tokenText = (i: number) => (i % 7 === 0 ? " the" : i % 5 === 0 ? "<tool_call>" : ` w${i % 97}`);

/** Probabilities as llama.cpp's server gives them: exp of a float32 log-probability (full doubles, rarely repeating). */
function serverLike(i: number, k: number): number {
  const logprob = Math.fround(-(((i * 7919 + k * 104_729) % 10_007) / 10_007) * (k + 1) * 2);
  return Math.exp(logprob);
}

/**
 * The log. `probabilities`: "simple" (p = 0.5 / rank, ids counting up: the bench's log since
 * issue #31), "server-like" (each p a distinct double, ids spread over a 49,152-token vocabulary),
 * or none.
 */
export function syntheticTokenLog(probabilities: "simple" | "server-like" | null, tokens = 2000): LoopEvent[] {
  const withTop = (text: string, i: number): TokenProbability => {
    if (probabilities === "simple") return { text, p: 0.5, id: i, top: Array.from({ length: 5 }, (_, k) => ({ text: tokenText(i + k), p: 0.5 / (k + 1), id: i + k })) };
    const top = Array.from({ length: 5 }, (_, k) => ({ text: tokenText(i + k), p: serverLike(i, k), id: ((i + k) * 2654435761) % 49_152 }));
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
