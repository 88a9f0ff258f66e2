// Sends "Parse as…" re-reads to their worker, the newest request only (latest-only-runner.ts).
import { reparseView, type ReparseView, type ReparseViewInput } from "../../experiments/reparse.ts";
import { LatestOnlyRunner } from "../workers/latest-only-runner.ts";

export function failedReparseView(message: string): ReparseView {
  return { protocol: "", strict: false, calls: [], events: [], eventCount: 0, decisionCount: 0, errors: [], errorCount: 0, differences: [], explanation: message };
}

export function createReparseRunner(onResult: (view: ReparseView) => void): LatestOnlyRunner<ReparseViewInput, ReparseView> {
  return new LatestOnlyRunner({
    createWorker: () => new Worker(new URL("./reparse.worker.ts", import.meta.url), { type: "module", name: "parse as" }),
    runHere: reparseView,
    failed: failedReparseView,
    onResult,
  });
}
