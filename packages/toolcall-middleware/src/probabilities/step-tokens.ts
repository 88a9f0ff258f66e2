// A step's recorded tokens placed in its raw output: each output-delta's tokens follow one
// another from the delta's offset. Where an engine's token texts are not whole characters (a
// multi-byte character split across tokens), the places are where their texts say, no more.
import type { LoopEvent, TokenProbability } from "../types.ts";

export interface PlacedToken {
  /** Where the token's text starts in the step's raw output. */
  start: number;
  end: number;
  /** Its place among the step's tokens. */
  index: number;
  token: TokenProbability;
}

/** The recorded tokens of one step (by run and step id), in order, or [] where none were recorded. */
export function stepTokens(events: readonly LoopEvent[], runId: string, stepId: string): PlacedToken[] {
  const placed: PlacedToken[] = [];
  for (const event of events) {
    if (event.type !== "output-delta" || event.runId !== runId || event.stepId !== stepId || !event.tokens) continue;
    let at = event.offset;
    for (const token of event.tokens) {
      placed.push({ start: at, end: at + token.text.length, index: placed.length, token });
      at += token.text.length;
    }
  }
  return placed;
}

/** The token whose text covers `offset` (the last one starting at or before it, if it reaches it), else undefined. */
export function tokenAt(tokens: readonly PlacedToken[], offset: number): PlacedToken | undefined {
  let low = 0;
  let high = tokens.length - 1;
  let found: PlacedToken | undefined;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (tokens[mid]!.start <= offset) {
      found = tokens[mid];
      low = mid + 1;
    } else high = mid - 1;
  }
  return found && (offset < found.end || offset === found.start) ? found : undefined;
}
