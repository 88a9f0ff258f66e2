// The opener probe: at a step's decision point, the probability that the model opens a call,
// measured, not bounded by the alternatives that happened to be recorded. For each of the
// protocol's opening markers the engine writes the marker after the prompt under a grammar that
// allows only it and reports each token's probability as the model gave it (Engine.probeText;
// llama.cpp takes them before the grammar); the marker's probability is their product. Recorded
// in the step's step-end, at three significant digits like every recorded probability.
import type { Engine, OpenerProbe } from "../types.ts";
import { recordedProbability } from "./recorded-precision.ts";

/** Why an engine without `probeText` cannot measure an opener. */
export function probeUnsupported(engine: Pick<Engine, "name">): string {
  return `this engine (${engine.name}) cannot: only a llama.cpp engine (llama-server, the CPU engine) records a token's probability before a grammar that forces the text`;
}

/** Measures each marker at the end of `prompt` (the decision point `at` characters into the output). */
export async function measureOpeners(engine: Pick<Engine, "name" | "probeText">, prompt: string, markers: readonly string[], signal: AbortSignal, at = 0): Promise<OpenerProbe | undefined> {
  if (markers.length === 0 || signal.aborted) return undefined;
  if (!engine.probeText) return { unsupported: probeUnsupported(engine) };
  const measured: Extract<OpenerProbe, { at: number }>["markers"] = [];
  for (const marker of markers) {
    try {
      const probe = await engine.probeText(prompt, marker, signal);
      measured.push({
        marker,
        p: recordedProbability(probe.p),
        tokens: probe.tokens.map((t) => ({ text: t.text, p: recordedProbability(t.p), ...(t.id !== undefined ? { id: t.id } : {}) })),
      });
    } catch (error) {
      if (signal.aborted) return undefined;
      return { unsupported: `The opener probe failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return { at, markers: measured };
}

/** The probability of opening a call by any of the markers: their sum (no marker is another's start, so the events are disjoint). */
export function openerProbability(probe: Extract<OpenerProbe, { at: number }>): number {
  return Math.min(1, probe.markers.reduce((sum, m) => sum + m.p, 0));
}
