// "Which protocol does this model lean to?": for one conversation, the probability that the
// model opens a call at its first token under each protocol, each protocol's prompt rendered
// as the loop renders it (renderPrompt) and probed once per opening marker (the opener probe:
// llama.cpp's pre-grammar probabilities of the marker's tokens, multiplied). A prompt differs
// from the next only from its tool section on, so llama.cpp reuses what comes before from its
// prompt cache; what differs is prefilled once per protocol, and asked again, a row's prompt is
// brought back from the cache where the engine keeps readings (the CPU engine). Each row says
// how many of its prompt tokens the engine read and how many it reused, as the engine reports them.
import { settleRender } from "toolcall-middleware/templates/render-pending.ts";
import { renderPrompt } from "toolcall-middleware/loop/render-conversation.ts";
import { measureOpeners, openerProbability, probeUnsupported } from "toolcall-middleware/probabilities/opener-probe.ts";
import { openingMarkers } from "toolcall-middleware/probabilities/opening-markers.ts";
import type { ChatMessage, ChatTemplate, Engine, OpenerProbe, Protocol, ToolSpec } from "toolcall-middleware/types.ts";

/** The protocols the table asks by default: the four the README's measurements compare. */
export const LEAN_PROTOCOLS = ["hermes", "xml", "pythonic", "llama3-json"];

export type LeanRow =
  | { protocol: string; p: number; markers: Extract<OpenerProbe, { at: number }>["markers"]; prompt: string; ms: number; read?: RowRead }
  | { protocol: string; error: string };

/** The row's probes' prompt tokens, summed: prefilled now, and reused from the engine's prompt cache. */
export interface RowRead {
  prefilledTokens: number;
  reusedTokens: number;
}

export interface LeanInput {
  engine: Pick<Engine, "name" | "probeText">;
  template: ChatTemplate;
  messages: ChatMessage[];
  tools: ToolSpec[];
  systemPrompt?: string;
  protocols: Protocol[];
}

/** One row per protocol, in order; `onRow` hears each as it is measured. Stops (and returns what it has) when `signal` aborts. */
export async function protocolLean(input: LeanInput, signal: AbortSignal, onRow?: (row: LeanRow) => void): Promise<LeanRow[]> {
  const rows: LeanRow[] = [];
  const engineProbe = input.engine.probeText?.bind(input.engine);
  if (!engineProbe) throw new Error(`Not measured: ${probeUnsupported(input.engine)}.`);
  for (const protocol of input.protocols) {
    if (signal.aborted) break;
    let row: LeanRow;
    try {
      const { prompt } = await settleRender(() => renderPrompt({ ...(input.systemPrompt ? { systemPrompt: input.systemPrompt } : {}), tools: input.tools, protocol, messages: input.messages, template: input.template }), signal);
      const markers = openingMarkers(protocol, input.tools);
      const started = performance.now();
      let read: RowRead | undefined;
      // The engine's own probe, counted: measureOpeners keeps only the probabilities.
      const counting = {
        name: input.engine.name,
        probeText: async (text: string, marker: string, stop: AbortSignal) => {
          const probe = await engineProbe(text, marker, stop);
          if (probe.read) read = { prefilledTokens: (read?.prefilledTokens ?? 0) + probe.read.prefilledTokens, reusedTokens: (read?.reusedTokens ?? 0) + probe.read.reusedTokens };
          return probe;
        },
      };
      const probe = await measureOpeners(counting, prompt, markers, signal);
      if (signal.aborted) break;
      if (!probe) row = { protocol: protocol.name, error: "This protocol names no opening marker." };
      else if ("unsupported" in probe) row = { protocol: protocol.name, error: probe.unsupported };
      else row = { protocol: protocol.name, p: openerProbability(probe), markers: probe.markers, prompt, ms: performance.now() - started, ...(read ? { read } : {}) };
    } catch (error) {
      row = { protocol: protocol.name, error: error instanceof Error ? error.message : String(error) };
    }
    rows.push(row);
    onRow?.(row);
  }
  return rows;
}
