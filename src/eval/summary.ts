// The matrix of an evaluation: per protocol (× mode × constrained) and category, the pass and
// strict pass rates over n cases, with Wilson 95% intervals (small n and rates near 0 or 1 are
// where the plain ± interval misleads).
import type { EvalMode, EvalResult } from "./run-case.ts";

export interface SummaryRow {
  protocol: string;
  mode: EvalMode;
  constrained: boolean;
  category: string;
  n: number;
  /** Fraction of the n results that pass (0–1). */
  pass: number;
  /** Fraction of the n results that pass strictly (0–1). */
  strictPass: number;
  /** Of the failed results, how many were format drift (the model wrote calls in another protocol's format); absent in older files. */
  drift?: number;
  /** The mean probability of opening a call at the decision point, over the results that recorded it (a call not among the recorded alternatives counts 0), and over how many. */
  meanCallP?: number;
  callPCount?: number;
}

export interface Interval {
  low: number;
  high: number;
}

/** The Wilson score interval of `k` successes in `n` trials (95%: z = 1.96). */
export function wilson(k: number, n: number, z = 1.959964): Interval {
  if (n === 0) return { low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The key of a matrix row: protocol, mode and constraint. */
export function rowKey(result: Pick<EvalResult, "protocol" | "mode" | "constrained">): string {
  return `${result.mode}:${result.protocol}:${result.constrained ? "constrained" : "free"}`;
}

/** One row per protocol × mode × constrained × category, in the order the results first name them. */
export function summarise(results: readonly EvalResult[]): SummaryRow[] {
  const rows = new Map<string, SummaryRow & { passed: number; strictPassed: number; callPSum: number }>();
  for (const result of results) {
    const key = `${rowKey(result)}:${result.category}`;
    let row = rows.get(key);
    if (!row) {
      row = { protocol: result.protocol, mode: result.mode, constrained: result.constrained, category: result.category, n: 0, pass: 0, strictPass: 0, passed: 0, strictPassed: 0, callPSum: 0 };
      rows.set(key, row);
    }
    row.n += 1;
    if (result.pass) row.passed += 1;
    if (result.strictPass) row.strictPassed += 1;
    if (!result.pass && result.drift && result.drift.length > 0) row.drift = (row.drift ?? 0) + 1;
    if (result.callP !== undefined) {
      row.callPSum += result.callP ?? 0;
      row.callPCount = (row.callPCount ?? 0) + 1;
    }
  }
  return [...rows.values()].map(({ passed, strictPassed, callPSum, ...row }) => ({
    ...row,
    pass: passed / row.n,
    strictPass: strictPassed / row.n,
    ...(row.callPCount ? { meanCallP: callPSum / row.callPCount } : {}),
  }));
}
