// Where an evaluation's time goes, case by case: the prompt's prefill (how many tokens, how many
// the server reused from its cache) and the reply's decode (how many tokens, how they ended), from
// what the case's log recorded — the engine's usage (llama.cpp's own timings where it sent them)
// and the step's ending. Summed per matrix row, these say whether a run is slow because prompts are
// long, because the cache is not reused, or because replies run to their budget.
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { readCaseLog } from "./case-log.ts";
import type { EvalResult } from "./run-case.ts";
import { rowKey } from "./summary.ts";

/** How a case's reply ended, as far as time is concerned. */
export type ReplyEnd = "stop" | "max-tokens" | "repetition" | "other";

export interface CaseTiming {
  promptTokens?: number;
  /** Prompt tokens the server took from its cache (llama.cpp's cache_n). */
  reusedTokens?: number;
  /** Prompt tokens it ran through prefill (llama.cpp's prompt_n). */
  prefilledTokens?: number;
  /** Prefill time, from the server's own rate (prefilled ÷ tokens per second). */
  prefillMs?: number;
  completionTokens?: number;
  /** Decode time, from the server's own rate (completion tokens ÷ tokens per second). */
  decodeMs?: number;
  end: ReplyEnd;
}

/** In the error a reply stopped as degenerate repetition ends its step with (repetition-stop.ts). */
export const REPETITION_STOP_PREFIX = "Stopped by the evaluation: degenerate repetition";

/** The case's timing from its recorded events (the first step's; an eval case has one). */
export function caseTiming(events: readonly LoopEvent[]): CaseTiming {
  const usage = events.findLast((event) => event.type === "usage");
  const end = events.find((event) => event.type === "step-end");
  const u = usage?.type === "usage" ? usage.usage : {};
  const replyEnd: ReplyEnd =
    end?.type !== "step-end" ? "other"
    : end.status === "cut-off" && end.cutOff === "max-tokens" ? "max-tokens"
    : end.error?.includes(REPETITION_STOP_PREFIX) ? "repetition"
    // The model ended its turn itself (whatever the parser then made of it).
    : end.status === "final" || end.status === "tool-calls" || end.status === "parse-error" || end.status === "max-steps" ? "stop"
    : "other";
  const ms = (tokens: number | undefined, perSecond: number | undefined) => (tokens !== undefined && perSecond ? (tokens / perSecond) * 1000 : undefined);
  const prefillMs = ms(u.prefilledTokens, u.prefillTokensPerSecond);
  const decodeMs = ms(u.completionTokens, u.decodeTokensPerSecond);
  return {
    ...(u.promptTokens !== undefined ? { promptTokens: u.promptTokens } : {}),
    ...(u.reusedTokens !== undefined ? { reusedTokens: u.reusedTokens } : {}),
    ...(u.prefilledTokens !== undefined ? { prefilledTokens: u.prefilledTokens } : {}),
    ...(prefillMs !== undefined ? { prefillMs } : {}),
    ...(u.completionTokens !== undefined ? { completionTokens: u.completionTokens } : {}),
    ...(decodeMs !== undefined ? { decodeMs } : {}),
    end: replyEnd,
  };
}

export interface TimedResult {
  result: Pick<EvalResult, "protocol" | "mode" | "constrained">;
  timing: CaseTiming;
}

/**
 * A row per protocol × mode × constraint: cases, mean prompt tokens and how many of them were
 * reused, mean reply tokens, how the replies ended, and the server's prefill and decode time
 * summed over the cases (with 2 slots the two overlap: their sum is more than the wall time).
 */
export function timingTable(timed: readonly TimedResult[]): string {
  const rows = new Map<string, TimedResult[]>();
  for (const entry of timed) rows.set(rowKey(entry.result), [...(rows.get(rowKey(entry.result)) ?? []), entry]);
  const header = ["protocol", "cases", "prompt tok", "reused", "reply tok", "stop", "max-tokens", "repetition", "other", "prefill s", "decode s"];
  const mean = (values: (number | undefined)[]) => {
    const known = values.filter((v): v is number => v !== undefined);
    return known.length === 0 ? "–" : (known.reduce((a, b) => a + b, 0) / known.length).toFixed(0);
  };
  const seconds = (values: (number | undefined)[]) => {
    const known = values.filter((v): v is number => v !== undefined);
    return known.length === 0 ? "–" : (known.reduce((a, b) => a + b, 0) / 1000).toFixed(1);
  };
  const lines = [...rows.values()].map((entries) => {
    const first = entries[0]!.result;
    const t = entries.map((e) => e.timing);
    const ends = (end: ReplyEnd) => String(t.filter((x) => x.end === end).length);
    return [
      `${first.protocol}${first.mode === "native" ? "" : first.constrained ? " +constrained" : ""}`,
      String(entries.length),
      mean(t.map((x) => x.promptTokens)),
      mean(t.map((x) => x.reusedTokens)),
      mean(t.map((x) => x.completionTokens)),
      ends("stop"),
      ends("max-tokens"),
      ends("repetition"),
      ends("other"),
      seconds(t.map((x) => x.prefillMs)),
      seconds(t.map((x) => x.decodeMs)),
    ];
  });
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...lines.map((line) => line[i]!.length)));
  const format = (line: string[]) => line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ").trimEnd();
  return [format(header), format(widths.map((w) => "-".repeat(w))), ...lines.map(format)].join("\n");
}

/** The timing of each result that carries its log (a results file's, or a run's own); a result without one, or with one that cannot be read, is left out. */
export function timedResults(results: readonly EvalResult[]): TimedResult[] {
  const timed: TimedResult[] = [];
  for (const result of results) {
    if (!result.log) continue;
    try {
      timed.push({ result, timing: caseTiming(readCaseLog(result.log)) });
    } catch {
      // A log that does not read has no timing to give; the matrix still counts its verdict.
    }
  }
  return timed;
}
