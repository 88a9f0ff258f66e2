// "Which protocol does this model lean to?" for the conversation this step read: each protocol's
// prompt rendered for the same messages and tools on the current engine, and the probability
// that the model opens a call at the first token (the opener probe). Measured on demand, shown,
// not saved: it is a question asked of today's engine, not something a run recorded. The
// playground asks the same question of a message typed there (LeanTable and useProtocolLean).
import { useCallback, useEffect, useRef, useState } from "react";
import { formatP, quoteToken } from "toolcall-middleware/probabilities/decision-point.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Protocol, ToolSpec } from "toolcall-middleware/types.ts";
import { useLabStores } from "../../app/lab-stores-context.tsx";
import { LEAN_PROTOCOLS, protocolLean, type LeanInput, type LeanRow } from "../../experiments/protocol-lean.ts";
import { userSystemPrompt } from "../../experiments/rerun-draft.ts";
import { currentEngine } from "../../store/branch-controller.ts";
import type { StepView } from "./build-steps.ts";

/** The protocols a table asks: the one named first (the step's, the playground's), then the four compared everywhere. */
export function leanProtocols(first: string | undefined): Protocol[] {
  const names = [...new Set([...(first ? [first] : []), ...LEAN_PROTOCOLS])];
  return names.map((name) => getProtocol(name)).filter((p): p is Protocol => p !== undefined);
}

/** One measurement at a time, its rows as they come, Stop and Esc; `onBusy` hears when it starts and ends. */
export function useProtocolLean(onBusy?: (busy: boolean) => void) {
  const [rows, setRows] = useState<LeanRow[] | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  /** Measurements finished on this table (a test tells the second from the first by it). */
  const [finished, setFinished] = useState(0);
  const abort = useRef<AbortController | null>(null);
  const stop = useCallback(() => abort.current?.abort(), []);

  useEffect(() => {
    if (!running) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") stop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, stop]);
  useEffect(() => () => abort.current?.abort(), []);

  const measure = useCallback(
    async (input: LeanInput) => {
      const controller = new AbortController();
      abort.current = controller;
      setRunning(true);
      setRows([]);
      setNote(null);
      onBusy?.(true);
      const started = performance.now();
      try {
        const done = await protocolLean(input, controller.signal, (row) => setRows((list) => [...(list ?? []), row]));
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        setNote(controller.signal.aborted ? `Stopped after ${done.length} of ${input.protocols.length}.` : `Measured on ${input.engine.name} with the template ${input.template.name}, in ${seconds} s.`);
      } catch (error) {
        setNote(error instanceof Error ? error.message : String(error));
      } finally {
        abort.current = null;
        setRunning(false);
        setFinished((n) => n + 1);
        onBusy?.(false);
      }
    },
    [onBusy],
  );

  return { rows, note, setNote, running, finished, measure, stop };
}

export function ProtocolLeanTable({ step, tools, toolSection }: { step: StepView; tools: readonly ToolSpec[]; toolSection: string | undefined }) {
  const stores = useLabStores();
  const onBusy = useCallback((busy: boolean) => stores.run.setState({ running: busy }), [stores]);
  const lean = useProtocolLean(onBusy);
  const { measure, setNote } = lean;

  const start = useCallback(() => {
    if (stores.run.getState().running) {
      setNote("A turn or an experiment is running; wait for it to end.");
      return;
    }
    const now = currentEngine(stores.runController, stores.engines.store.getState());
    if ("error" in now) {
      setNote(`No engine to ask: ${now.error}`);
      return;
    }
    const systemPrompt = userSystemPrompt(step.templateMessages, toolSection);
    void measure({ engine: now.engine, template: now.template, messages: step.messages, tools: [...tools], ...(systemPrompt ? { systemPrompt } : {}), protocols: leanProtocols(step.protocol) });
  }, [measure, setNote, step, stores, tools, toolSection]);

  return <LeanTable lean={lean} onMeasure={start} />;
}

/** The button, Stop, the table of rows and the note. */
export function LeanTable({ lean, onMeasure, disabled = false }: { lean: ReturnType<typeof useProtocolLean>; onMeasure: () => void; disabled?: boolean }) {
  const { rows, note, running, finished, stop } = lean;
  return (
    <div className="dbg-lean" data-testid="protocol-lean" data-finished={finished}>
      <button type="button" onClick={onMeasure} disabled={running || disabled} data-testid="protocol-lean-run" title="Each protocol's prompt for this conversation, and the probability that the model opens a call at the first token">
        Which protocol does this model lean to?
      </button>
      {running && (
        <button type="button" onClick={stop} data-testid="protocol-lean-stop" title="Stop (Esc)">
          Stop
        </button>
      )}
      {rows && rows.length > 0 && (
        <table className="dbg-lean-table" data-testid="protocol-lean-table">
          <thead>
            <tr>
              <th>protocol</th>
              <th className="num" title="The probability that the model opens a call at the first token">p(call)</th>
              <th className="num" title="The row's prompt tokens the engine read now, and those it reused from its prompt cache (as the engine reports them)">read · reused</th>
              <th>each marker: its tokens' p</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.protocol} data-protocol={row.protocol} data-testid="protocol-lean-row" {...("p" in row ? { "data-p": row.p } : {})} {...("read" in row && row.read ? { "data-prefilled": row.read.prefilledTokens, "data-reused": row.read.reusedTokens } : {})}>
                <td>{row.protocol}</td>
                <td className="num">{"p" in row ? formatP(row.p) : "—"}</td>
                <td className="num">{"read" in row && row.read ? `${row.read.prefilledTokens.toLocaleString("en")} · ${row.read.reusedTokens.toLocaleString("en")}` : "—"}</td>
                <td className="dbg-hint">
                  {"p" in row
                    ? row.markers.map((m) => `${quoteToken(m.marker)}: ${m.tokens.map((t) => formatP(t.p)).join(" × ")}`).join("; ")
                    : row.error}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {note && (
        <p className="dbg-hint" role="status" data-testid="protocol-lean-note">
          {note}
        </p>
      )}
    </div>
  );
}
