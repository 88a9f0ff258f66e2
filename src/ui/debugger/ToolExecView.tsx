// The tools this step ran: arguments, result or error, duration, status, and the sub-agent
// steps a call started.
import { memo } from "react";
import { visibleBidi, visibleName } from "../bidi/VisibleBidi.tsx";
import type { StepView, StepsModel, ToolExecution } from "./build-steps.ts";
import { formatDuration, statusTone, toDisplayJson } from "./format.ts";
import { ToolTraceView } from "../mcp/ToolTraceView.tsx";

interface ToolExecViewProps {
  step: StepView;
  model: StepsModel;
  onSelectStep: (step: StepView) => void;
}

export const ToolExecView = memo(function ToolExecView({ step, model, onSelectStep }: ToolExecViewProps) {
  const executions = step.toolExecutions;
  return (
    <section className="dbg-panel" aria-label="Tool executions">
      <header className="dbg-panel-head">
        <h3>Tool executions</h3>
        <span className="dbg-hint">{executions.length}</span>
      </header>
      <div className="dbg-panel-body" data-testid="tool-exec-view">
        {executions.length === 0 ? (
          <p className="dbg-empty">
            {step.status === "running" ? "No tool has run yet in this step." : "This step ran no tools."}
          </p>
        ) : (
          executions.map((execution) => (
            <ExecutionCard key={execution.callId} execution={execution} model={model} onSelectStep={onSelectStep} />
          ))
        )}
      </div>
    </section>
  );
});

function ExecutionCard({ execution, model, onSelectStep }: { execution: ToolExecution; model: StepsModel; onSelectStep: (step: StepView) => void }) {
  const children = execution.childStepKeys.map((key) => model.steps.get(key)).filter((s): s is StepView => s !== undefined);
  const failed = execution.status !== "ok" && execution.status !== "running";
  return (
    <article className="dbg-exec" data-testid="tool-exec" data-status={execution.status}>
      <header className="dbg-exec-head">
        <code className="dbg-exec-name">{visibleName(execution.name)}</code>
        <span className={`dbg-badge tone-${statusTone(execution.status)}`}>{execution.status}</span>
        <span className="dbg-hint">{execution.status === "running" ? "running…" : formatDuration(execution.durationMs)}</span>
        <span className="dbg-hint dbg-exec-id">{execution.callId}</span>
      </header>
      <div className="dbg-label">Arguments</div>
      <pre>{visibleBidi(toDisplayJson(execution.arguments))}</pre>
      {execution.status !== "running" && (
        <>
          <div className="dbg-label">{failed ? "Error" : "Result"}</div>
          <pre className={failed ? "dbg-error-text" : undefined}>
            {visibleBidi(failed ? (execution.error ?? execution.content ?? "(no message)") : execution.result !== undefined ? toDisplayJson(execution.result) : (execution.content ?? ""))}
          </pre>
          {failed && execution.content !== undefined && execution.content !== execution.error && (
            <>
              <div className="dbg-label">What the model was told</div>
              <pre>{visibleBidi(execution.content)}</pre>
            </>
          )}
        </>
      )}
      {execution.trace && execution.trace.length > 0 && <ToolTraceView trace={execution.trace} />}
      {children.length > 0 && (
        <div className="dbg-exec-children">
          <span className="dbg-label">Sub-agent steps</span>
          {children.map((child) => (
            <button key={child.key} type="button" className="dbg-small-button" onClick={() => onSelectStep(child)}>
              step {child.index}
            </button>
          ))}
        </div>
      )}
    </article>
  );
}
