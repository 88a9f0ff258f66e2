// The rows the parse-steps list shows: a streamed step records a text (or reasoning) event per
// chunk, often a few characters each, so consecutive ones read as one row with the span and
// text they cover together. A view only: the event log keeps every event as recorded.
import type { ParseEvent } from "toolcall-middleware/types.ts";

/** Events whose runs are shown as one row. */
type ProseEvent = Extract<ParseEvent, { type: "text" | "reasoning" }>;

export interface ParseRow {
  /** The first and last event index the row covers (equal for a single event). */
  first: number;
  last: number;
  /** The row's event; for a run of prose, one event spanning and spelling the whole run. */
  event: ParseEvent;
}

const isProse = (event: ParseEvent): event is ProseEvent => event.type === "text" || event.type === "reasoning";

/** Rows of the given event indices (all when `indices` is absent), consecutive prose of one type merged. */
export function parseRows(events: readonly { event: ParseEvent }[], indices?: readonly number[]): ParseRow[] {
  const rows: ParseRow[] = [];
  const order = indices ?? events.map((_, i) => i);
  // Each run's texts are joined once, when the run ends: linear in the step's output.
  let pieces: string[] = [];
  const closeRun = () => {
    const row = rows[rows.length - 1];
    if (row && pieces.length > 1 && isProse(row.event)) row.event = { ...row.event, text: pieces.join("") };
    pieces = [];
  };
  for (const i of order) {
    const event = events[i]?.event;
    if (!event) continue;
    const previous = rows[rows.length - 1];
    if (previous && isProse(event) && previous.event.type === event.type && previous.last === i - 1) {
      previous.last = i;
      previous.event = { ...previous.event, span: { start: previous.event.span.start, end: event.span.end } };
      pieces.push(event.text);
      continue;
    }
    closeRun();
    rows.push({ first: i, last: i, event });
    if (isProse(event)) pieces.push(event.text);
  }
  closeRun();
  return rows;
}

/** The row showing event `index`, or -1. */
export function rowOfEvent(rows: readonly ParseRow[], index: number): number {
  let low = 0;
  let high = rows.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const row = rows[mid]!;
    if (index < row.first) high = mid - 1;
    else if (index > row.last) low = mid + 1;
    else return mid;
  }
  return -1;
}
