// A turn the page was reloaded in has no end in the log; the debugger must not keep showing
// its last step (and the tool it was running) as "running / streaming…" for ever.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { buildSteps, markInterrupted, stepKey } from "./build-steps.ts";
import { RunLogBuilder } from "./event-fixtures.ts";
import { StepTimeline } from "./StepTimeline.tsx";

function interruptedLog() {
  const main = new RunLogBuilder("main").runStart();
  main.stepStart("m0", 0, "P0").output("m0", "<tool_call>", 0).toolStart("m0", { id: "c1", name: "deep_research", arguments: { query: "q" } });
  const sub = new RunLogBuilder("sub", { runId: "main", stepId: "m0", callId: "c1" }).runStart();
  sub.stepStart("s0", 0, "SP0").output("s0", "partial", 0);
  return [...main.events, ...sub.events];
}

describe("a turn interrupted by a reload", () => {
  it("shows the steps and tool calls it left running as interrupted, nested ones included", () => {
    const model = markInterrupted(buildSteps(interruptedLog()), () => false);
    expect(model.steps.get(stepKey("main", "m0"))?.status).toBe("interrupted");
    expect(model.steps.get(stepKey("main", "m0"))?.toolExecutions.map((e) => [e.status, e.error])).toEqual([
      ["interrupted", "The page was closed or reloaded while this tool ran."],
    ]);
    expect(model.steps.get(stepKey("main", "m0"))?.error).toMatch(/closed or reloaded during this step/);
    expect(model.steps.get(stepKey("sub", "s0"))?.status).toBe("interrupted");

    const html = renderToStaticMarkup(createElement(StepTimeline, { model, selectedKey: undefined, following: true, onSelect: () => {}, onFollowLatest: () => {} }));
    expect(html).not.toContain("streaming…");
    expect(html).toContain("interrupted");
  });

  it("leaves a run this page started as running (its end is on the way)", () => {
    const folded = buildSteps(interruptedLog());
    const model = markInterrupted(folded, (runId) => runId === "main");
    expect(model).toBe(folded);
    expect(model.steps.get(stepKey("sub", "s0"))?.status).toBe("running");
  });
});
