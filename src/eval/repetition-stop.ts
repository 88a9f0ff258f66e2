// An evaluation's option: stop a reply once it has fallen into degenerate repetition (its end is
// one block written over and over, repetition.ts) instead of letting it run to its token budget.
// Such a reply would fail anyway: a reply cut at the budget fails, and the loop almost never
// breaks at temperature 0. Stopped, the case fails with a reason that says so (its step ends
// as an engine error whose message holds REPETITION_STOP_PREFIX), and the run's timing table
// counts it, so the figures show how many cases were stopped this way.
import type { Engine, EngineChunk } from "toolcall-middleware/types.ts";
import { REPETITION_STOP_PREFIX } from "./case-timing.ts";
import { wrapEngineStreams } from "./engine-streams.ts";
import { DEGENERATE_REPETITION, repetitionAtEnd, type Repetition, type RepetitionRule } from "./repetition.ts";

export class RepetitionStop extends Error {
  constructor(readonly repetition: Repetition) {
    super(`${REPETITION_STOP_PREFIX} (the reply's last ${repetition.chars} characters are ${repetition.copies} copies of ${JSON.stringify(repetition.block.slice(0, 40))}${repetition.block.length > 40 ? "…" : ""}); it counts as failed, as a reply cut at its token budget does.`);
    this.name = "RepetitionStop";
  }
}

/** The engine with each text stream stopped (its request aborted) once the text so far ends in degenerate repetition. */
export function withRepetitionStop(engine: Engine, rule: RepetitionRule = DEGENERATE_REPETITION): Engine {
  return wrapEngineStreams(engine, (start, signal) => watched(signal, rule, start));
}

async function* watched(signal: AbortSignal, rule: RepetitionRule, start: (signal: AbortSignal) => AsyncIterable<EngineChunk>): AsyncGenerator<EngineChunk> {
  const stop = new AbortController();
  // Only the reply's end matters: a bounded tail keeps each check's work the same however long the reply grows.
  const keep = 4 * Math.max(rule.maxBlockChars * rule.minCopies, rule.minChars);
  let tail = "";
  try {
    for await (const chunk of start(AbortSignal.any([signal, stop.signal]))) {
      yield chunk;
      if (chunk.type !== "text") continue;
      tail = (tail + chunk.text).slice(-keep);
      const repetition = repetitionAtEnd(tail, rule);
      if (repetition) {
        stop.abort();
        throw new RepetitionStop(repetition);
      }
    }
  } finally {
    stop.abort();
  }
}
