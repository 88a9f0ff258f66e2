import { describe, expect, it } from "vitest";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { firstReplayedRun, replayTurnsLeft } from "./replay-progress.ts";

const script = { title: "Calc", turns: ["a", "b"] };
const step = (runId: string, stepId: string): LoopEvent => ({ type: "step-start", runId, at: 1, stepId, index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: "", template: "", settings: {} });

describe("replayTurnsLeft", () => {
  it("counts the generations since this script took over the conversation", () => {
    const events = [step("r1", "s1"), step("r1", "s2"), step("r2", "s3")];
    expect(replayTurnsLeft(script, { events, replayOrigin: { engine: "replay: Calc", generation: 1 } })).toBe(0);
    expect(replayTurnsLeft(script, { events, replayOrigin: { engine: "replay: Calc", generation: 2 } })).toBe(1);
  });

  it("gives the whole script where another script (or none) played before", () => {
    const events = [step("r1", "s1"), step("r1", "s2")];
    expect(replayTurnsLeft(script, { events, replayOrigin: { engine: "replay: Other", generation: 0 } })).toBe(2);
    expect(replayTurnsLeft(script, { events })).toBe(2);
  });

  it("does not count a branch's steps: the script does not play them", () => {
    const branchStart: LoopEvent = { type: "run-start", runId: "b", at: 1, protocol: "hermes", messages: [], tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 }, branch: { runId: "r1", stepId: "s1", changes: [] } } as unknown as LoopEvent;
    const events = [step("r1", "s1"), branchStart, step("b", "bs1")];
    expect(replayTurnsLeft(script, { events, replayOrigin: { engine: "replay: Calc", generation: 0 } })).toBe(1);
  });
});

describe("firstReplayedRun", () => {
  const run = (runId: string, message: string): LoopEvent => ({ type: "run-start", runId, at: 1, protocol: "hermes", messages: [{ role: "user", content: message }], tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } });
  it("finds the run whose step was the script's first, and the message it answered", () => {
    const events = [run("r1", "hello"), step("r1", "s1"), run("r2", "What is 1234 * 5678?"), step("r2", "s2"), step("r2", "s3")];
    expect(firstReplayedRun(script, { events, replayOrigin: { engine: "replay: Calc", generation: 1 } })).toEqual({ runId: "r2", message: "What is 1234 * 5678?" });
    expect(firstReplayedRun(script, { events, replayOrigin: { engine: "replay: Calc", generation: 0 } })).toEqual({ runId: "r1", message: "hello" });
  });
  it("finds none where another script took over, or its first step has not played yet", () => {
    const events = [run("r1", "hello"), step("r1", "s1")];
    expect(firstReplayedRun(script, { events, replayOrigin: { engine: "replay: Other", generation: 0 } })).toBeNull();
    expect(firstReplayedRun(script, { events, replayOrigin: { engine: "replay: Calc", generation: 1 } })).toBeNull();
  });
});
