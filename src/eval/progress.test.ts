import { describe, expect, it } from "vitest";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { caseFigures, expectedSeconds, formatDuration, formatRate, progressFigures } from "./progress.ts";

/** A case's log as far as timing goes: the engine's usage (its own rates) and how the step ended. */
function scripted(usage: { prefilledTokens?: number; prefillTokensPerSecond?: number; completionTokens?: number; decodeTokensPerSecond?: number }, status = "final"): LoopEvent[] {
  return [
    { type: "usage", runId: "r", stepId: "s", at: 0, usage } as unknown as LoopEvent,
    { type: "step-end", runId: "r", stepId: "s", at: 0, status, durationMs: 0 } as unknown as LoopEvent,
  ];
}

describe("progress figures from recorded timings", () => {
  it("tokens/s are the engine's own: tokens over its timed decode and prefill, not over wall time", () => {
    // Two CPU cases: 400 prompt tokens at 16 tok/s (25 s), 40 reply tokens at 5 tok/s (8 s); wall 40 s each.
    const a = caseFigures(scripted({ prefilledTokens: 400, prefillTokensPerSecond: 16, completionTokens: 40, decodeTokensPerSecond: 5 }), 40_000);
    const b = caseFigures(scripted({ prefilledTokens: 200, prefillTokensPerSecond: 10, completionTokens: 60, decodeTokensPerSecond: 6 }), 40_000);
    expect(a).toEqual({ wallMs: 40_000, prefilledTokens: 400, prefillMs: 25_000, completionTokens: 40, decodeMs: 8_000 });
    const figures = progressFigures([a, b], 0);
    // (40 + 60) tokens over (8 + 10) s of decode; (400 + 200) over (25 + 20) s of prefill.
    expect(figures.decodeTokensPerSecond).toBeCloseTo(100 / 18, 6);
    expect(figures.prefillTokensPerSecond).toBeCloseTo(600 / 45, 6);
    // A slow rate still reads as a rate, not "0".
    expect(formatRate(0.3)).toBe("0.3");
    expect(formatRate(5.55)).toBe("5.5");
    expect(formatRate(44.4)).toBe("44");
  });

  it("time left: the cases left × what a case took so far, prefill and decode apart", () => {
    const one = caseFigures(scripted({ prefilledTokens: 400, prefillTokensPerSecond: 20, completionTokens: 50, decodeTokensPerSecond: 5 }), 35_000);
    // prefill 20 s, decode 10 s, 5 s of the rest a case.
    const figures = progressFigures([one], 4);
    expect(figures.prefillSecondsLeft).toBeCloseTo(80, 6);
    expect(figures.decodeSecondsLeft).toBeCloseTo(40, 6);
    expect(figures.secondsLeft).toBeCloseTo(140, 6);
    // Two at a time (a server): half.
    expect(progressFigures([one], 4, 2).secondsLeft).toBeCloseTo(70, 6);
    // It does not grow while a case runs: it is a figure of finished cases only.
    expect(progressFigures([one, one], 3).secondsLeft).toBeCloseTo(105, 6);
  });

  it("without the engine's timings (an engine that sends none) the time left is the mean wall time, and no rate is made up", () => {
    const untimed = [caseFigures(scripted({}), 2_000), caseFigures(scripted({ completionTokens: 30 }), 4_000)];
    const figures = progressFigures(untimed, 10);
    expect(figures).toEqual({ secondsLeft: 30 });
    expect(progressFigures([], 10)).toEqual({});
  });

  it("before a run: cases × tokens ÷ the measured rates", () => {
    expect(expectedSeconds({ cases: 3, promptTokens: 100, replyTokens: 24 }, { prefillTokensPerSecond: 15, decodeTokensPerSecond: 6 })).toEqual({ prefill: 20, decode: 12, total: 32 });
    expect(formatDuration(32)).toBe("32 s");
    expect(formatDuration(150)).toBe("3 min");
    expect(formatDuration(3_900)).toBe("1 h 5 min");
  });
});
