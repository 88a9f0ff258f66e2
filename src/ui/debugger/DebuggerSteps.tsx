// The debugger's view of a log with steps: the timeline and, for the selected step, the prompt,
// the raw output, the parse steps and the tool executions side by side, plus the tool
// definitions. It loads when a log first has a step (DebuggerPane shows the empty state without it).
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import type { LoopEvent, ToolSpec } from "toolcall-middleware/types.ts";
import { useDebuggerSelection } from "../../app/lab-stores-context.tsx";
import { EngineFigures } from "./EngineFigures.tsx";
import { markInterrupted, previousStepInRun, resolveSelectedStep, selectionIdFor, StepFolder, type StepView } from "./build-steps.ts";
import { describeCutOff, formatBudget, formatUnknownBudgetBriefly, formatDuration, formatSettings, STEP_STATUS_LABEL, statusTone, stepLabel } from "./format.ts";
import { ParseStepsView } from "./ParseStepsView.tsx";
import { PromptView } from "./PromptView.tsx";
import { notRecordedNote, recordedPromptParts } from "./recorded-prompt-parts.ts";
import { RawOutputView } from "./RawOutputView.tsx";
import { StepTimeline } from "./StepTimeline.tsx";
import { ToolDefinitions } from "./ToolDefinitions.tsx";
import { ToolExecView } from "./ToolExecView.tsx";
import { ContextBudgetBar } from "../tokens/ContextBudgetBar.tsx";
import { StepTokenCount } from "../tokens/StepTokenCount.tsx";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import { StepExperiments } from "../experiments/StepExperiments.tsx";
import { StepDecision } from "./StepDecision.tsx";
import { DerivedProtocolNote } from "./DerivedProtocolNote.tsx";
import { useThrottled } from "./use-throttled.ts";
import { ErrorBoundary } from "../ErrorBoundary.tsx";
import { markDrawingStep, markStepDrawn } from "../../store/render-guard.ts";

type Tab = "step" | "tools";

const STREAM_REDRAW_MS = 100;

export interface DebuggerStepsProps {
  /** The conversation's event log (it has at least one step). */
  events: LoopEvent[];
  /** The tools enabled now (shown when no step's run says which tools it had). */
  tools: ToolSpec[];
  /** Whether this page started a top-level run; a step left running in any other was interrupted (a reload). Absent: none was. */
  startedOnThisPage?: (runId: string) => boolean;
}

