// What a side of an experiment shows of one parse: the calls it found and its parse events. The
// "Parse as…" and "Edit and re-run" panels put two of these side by side.
import type { ParseEvent, ToolCall } from "toolcall-middleware/types.ts";
import { summarizeParseEvent, toDisplayJson } from "../debugger/format.ts";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";

/** The events that decided something (calls, repairs, errors), without the running text. */
export function decisionsOf(events: readonly ParseEvent[]): ParseEvent[] {
  return events.filter((e) => e.type !== "text" && e.type !== "reasoning" && e.type !== "tool-call-delta");
}

/** The calls, one a line with their arguments; "no call" when there is none. */
export function CallList({ calls, testId, itemTestId }: { calls: readonly Pick<ToolCall, "id" | "name" | "arguments">[]; testId: string; itemTestId?: string }) {
  return (
    <ol className="xp-calls" data-testid={testId} data-count={calls.length}>
      {calls.map((call) => (
        <li key={call.id} className="mono" {...(itemTestId ? { "data-testid": itemTestId } : {})}>
          {visibleBidi(`${call.name} ${toDisplayJson(call.arguments)}`)}
        </li>
      ))}
      {calls.length === 0 && <li className="dbg-hint">no call</li>}
    </ol>
  );
}

/** How many parse events and decisions, and the first `rows` of `listed` when opened. */
export function ParseEventList({ events, listed, rows, testId, counts }: { events: readonly ParseEvent[]; listed: "all" | "decisions"; rows: number; testId?: string; counts?: { events: number; decisions: number } }) {
  const decisions = decisionsOf(events);
  const shown = (listed === "all" ? events : decisions).slice(0, rows);
  // `counts`: the events given are the first of more (a re-read sends only those it shows).
  return (
    <details>
      <summary {...(testId ? { "data-testid": testId } : {})}>
        {counts?.events ?? events.length} parse events, {counts?.decisions ?? decisions.length} decisions
      </summary>
      <ol className="xp-events mono">
        {shown.map((event, i) => (
          <li key={i}>
            {event.type} {event.span.start}–{event.span.end} {visibleBidi(summarizeParseEvent(event))}
          </li>
        ))}
      </ol>
    </details>
  );
}
