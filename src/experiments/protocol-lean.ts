// "Which protocol does this model lean to?": for one conversation, the probability that the
// model opens a call at its first token under each protocol, each protocol's prompt rendered
// as the loop renders it (renderPrompt) and probed once per opening marker (the opener probe:
// llama.cpp's pre-grammar probabilities of the marker's tokens, multiplied). A prompt differs
// from the next only from its tool section on, so llama.cpp reuses what comes before from its
// prompt cache; what differs is prefilled once per protocol.
import { settleRender } from "toolcall-middleware/templates/render-pending.ts";
import { renderPrompt } from "toolcall-middleware/loop/render-conversation.ts";
import { measureOpeners, openerProbability, probeUnsupported } from "toolcall-middleware/probabilities/opener-probe.ts";
import { openingMarkers } from "toolcall-middleware/probabilities/opening-markers.ts";
import type { ChatMessage, ChatTemplate, Engine, OpenerProbe, Protocol, ToolSpec } from "toolcall-middleware/types.ts";

/** The protocols the table asks by default: the four the README's measurements compare. */
export const LEAN_PROTOCOLS = ["hermes", "xml", "pythonic", "llama3-json"];

export type LeanRow =
  | { protocol: string; p: number; markers: Extract<OpenerProbe, { at: number }>["markers"]; prompt: string; ms: number }
  | { protocol: string; error: string };

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
  if (!input.engine.probeText) throw new Error(`Not measured: ${probeUnsupported(input.engine)}.`);
  for (const protocol of input.protocols) {
    if (signal.aborted) break;
    let row: LeanRow;
    try {
      const { prompt } = await settleRender(() => renderPrompt({ ...(input.systemPrompt ? { systemPrompt: input.systemPrompt } : {}), tools: input.tools, protocol, messages: input.messages, template: input.template }), signal);
      const markers = openingMarkers(protocol, input.tools);
      const started = performance.now();
      const probe = await measureOpeners(input.engine, prompt, markers, signal);
      if (signal.aborted) break;
      if (!probe) row = { protocol: protocol.name, error: "This protocol names no opening marker." };
      else if ("unsupported" in probe) row = { protocol: protocol.name, error: probe.unsupported };
      else row = { protocol: protocol.name, p: openerProbability(probe), markers: probe.markers, prompt, ms: performance.now() - started };
    } catch (error) {
      row = { protocol: protocol.name, error: error instanceof Error ? error.message : String(error) };
    }
    rows.push(row);
    onRow?.(row);
  }
  return rows;
}
