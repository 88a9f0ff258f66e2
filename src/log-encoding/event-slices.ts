// A log cut into slices that are each encoded (or decoded) in one go: by events, and by the
// recorded tokens they carry, since one event can hold 10,000 tokens with their alternatives and
// reading or writing such a slice is one task. Streams of small events are packed within a slice
// only (shared-text.ts), so a slice is also the most one record of the encoding stands for.
import type { LoopEvent } from "toolcall-middleware/types.ts";

/** Tokens recorded with an event (an output delta's, with their probabilities); 0 for anything else, stored data of another shape included. */
export function recordedTokens(event: LoopEvent): number {
  const tokens: unknown = event?.type === "output-delta" ? event.tokens : undefined;
  return Array.isArray(tokens) ? tokens.length : 0;
}

/**
 * Consecutive slices of `events`, each of at most `maxEvents` events and `maxTokens` recorded
 * tokens, but one event's tokens, which are never cut. No events: one empty slice.
 */
export function sliceEvents<E extends LoopEvent>(events: readonly E[], maxEvents: number, maxTokens: number): E[][] {
  const slices: E[][] = [];
  let slice: E[] = [];
  let tokens = 0;
  for (const event of events) {
    const more = recordedTokens(event);
    if (slice.length > 0 && (slice.length >= maxEvents || tokens + more > maxTokens)) {
      slices.push(slice);
      slice = [];
      tokens = 0;
    }
    slice.push(event);
    tokens += more;
  }
  if (slice.length > 0 || slices.length === 0) slices.push(slice);
  return slices;
}
