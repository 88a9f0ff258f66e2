// What the engine is doing, or what went wrong and what to do about it.
import { useLabStores } from "../../app/lab-stores-context.tsx";
import type { EngineStatus } from "../../store/engine-store.ts";
import { formatDuration, phaseLabel } from "../../engine/webllm/load-progress.ts";

export function EngineErrorBox({ status, offerReplay }: { status: Extract<EngineStatus, { state: "error" }>; offerReplay: boolean }) {
  const { loadModel, selectEngineKind } = useLabStores().engines;
  const { reloadCpuModel } = useLabStores().cpuEngine;
  return (
    <div className="engine-error" role="alert" data-testid="engine-error" data-kind={status.kind}>
      <p className="engine-error-message">{status.message}</p>
      <p className="engine-error-suggestion">{status.suggestion}</p>
      {status.detail && (
        <details className="engine-error-detail">
          <summary>Technical detail</summary>
          <code>{status.detail}</code>
        </details>
      )}
      {status.reloadModelId && (
        <button type="button" className="primary" data-testid="reload-model-button" onClick={() => void loadModel(status.reloadModelId)}>
          Reload the model
        </button>
      )}
      {status.reloadCpu && (
        <button type="button" className="primary" data-testid="reload-cpu-model-button" onClick={() => void reloadCpuModel()}>
          Reload the model
        </button>
      )}
      {offerReplay && (
        <button type="button" data-testid="use-replay-button" onClick={() => selectEngineKind("replay")}>
          Use the replay engine instead
        </button>
      )}
    </div>
  );
}

export function LoadProgressBar({ status }: { status: Extract<EngineStatus, { state: "loading" }> }) {
  const progress = status.progress;
  const percent = progress?.percent ?? 0;
  const facts = [
    progress ? `${percent.toFixed(percent < 10 ? 1 : 0)}%` : "starting…",
    progress?.fetchedMB !== undefined ? `${progress.fetchedMB} MB` : undefined,
    progress?.shard ? `${progress.phase === "compiling" ? "shader" : "file"} ${progress.shard.done}/${progress.shard.total}` : undefined,
    progress?.secondsLeft !== undefined ? `about ${formatDuration(progress.secondsLeft)} left` : undefined,
  ].filter(Boolean);
  return (
    <div className="load-progress" data-testid="load-progress">
      <div className="load-progress-head">
        Loading {status.what}
        {progress && <span className="load-progress-phase" data-testid="load-phase" data-phase={progress.phase}> · {phaseLabel(progress.phase)}</span>}
      </div>
      <progress max={100} value={progress ? percent : undefined} aria-label={`Loading ${status.what}`} />
      <div className="load-progress-facts">{facts.join(" · ")}</div>
      {progress?.text && <p className="load-progress-text">{progress.text}</p>}
    </div>
  );
}

export function StatusLine({ status, readyText }: { status: EngineStatus; readyText: string }) {
  if (status.state === "ready") return <p className="engine-status engine-status-ready" data-testid="engine-status" data-state="ready">{status.note ?? readyText}</p>;
  if (status.state === "idle" && status.note) return <p className="engine-status" data-testid="engine-status" data-state="idle">{status.note}</p>;
  return null;
}
