// The parser's decisions in order, with their offsets into the raw output. Selecting one
// highlights its span there; the selected event's full detail (a repair's before → after)
// shows below the list.
import { memo, useMemo, useState } from "react";
import type { ParseEvent } from "toolcall-middleware/types.ts";
import type { StepView } from "./build-steps.ts";
import { summarizeParseEvent, toDisplayJson } from "./format.ts";
import { parseRows, rowOfEvent } from "./parse-rows.ts";
import { spanKindOf } from "./raw-output-spans.ts";
import { VirtualList } from "./VirtualList.tsx";
import { visibleBidi, visibleName } from "../bidi/VisibleBidi.tsx";

const ROW_HEIGHT = 28;
const ROUTINE = new Set<ParseEvent["type"]>(["text", "reasoning", "tool-call-delta"]);

interface ParseStepsViewProps {
  step: StepView;
  selectedParseIndex: number | null;
  onSelectParseEvent: (index: number | null) => void;
}

export const ParseStepsView = memo(function ParseStepsView({ step, selectedParseIndex, onSelectParseEvent }: ParseStepsViewProps) {
  const events = step.parseEvents;
  const selected = selectedParseIndex === null ? undefined : events[selectedParseIndex];
  // A streamed step has an event per chunk of prose or arguments; the decisions worth reading
  // (calls, repairs, errors) can be shown alone.
  const [decisionsOnly, setDecisionsOnly] = useState(false);
  // Consecutive prose is one row (a streamed step writes a few characters per event).
  const rows = useMemo(
    () => parseRows(events, decisionsOnly ? events.filter(({ event }) => !ROUTINE.has(event.type)).map((e) => e.index) : undefined),
    // The folder appends to a step's events in place: their count says when they grew.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [decisionsOnly, events, events.length],
  );
  const shownEvents = decisionsOnly ? rows.length : events.length;
  const selectedRowIndex = selectedParseIndex === null ? -1 : rowOfEvent(rows, selectedParseIndex);
  const selectedRow = selectedRowIndex < 0 ? null : selectedRowIndex;
  // A selected fragment of prose shows the whole row it is part of.
  const detail = selectedRowIndex >= 0 ? rows[selectedRowIndex]?.event : selected?.event;
  return (
    <section className="dbg-panel" aria-label="Parse steps">
      <header className="dbg-panel-head">
        <h3>Parse steps</h3>
        <span className="dbg-hint">
          {decisionsOnly ? `${shownEvents.toLocaleString()} of ${events.length.toLocaleString()}` : events.length.toLocaleString()} events
          {!decisionsOnly && rows.length < events.length && ` in ${rows.length.toLocaleString()} row${rows.length === 1 ? "" : "s"}`}
        </span>
        <label className="dbg-toggle">
          <input type="checkbox" checked={decisionsOnly} onChange={(e) => setDecisionsOnly(e.target.checked)} />
          calls, repairs and errors only
        </label>
      </header>
      <div className="dbg-panel-body dbg-parse" data-testid="parse-steps-view">
        {events.length === 0 ? (
          <p className="dbg-empty">
            {step.status === "running" ? "The parser has not decided anything yet." : "The parser reported no events for this step."}
          </p>
        ) : (
          <VirtualList
            className="dbg-parse-list"
            count={rows.length}
            rowHeight={ROW_HEIGHT}
            scrollToIndex={selectedRow}
            aria-label="Parser events"
            renderRow={(r) => {
              const row = rows[r];
              if (!row) return null;
              const { event, first: i, last } = row;
              const isSelected = r === selectedRowIndex;
              return (
                <button
                  type="button"
                  className={`dbg-parse-row kind-${spanKindOf(event)}${isSelected ? " is-selected" : ""}`}
                  data-testid="parse-step"
                  data-index={i}
                  data-last-index={last !== i ? last : undefined}
                  data-type={event.type}
                  aria-pressed={isSelected}
                  title={last !== i ? `${event.type} events ${i}–${last}, shown as one row` : undefined}
                  onClick={() => onSelectParseEvent(isSelected ? null : i)}
                >
                  <span className="dbg-parse-index">{last !== i ? `${i}–${last}` : i}</span>
                  <span className="dbg-parse-type">{event.type}</span>
                  <span className="dbg-parse-span">
                    {event.span.start}–{event.span.end}
                  </span>
                  <span className="dbg-parse-summary">{visibleBidi(summarizeParseEvent(event))}</span>
                </button>
              );
            }}
          />
        )}
        {detail && <ParseEventDetail event={detail} />}
      </div>
    </section>
  );
});

function ParseEventDetail({ event }: { event: ParseEvent }) {
  return (
    <div className="dbg-parse-detail" data-testid="parse-step-detail">
      <div className="dbg-label">
        {event.type} · chars {event.span.start}–{event.span.end}
      </div>
      {event.type === "repair" && (
        <>
          <p className="dbg-detail-line">
            <strong>{event.kind}</strong> — {visibleBidi(event.message)}
          </p>
          <div className="dbg-before-after">
            <pre className="dbg-before" aria-label="Before">{visibleBidi(event.before)}</pre>
            <span aria-hidden="true">→</span>
            <pre className="dbg-after" aria-label="After">{visibleBidi(event.after)}</pre>
          </div>
        </>
      )}
      {event.type === "parse-error" && (
        <>
          <p className="dbg-detail-line">
            <strong>{event.kind}</strong> — {visibleBidi(event.message)}
          </p>
          <pre>{visibleBidi(event.raw)}</pre>
        </>
      )}
      {(event.type === "text" || event.type === "reasoning") && <pre>{visibleBidi(event.text)}</pre>}
      {event.type === "tool-call-start" && <p className="dbg-detail-line">Call {visibleBidi(event.id)} to {visibleName(event.name)} begins.</p>}
      {event.type === "tool-call-delta" && <pre>{visibleBidi(event.argumentsDelta)}</pre>}
      {event.type === "tool-call-end" && <pre>{visibleName(event.call.name)} {visibleBidi(toDisplayJson(event.call.arguments))}</pre>}
    </div>
  );
}
