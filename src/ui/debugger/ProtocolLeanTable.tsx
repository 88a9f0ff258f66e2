// "Which protocol does this model lean to?" for the conversation this step read: each protocol's
// prompt rendered for the same messages and tools on the current engine, and the probability
// that the model opens a call at the first token (the opener probe). Measured on demand, shown,
// not saved: it is a question asked of today's engine, not something a run recorded.
import { useCallback, useEffect, useRef, useState } from "react";
import { formatP, quoteToken } from "toolcall-middleware/probabilities/decision-point.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Protocol, ToolSpec } from "toolcall-middleware/types.ts";
import { useLabStores } from "../../app/lab-stores-context.tsx";
import { LEAN_PROTOCOLS, protocolLean, type LeanRow } from "../../experiments/protocol-lean.ts";
import { userSystemPrompt } from "../../experiments/rerun-draft.ts";
import { currentEngine } from "../../store/branch-controller.ts";
import type { StepView } from "./build-steps.ts";

export function ProtocolLeanTable({ step, tools, toolSection }: { step: StepView; tools: readonly ToolSpec[]; toolSection: string | undefined }) {
  const stores = useLabStores();
  const [rows, setRows] = useState<LeanRow[] | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
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

  const measure = useCallback(async () => {
    if (stores.run.getState().running) {
      setNote("A turn or an experiment is running; wait for it to end.");
      return;
    }
    const now = currentEngine(stores.runController, stores.engines.store.getState());
    if ("error" in now) {
      setNote(`No engine to ask: ${now.error}`);
      return;
    }
    const names = [...new Set([step.protocol, ...LEAN_PROTOCOLS])];
    const protocols = names.map((name) => getProtocol(name)).filter((p): p is Protocol => p !== undefined);
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    setRows([]);
    setNote(null);
    stores.run.setState({ running: true });
    const started = performance.now();
    try {
      const systemPrompt = userSystemPrompt(step.templateMessages, toolSection);
      const done = await protocolLean(
        { engine: now.engine, template: now.template, messages: step.messages, tools: [...tools], ...(systemPrompt ? { systemPrompt } : {}), protocols },
        controller.signal,
        (row) => setRows((list) => [...(list ?? []), row]),
      );
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      setNote(controller.signal.aborted ? `Stopped after ${done.length} of ${protocols.length}.` : `Measured on ${now.engine.name} with the template ${now.template.name}, in ${seconds} s.`);
    } catch (error) {
      setNote(error instanceof Error ? error.message : String(error));
    } finally {
      abort.current = null;
      setRunning(false);
      stores.run.setState({ running: false });
    }
  }, [step, stores, tools, toolSection]);

  return (
    <div className="dbg-lean" data-testid="protocol-lean">
      <button type="button" onClick={() => void measure()} disabled={running} data-testid="protocol-lean-run" title="Each protocol's prompt for this conversation, and the probability that the model opens a call at the first token">
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
              <th>each marker: its tokens' p</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.protocol} data-protocol={row.protocol} data-testid="protocol-lean-row" {...("p" in row ? { "data-p": row.p } : {})}>
                <td>{row.protocol}</td>
                <td className="num">{"p" in row ? formatP(row.p) : "—"}</td>
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