export function DebuggerSteps({ events, tools, startedOnThisPage }: DebuggerStepsProps) {
  // Streaming appends many events a second: the pane redraws at most every STREAM_REDRAW_MS, and
  // at low priority, so React skips intermediate logs rather than fall behind.
  const deferredEvents = useDeferredValue(useThrottled(events, STREAM_REDRAW_MS));
  const folder = useRef<StepFolder | null>(null);
  const folded = useMemo(() => {
    folder.current ??= new StepFolder();
    return folder.current.update(deferredEvents);
  }, [deferredEvents]);
  const model = useMemo(() => (startedOnThisPage ? markInterrupted(folded, startedOnThisPage) : folded), [folded, startedOnThisPage]);
  const selectedId = useDebuggerSelection((s) => s.stepId);
  const parseIndex = useDebuggerSelection((s) => s.parseIndex);
  const selectStep = useDebuggerSelection((s) => s.selectStep);
  const selectParseEvent = useDebuggerSelection((s) => s.selectParseEvent);
  const [tab, setTab] = useState<Tab>("step");
  // A step whose drawing never finished when the page last stopped (it died, or the step's views
  // failed) is not drawn by itself again: read once per page, when its stores are made.
  const heldKey = useDebuggerSelection((s) => s.heldStepKey);
  const drawHeldStep = useDebuggerSelection((s) => s.drawHeldStep);

  const step = resolveSelectedStep(model, selectedId);
  const pinned = step !== undefined && selectedId !== null && (selectedId === step.key || selectedId === step.id);
  const selectedParseIndex = pinned ? parseIndex : null;
  const previous = useMemo(() => (step ? previousStepInRun(model, step) : undefined), [model, step]);

  const onSelectStep = useCallback((target: StepView) => selectStep(selectionIdFor(model, target)), [model, selectStep]);
  const onFollowLatest = useCallback(() => selectStep(null), [selectStep]);
  const onSelectParseEvent = useCallback(
    (index: number | null) => {
      if (step) selectParseEvent(selectionIdFor(model, step), index);
    },
    [model, step, selectParseEvent],
  );

  const run = step ? model.runs.get(step.runId) : undefined;
  const runTools = run && run.tools.length > 0 ? run.tools : null;
  const shownTools = runTools ?? tools;
  // What the step's run recorded (older logs: today's code, with a note saying so).
  const parts = useMemo(() => (step ? recordedPromptParts(step, run, shownTools) : null), [step, run, shownTools]);

  return (
    <div className="dbg" data-testid="debugger-pane">
      <StepTimeline model={model} selectedKey={step?.key} following={!pinned} onSelect={onSelectStep} onFollowLatest={onFollowLatest} />
      {step && step.key === heldKey && <HeldStep step={step} onDraw={drawHeldStep} />}
      {step && step.key !== heldKey && (
        <ErrorBoundary resetKeys={[step.key]} fallback={(error, retry) => <StepDrawFailed step={step} error={error} retry={retry} />}>
          <StepDrawMark stepKey={step.key} />
          <div className="dbg-detail">
            <div className="dbg-step-head">
              <strong>
                {stepLabel(step)}
              </strong>
              <span className="dbg-protocol">{step.protocol}</span>
              <span className={`dbg-badge tone-${statusTone(step.status)}`}>{STEP_STATUS_LABEL[step.status]}</span>
              <span className="dbg-hint">
                {formatDuration(step.durationMs)} · <StepTokenCount step={step} controlTokens={parts!.controlTokens} />
              </span>
              <div className="dbg-tabs" role="tablist" aria-label="Debugger views">
                <button type="button" role="tab" aria-selected={tab === "step"} onClick={() => setTab("step")}>
                  Step
                </button>
                <button type="button" role="tab" aria-selected={tab === "tools"} onClick={() => setTab("tools")}>
                  Tool definitions
                </button>
              </div>
            </div>
            <p className="dbg-hint dbg-step-settings" data-testid="step-settings">
              {formatSettings(step.settings)}
              <br />
              {/* An unknown cap's reason is the budget bar's, below (a native step has no bar). */}
              <span data-testid="step-budget">{(!step.request && formatUnknownBudgetBriefly(step.budget)) || formatBudget(step.budget)}</span>
            </p>
            <DerivedProtocolNote protocol={step.protocol} />
            <StepExperiments step={step} run={run} model={model} tools={shownTools} />
            <StepDecision step={step} tools={shownTools} toolSection={run?.toolSection} />
            <EngineFigures step={step} />
            {!step.request && <ContextBudgetBar step={step} controlTokens={parts!.controlTokens} />}
            {step.status === "cut-off" && (
              <p className="dbg-step-note" role="status" data-testid="step-cut-off">
                {describeCutOff(step)}: the model had not finished; its output is kept.
              </p>
            )}
            {step.error && (
              <p className="dbg-step-error" role="status">
                {visibleBidi(step.error)}
              </p>
            )}
            {tab === "step" ? (
              <div className="dbg-grid">
                <PromptView step={step} previous={previous} controlTokens={parts!.controlTokens} toolBlock={parts!.toolBlock} note={notRecordedNote(parts!.notRecorded)} />
                <RawOutputView step={step} tools={shownTools} controlTokens={parts!.controlTokens} selectedParseIndex={selectedParseIndex} onSelectParseEvent={onSelectParseEvent} />
                <ParseStepsView step={step} selectedParseIndex={selectedParseIndex} onSelectParseEvent={onSelectParseEvent} />
                <ToolExecView step={step} model={model} onSelectStep={onSelectStep} />
              </div>
            ) : (
              <ToolDefinitions protocol={step.protocol} section={parts!.toolSection} tools={shownTools} source={runTools ? "run" : "enabled"} template={step.template} />
            )}
          </div>
          <StepDrawnMark stepKey={step.key} />
        </ErrorBoundary>
      )}
    </div>
  );
}

/** Marks the step as being drawn; rendered before its views (see render-guard.ts). */
function StepDrawMark({ stepKey }: { stepKey: string }) {
  // Set while rendering, not in an effect: a render that never finishes must leave the mark.
  markDrawingStep(stepKey);
  return null;
}

/** Clears the mark once the browser has painted the step's views (rendered after them, so not when they failed). */
function StepDrawnMark({ stepKey }: { stepKey: string }) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The frame after the commit has been painted once this timer runs.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => markStepDrawn(stepKey));
    });
    // A page left in the ordinary way (a reload before that paint) was not killed by the step:
    // a crashed or killed page fires no pagehide.
    const left = () => markStepDrawn(stepKey);
    window.addEventListener("pagehide", left);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      window.removeEventListener("pagehide", left);
    };
  });
  return null;
}

/** A step the page stopped drawing last time: named, not drawn until asked. */
export function HeldStep({ step, onDraw }: { step: StepView; onDraw: () => void }) {
  return (
    <div className="dbg-detail" data-testid="step-held">
      <p className="dbg-step-note" role="status">
        {stepLabel(step)} was being drawn when the page stopped last time, or failed to draw, so it is not drawn by itself again. The other steps are in the list above;
        nothing stored was changed.
      </p>
      <p>
        <button type="button" onClick={onDraw}>
          Draw {stepLabel(step).toLowerCase()}
        </button>
      </p>
    </div>
  );
}

/** A step whose views failed to draw: what failed, and a way to try again (the rest of the debugger goes on). */
export function StepDrawFailed({ step, error, retry }: { step: StepView; error: Error; retry: () => void }) {
  return (
    <div className="dbg-detail" role="alert" data-testid="step-draw-failed">
      <p className="dbg-step-error">
        {stepLabel(step)} could not be drawn: {visibleBidi(error.message || error.name)}
      </p>
      <p className="dbg-hint">The other steps are in the list above; after a reload this step is not drawn by itself. Nothing stored was changed.</p>
      <p>
        <button type="button" onClick={retry}>
          Try again
        </button>
      </p>
    </div>
  );
}
