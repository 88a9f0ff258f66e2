// What the debugger says instead of a step it will not draw by itself (the page stopped while
// drawing it last time) or could not draw (its views threw): the step named, the reason, and the
// action. The page-level behaviour (a mark left by a killed page holds the step at the next load)
// is driven in Chromium by e2e/server-prompt-flood.spec.ts.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { toolCallRun } from "../../store/test-events.ts";
import { buildSteps, latestStep } from "./build-steps.ts";
import { HeldStep, StepDrawFailed } from "./DebuggerSteps.tsx";
import { ErrorBoundary } from "../ErrorBoundary.tsx";
import { createDebuggerStore } from "../../store/debugger-store.ts";

const step = latestStep(buildSteps(toolCallRun("r1", [{ role: "user", content: "2+2?" }])))!;

describe("a step the debugger does not draw", () => {
  it("a held step is named, with why and a button that draws it", () => {
    const html = renderToStaticMarkup(createElement(HeldStep, { step, onDraw: () => {} }));
    expect(html).toContain("Turn 1 · step 1 was being drawn when the page stopped last time, or failed to draw");
    expect(html).toContain("Draw turn 1 · step 1</button>");
  });

  it("a step whose views threw says what failed, its direction controls shown, and offers to try again", () => {
    const boundary = new ErrorBoundary({ children: null, fallback: (error, retry) => createElement(StepDrawFailed, { step, error, retry }) });
    boundary.state = { ...boundary.state, ...ErrorBoundary.getDerivedStateFromError(new RangeError("Invalid string length \u202e")) };
    const html = renderToStaticMarkup(boundary.render() as ReturnType<typeof createElement>);
    expect(html).toContain("Turn 1 · step 1 could not be drawn: <span data-piece-start=\"0\">Invalid string length </span>");
    expect(html).toContain("⟨U+202E⟩");
    expect(html).toContain("after a reload this step is not drawn by itself");
    expect(html).toContain("Try again</button>");
  });

  it("the held step is read once per page, when its stores are made, so a view mounted later (another step picked mid-stream) does not hold a step drawn a moment ago", () => {
    const store = createDebuggerStore("r1\u241fr1-s1");
    expect(store.getState().heldStepKey).toBe("r1\u241fr1-s1");
    store.getState().drawHeldStep();
    expect(store.getState().heldStepKey).toBeNull();
    // Without localStorage (Node) nothing is held.
    expect(createDebuggerStore().getState().heldStepKey).toBeNull();
  });
});
