// The precision a step records token probabilities at: three significant digits. A view shows a
// probability with two or three ("p = 0.62", "p = 0.0041"), a decision point multiplies a few of
// them (each factor off by at most 0.5%), and the eval averages them; more digits say nothing a
// reader can use. Engines give far more (llama.cpp's server a float32 log-probability, so a
// double with 17 digits after exp), and those digits made an exported log with top-5
// alternatives 12 times the size without. Rounded here, once, as the loop records a delta, every
// engine's probabilities are recorded alike and the saved log writes each in a few characters.
// Logs recorded before hold exact doubles and still read as they are.
import type { TokenProbability } from "../types.ts";

/** Significant digits a recorded probability keeps. */
export const PROBABILITY_DIGITS = 3;

/** A probability as recorded: rounded to PROBABILITY_DIGITS significant digits (0 and 1 stay). */
export function recordedProbability(p: number): number {
  if (!Number.isFinite(p) || p <= 0) return p;
  return Number(p.toPrecision(PROBABILITY_DIGITS));
}

/** A token and its alternatives with every probability as recorded. */
export function recordedToken(token: TokenProbability): TokenProbability {
  return { ...token, p: recordedProbability(token.p), top: token.top.map((a) => ({ ...a, p: recordedProbability(a.p) })) };
}
