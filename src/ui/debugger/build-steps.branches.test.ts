// Where branches sit in the timeline: each under the step it re-runs, a continuation beside
// its branch's own step (not under it, where it read as a branch of that branch).
import { describe, expect, it } from "vitest";
import type { BranchRef, LoopEvent } from "toolcall-middleware/types.ts";
import { StepFolder } from "./build-steps.ts";
import { RunLogBuilder } from "./event-fixtures.ts";
import { stepLabel } from "./format.ts";

function branchRun(runId: string, branch: BranchRef, steps = 1): LoopEvent[] {
  const run = new RunLogBuilder(runId).runStart();
  (run.events[0] as Extract<LoopEvent, { type: "run-start" }>).branch = branch;
  for (let i = 1; i <= steps; i += 1) run.stepStart(`${runId}:s${i}`, i, "P").stepEnd(`${runId}:s${i}`, "final");
  return run.events;
}

const timeline = (events: LoopEvent[], folder = new StepFolder()) => {
  const model = folder.update(events);
  return model.order.map((key) => {
    const step = model.steps.get(key)!;
    return `${step.depth} ${stepLabel(step)}`;
  });
};

describe("branches in the timeline", () => {
  const turn = new RunLogBuilder("r1").runStart().stepStart("r1:s1", 1, "P1").stepEnd("r1:s1", "tool-calls").stepStart("r1:s2", 2, "P2").stepEnd("r1:s2", "final").runEnd().events;
  const ofStep1 = branchRun("b1", { runId: "r1", stepId: "r1:s1", changes: [] });
  const ofStep2 = branchRun("b2", { runId: "r1", stepId: "r1:s2", changes: [] });
  const continuing = branchRun("c1", { runId: "b1", stepId: "b1:s1", changes: [], continues: true }, 2);
  const secondOfStep1 = branchRun("b3", { runId: "r1", stepId: "r1:s1", changes: [] });

  it("puts a branch of step 2 under step 2 and names the step each re-runs", () => {
    expect(timeline([...turn, ...ofStep1, ...ofStep2])).toEqual(["0 Turn 1 · step 1", "1 Branch of step 1", "0 Turn 1 · step 2", "1 Branch of step 2"]);
  });

  it("puts a continuation beside its branch's step, right after it, whatever came in between", () => {
    const events = [...turn, ...ofStep1, ...secondOfStep1, ...ofStep2, ...continuing];
    const expected = ["0 Turn 1 · step 1", "1 Branch of step 1", "1 Branch of step 1 · step 2", "1 Branch of step 1 · step 3", "1 Branch of step 1", "0 Turn 1 · step 2", "1 Branch of step 2"];
    expect(timeline(events)).toEqual(expected);
    // The same, folded as the events stream in.
    const folder = new StepFolder();
    for (let end = 1; end < events.length; end += 3) folder.update(events.slice(0, end));
    expect(timeline(events, folder)).toEqual(expected);
  });

  it("hides a continuation with its discarded branch", () => {
    const discarded: LoopEvent = { type: "run-end", runId: "b1", at: 1, status: "final", discarded: true } as LoopEvent;
    expect(timeline([...turn, ...ofStep1, ...continuing, discarded])).toEqual(["0 Turn 1 · step 1", "0 Turn 1 · step 2"]);
  });
});
