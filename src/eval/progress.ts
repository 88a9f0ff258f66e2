// A run's progress figures from the cases run so far: tokens per second from the engine's own
// timings (what it recorded for prefill and decode, not tokens over wall time), and the time left
// from what a case took on average, prefill and decode apart. Before a run: what it will take,
// cases × the tokens a case is expected to need ÷ a measured rate.
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { caseTiming } from "./case-timing.ts";

/** What one finished case took, from its log. */
export interface CaseFigures {
  /** Wall time of the case, start to verdict. */
  wallMs: number;
  prefilledTokens?: number;
  /** From the engine's own prefill rate (prefilled ÷ tokens per second). */
  prefillMs?: number;
  completionTokens?: number;
  /** From the engine's own decode rate. */
  decodeMs?: number;
}

export function caseFigures(events: readonly LoopEvent[], wallMs: number): CaseFigures {
  const t = caseTiming(events);
  return {
    wallMs,
    ...(t.prefilledTokens !== undefined ? { prefilledTokens: t.prefilledTokens } : {}),
    ...(t.prefillMs !== undefined ? { prefillMs: t.prefillMs } : {}),
    ...(t.completionTokens !== undefined ? { completionTokens: t.completionTokens } : {}),
    ...(t.decodeMs !== undefined ? { decodeMs: t.decodeMs } : {}),
  };
}

export interface ProgressFigures {
  /** Reply tokens over decode time, summed over the cases whose engine timed its decode. */
  decodeTokensPerSecond?: number;
  /** Prompt tokens prefilled over prefill time, likewise. */
  prefillTokensPerSecond?: number;
  /** Time left for the cases not run yet; absent before the first case ends. */
  secondsLeft?: number;
  /** Of which prefill and decode, where the engine timed them. */
  prefillSecondsLeft?: number;
  decodeSecondsLeft?: number;
}

/**
 * The figures after `done` cases with `left` still to run, `concurrency` at a time. A case is
 * expected to take what the cases so far took on average: its prefill and decode at the engine's
 * own rates, plus the rest of its wall time (rendering, parsing, scoring, saving).
 */
export function progressFigures(done: readonly CaseFigures[], left: number, concurrency = 1): ProgressFigures {
  if (done.length === 0) return {};
  const sum = (pick: (c: CaseFigures) => number | undefined) => done.reduce((total, c) => total + (pick(c) ?? 0), 0);
  const prefilled = done.filter((c) => c.prefilledTokens !== undefined && c.prefillMs !== undefined && c.prefillMs > 0);
  const decoded = done.filter((c) => c.completionTokens !== undefined && c.decodeMs !== undefined && c.decodeMs > 0);
  const rate = (cases: readonly CaseFigures[], tokens: (c: CaseFigures) => number | undefined, ms: (c: CaseFigures) => number | undefined) => {
    const t = cases.reduce((total, c) => total + (tokens(c) ?? 0), 0);
    const m = cases.reduce((total, c) => total + (ms(c) ?? 0), 0);
    return m > 0 ? (t / m) * 1000 : undefined;
  };
  const prefillRate = rate(prefilled, (c) => c.prefilledTokens, (c) => c.prefillMs);
  const decodeRate = rate(decoded, (c) => c.completionTokens, (c) => c.decodeMs);
  const perCase = (ms: number) => ms / done.length / 1000;
  const prefillPerCase = perCase(sum((c) => c.prefillMs));
  const decodePerCase = perCase(sum((c) => c.decodeMs));
  const otherPerCase = perCase(done.reduce((total, c) => total + Math.max(0, c.wallMs - (c.prefillMs ?? 0) - (c.decodeMs ?? 0)), 0));
  const lanes = Math.max(1, Math.min(concurrency, left));
  const share = left / lanes;
  return {
    ...(decodeRate !== undefined ? { decodeTokensPerSecond: decodeRate } : {}),
    ...(prefillRate !== undefined ? { prefillTokensPerSecond: prefillRate } : {}),
    secondsLeft: share * (prefillPerCase + decodePerCase + otherPerCase),
    ...(prefilled.length > 0 ? { prefillSecondsLeft: share * prefillPerCase } : {}),
    ...(decoded.length > 0 ? { decodeSecondsLeft: share * decodePerCase } : {}),
  };
}

/** What a run is expected to take before it starts: each case's prompt at the prefill rate and its reply at the decode rate. */
export function expectedSeconds(plan: { cases: number; promptTokens: number; replyTokens: number }, rates: { prefillTokensPerSecond: number; decodeTokensPerSecond: number }): { prefill: number; decode: number; total: number } {
  const prefill = rates.prefillTokensPerSecond > 0 ? (plan.cases * plan.promptTokens) / rates.prefillTokensPerSecond : Number.POSITIVE_INFINITY;
  const decode = rates.decodeTokensPerSecond > 0 ? (plan.cases * plan.replyTokens) / rates.decodeTokensPerSecond : Number.POSITIVE_INFINITY;
  return { prefill, decode, total: prefill + decode };
}

/** "45 s", "3 min", "1 h 5 min": a duration in words a person reads at a glance. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "unknown";
  const s = Math.max(0, Math.round(seconds));
  if (s < 90) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A rate as people read it: one decimal under 10 ("0.4 tokens/s", not "0"), whole above. */
export function formatRate(perSecond: number): string {
  return perSecond < 10 ? perSecond.toFixed(1) : perSecond.toFixed(0);
}
