// The run's timeline: one row per loop step, sub-agent steps indented under the step that
// started them. Virtualized, so a session of a thousand steps stays quick.
import { branchOutcome, outcomeTag } from "../../experiments/branch-outcome.ts";
import { memo, useCallback, useRef, type KeyboardEvent } from "react";
import type { StepView, StepsModel } from "./build-steps.ts";
import { formatDuration, formatTokens, STEP_STATUS_LABEL, statusTone, stepLabel } from "./format.ts";
import { VirtualList } from "./VirtualList.tsx";

const ROW_HEIGHT = 46;

interface StepTimelineProps {
  model: StepsModel;
  selectedKey: string | undefined;
  following: boolean;
  onSelect: (step: StepView) => void;
  onFollowLatest: () => void;
}

export function StepTimeline({ model, selectedKey, following, onSelect, onFollowLatest }: StepTimelineProps) {
  const { order, steps } = model;
  const selectedIndex = selectedKey === undefined ? -1 : order.indexOf(selectedKey);

  const timeline = useRef<HTMLDivElement>(null);
  // Arrow keys, Home and End move the selection; focus follows it to the selected row (the row
  // that had it may scroll out of the virtual list and leave the page), so the keys go on working.
  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      const moves: Record<string, (index: number) => number> = {
        ArrowDown: (index) => index + 1,
        ArrowUp: (index) => index - 1,
        Home: () => 0,
        End: () => order.length - 1,
      };
      const move = moves[event.key];
      if (!move || !(event.target instanceof HTMLElement) || !event.target.closest('[data-testid="step-item"]')) return;
      event.preventDefault();
      const next = Math.max(0, Math.min(order.length - 1, move(selectedIndex)));
      const step = steps.get(order[next] as string);
      if (!step) return;
      onSelect(step);
      requestAnimationFrame(() => timeline.current?.querySelector<HTMLElement>('[data-testid="step-item"][aria-current="true"]')?.focus());
    },
    [order, steps, selectedIndex, onSelect],
  );

  return (
    <div className="dbg-timeline" ref={timeline} onKeyDown={onKeyDown}>
      <div className="dbg-timeline-head">
        <span className="dbg-label">Timeline · {order.length} step{order.length === 1 ? "" : "s"}</span>
        {following ? (
          <span className="dbg-hint">following the latest step</span>
        ) : (
          <button type="button" className="dbg-small-button" onClick={onFollowLatest}>
            Follow latest
          </button>
        )}
      </div>
      <VirtualList
        count={order.length}
        rowHeight={ROW_HEIGHT}
        // As tall as its rows, up to the CSS max-height: a short run leaves no empty box.
        style={{ height: order.length * ROW_HEIGHT + 1 }}
        scrollToIndex={selectedIndex}
        aria-label="Loop steps"
        data-testid="step-timeline"
        renderRow={(i) => {
          const step = steps.get(order[i] as string);
          // One row in the Tab order (the selected one, else the first): the arrows move within.
          const tabbable = step !== undefined && (step.key === selectedKey || (selectedIndex < 0 && i === 0));
          return step ? <StepRow step={step} selected={step.key === selectedKey} tabbable={tabbable} onSelect={onSelect} /> : null;
        }}
      />
    </div>
  );
}

const StepRow = memo(function StepRow({ step, selected, tabbable, onSelect }: { step: StepView; selected: boolean; tabbable: boolean; onSelect: (step: StepView) => void }) {
  const tone = statusTone(step.status);
  return (
    <button
      type="button"
      className={`dbg-step${selected ? " is-selected" : ""}`}
      style={{ paddingLeft: 10 + step.depth * 18 }}
      data-testid="step-item"
      data-depth={step.depth}
      data-step-id={step.id}
      data-status={step.status}
      data-branch={step.branch ? "true" : undefined}
      title={step.branch && step.branch.changes.length > 0 ? `Changed: ${step.branch.changes.join("; ")}` : undefined}
      aria-current={selected ? "true" : undefined}
      tabIndex={tabbable ? 0 : -1}
      onClick={() => onSelect(step)}
    >
      <span className="dbg-step-line">
        {step.depth > 0 && <span className="dbg-nest" aria-hidden="true">↳</span>}
        <span className="dbg-step-title">
          {stepLabel(step)}
          {step.branch && !step.branch.continues && step.status !== "running" && (
            <span className="dbg-hint dbg-outcome-tag" data-testid="branch-outcome-tag">
              {" "}
              · {outcomeTag(branchOutcome(step.parseEvents.map((e) => e.event), step.status))}
            </span>
          )}
        </span>
        <span className="dbg-protocol">{step.protocol}</span>
        <span className={`dbg-badge tone-${tone}`}>{STEP_STATUS_LABEL[step.status]}</span>
      </span>
      <span className="dbg-step-meta">
        {step.status === "running" ? "streaming…" : formatDuration(step.durationMs)} · {formatTokens(step.usage)}
      </span>
    </button>
  );
});
