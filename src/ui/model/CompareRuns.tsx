// The compare action and view: one question through the server's native tool calling and
// through the lab's middleware (prompt mode, a chosen protocol), side by side.
import { lazy, Suspense, useMemo, useState } from "react";
import { useCompareRuns, useLabStores, useRunState } from "../../app/lab-stores-context.tsx";
import { listProtocols } from "toolcall-middleware/protocols/registry.ts";
import { compareNativeAndPrompt, type ComparedRun } from "../../store/compare-runs.ts";
import { StepFolder } from "../debugger/build-steps.ts";
import { comparable } from "../experiments/StepExperiments.tsx";

// Loaded when a comparison is shown (the experiments' code is not on the first screen).
const CompareSteps = lazy(() => import("../experiments/CompareSteps.tsx").then((m) => ({ default: m.CompareSteps })));

export function CompareRuns() {
  const stores = useLabStores();
  const running = useCompareRuns((s) => s.running);
  const current = useCompareRuns((s) => s.current);
  const runs = useCompareRuns((s) => s.runs);
  const error = useCompareRuns((s) => s.error);
  const [shown, setShown] = useState(true);
  const busy = useRunState((s) => s.running);
  const [message, setMessage] = useState("");
  const [protocol, setProtocol] = useState(() => stores.protocol.getState().protocol);

  return (
    <details className="compare" data-testid="compare-section">
      <summary>Compare native tool calling with the lab's middleware</summary>
      <form
        className="compare-form"
        onSubmit={(e) => {
          e.preventDefault();
          setShown(true);
          void compareNativeAndPrompt(stores, message, protocol);
        }}
      >
        <textarea data-testid="compare-message" rows={2} placeholder="The question to ask both ways" value={message} onChange={(e) => setMessage(e.target.value)} />
        <label className="model-field">
          <span>Protocol for prompt mode</span>
          <select data-testid="compare-protocol" value={protocol} onChange={(e) => setProtocol(e.target.value)}>
            {listProtocols().map(({ name }) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" data-testid="compare-button" disabled={running || busy || !message.trim()}>
          {running ? `Running ${current ?? ""}…` : "Run both"}
        </button>
      </form>
      {error && (
        <p className="engine-error" role="alert" data-testid="compare-error">
          {error}
        </p>
      )}
      {runs.length > 0 && !shown && (
        <button type="button" data-testid="compare-show" onClick={() => setShown(true)}>
          Show the last comparison
        </button>
      )}
      {runs.length > 0 && shown && (
        <div className="compare-view" data-testid="compare-view" role="dialog" aria-label="Native vs middleware">
          <header className="compare-head">
            <h3>Native tool calling vs the lab's middleware</h3>
            {running && <span className="model-hint">Running {current}…</span>}
            <button type="button" data-testid="compare-close" onClick={() => setShown(false)}>
              Close
            </button>
          </header>
          <div className="compare-columns">
            {runs.map((run) => (
              <CompareColumn key={run.conversationId} run={run} />
            ))}
          </div>
          {runs.length === 2 && <CompareRunSteps a={runs[0]!} b={runs[1]!} />}
        </div>
      )}
    </details>
  );
}

function CompareColumn({ run }: { run: ComparedRun }) {
  const { conversationActions } = useLabStores().conversations;
  const s = run.summary;
  return (
    <section className="compare-column" data-testid="compare-column" data-mode={run.mode}>
      <h4>{run.label}</h4>
      {!s ? (
        <p className="model-hint">This run left no events.</p>
      ) : (
        <dl>
          <dt>ended</dt>
          <dd data-testid="compare-status">{s.status}{s.error ? ` — ${s.error}` : ""}</dd>
          <dt>steps</dt>
          <dd data-testid="compare-steps">{s.steps}</dd>
          <dt>calls</dt>
          <dd data-testid="compare-calls">
            {s.calls.length === 0
              ? "none"
              : s.calls.map((call, i) => (
                  <div key={i}>
                    <code>
                      {call.name}({JSON.stringify(call.arguments)})
                    </code>{" "}
                    {call.status}
                  </div>
                ))}
          </dd>
          <dt>repairs</dt>
          <dd data-testid="compare-repairs">{s.repairs}</dd>
          <dt>errors</dt>
          <dd data-testid="compare-errors">{s.parseErrors.length === 0 ? "none" : s.parseErrors.join("; ")}</dd>
          <dt>tokens</dt>
          <dd>{s.promptTokens !== undefined ? `${s.promptTokens} in · ${s.completionTokens} out` : "not reported"}</dd>
          <dt>time</dt>
          <dd>{s.durationMs !== undefined ? `${(s.durationMs / 1000).toFixed(1)} s` : "—"}</dd>
          <dt>answer</dt>
          <dd data-testid="compare-answer">{s.finalText || "—"}</dd>
        </dl>
      )}
      <button type="button" data-testid="compare-open" onClick={() => void conversationActions.open(run.conversationId)}>
        Open this run
      </button>
    </section>
  );
}

/** The two runs step by step, in the compare view every debugger step has. */
function CompareRunSteps({ a, b }: { a: ComparedRun; b: ComparedRun }) {
  const stepsOf = (run: ComparedRun) => {
    const model = new StepFolder().update(run.events ?? []);
    return model.order.map((key) => model.steps.get(key)!).filter((step) => step.depth === 0);
  };
  const stepsA = useMemo(() => stepsOf(a), [a]);
  const stepsB = useMemo(() => stepsOf(b), [b]);
  const [index, setIndex] = useState(0);
  const count = Math.min(stepsA.length, stepsB.length);
  const stepA = stepsA[index];
  const stepB = stepsB[index];
  const pair = useMemo(() => (stepA && stepB ? { a: comparable(stepA, `${a.mode} · step ${index + 1}`), b: comparable(stepB, `${b.mode} · step ${index + 1}`) } : null), [stepA, stepB, a.mode, b.mode, index]);
  if (count === 0) return null;
  return (
    <div className="compare-run-steps">
      <label className="model-field">
        <span>Step by step</span>
        <select data-testid="compare-runs-step" value={index} onChange={(e) => setIndex(Number(e.target.value))}>
          {Array.from({ length: count }, (_, i) => (
            <option key={i} value={i}>
              step {i + 1}
            </option>
          ))}
        </select>
      </label>
      {pair && (
        <Suspense fallback={<p className="model-hint">Loading…</p>}>
          <CompareSteps a={pair.a} b={pair.b} />
        </Suspense>
      )}
    </div>
  );
}
