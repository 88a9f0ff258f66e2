// Beside the matrix while a run goes: the case running now with its reply as it streams, and the
// case that ended last with its verdict, its reason and its decision point. Either opens in the
// debugger with its log.
import { useEvalState, useEvaluation } from "./use-evaluation.ts";

export function EvalLiveCase() {
  const { openCase } = useEvaluation();
  const live = useEvalState((s) => s.live);
  const last = useEvalState((s) => s.lastFinished);
  const status = useEvalState((s) => s.status);
  if (!live && !last) return null;
  const verdict = last ? (last.result.pass ? (last.result.strictPass ? "pass" : "pass, not strict") : "fail") : "";
  return (
    <section className="eval-live" aria-label="The running case" data-testid="eval-live">
      {live && status === "running" && (
        <div className="eval-live-case" data-testid="eval-live-running" data-case={live.id} data-chars={live.outputChars}>
          <h3 className="eval-heading">Running now</h3>
          <p className="eval-live-title">
            <span className="mono">{live.id}</span> · {live.protocol}
            {live.constrained ? " + constrained" : ""}
            <span className="eval-muted"> · {live.outputChars.toLocaleString("en-US")} characters so far</span>
          </p>
          <pre className="eval-live-output" data-testid="eval-live-output" aria-live="off">
            {live.outputChars > live.output.length ? "…" : ""}
            {live.output || (live.outputChars === 0 ? "(reading the prompt: the model has not written a token yet)" : "")}
          </pre>
        </div>
      )}
      {last && (
        <div className="eval-live-case" data-testid="eval-live-finished" data-case={last.result.id}>
          <h3 className="eval-heading">Last case</h3>
          <p className="eval-live-title">
            <span className="mono">{last.result.id}</span> · {last.result.protocol}
            {last.result.constrained ? " + constrained" : ""}{" "}
            <span className={`eval-verdict eval-verdict-${last.result.pass ? (last.result.strictPass ? "strict" : "pass") : "fail"}`} data-testid="eval-live-verdict" data-pass={String(last.result.pass)}>
              {verdict}
            </span>
          </p>
          {last.result.reason && (
            <p className="eval-reason" data-testid="eval-live-reason">
              {last.result.reason}
            </p>
          )}
          <p className="eval-muted" data-testid="eval-live-decision">
            <strong>Decision point:</strong> {last.decision}
          </p>
          <button type="button" data-testid="eval-live-open" disabled={!last.result.runId} onClick={() => void openCase(last.jobKey)}>
            Open in the debugger
          </button>
        </div>
      )}
    </section>
  );
}
