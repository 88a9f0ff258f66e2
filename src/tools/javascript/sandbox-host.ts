// The page's side of the JavaScript sandbox: one fresh sandbox (a frame and its worker) per run,
// terminated when the run ends, times out or is aborted — a runaway loop cannot be interrupted
// any other way, and a fresh sandbox means no state leaks from one call (or conversation) into
// the next. At most a few sandboxes exist at once (sandbox-slots.ts); other runs wait their turn.
import type { SandboxOutcome, SandboxRequest, SandboxResponse } from "./sandbox-protocol.ts";
import { createSandboxSlots, MAX_CONCURRENT_SANDBOXES } from "./sandbox-slots.ts";

/** One sandbox, as the host uses it (shaped like a Worker); tests inject fakes. */
export interface SandboxWorker {
  postMessage: (message: SandboxRequest) => void;
  terminate: () => void;
  onmessage: ((event: { data: SandboxResponse }) => void) | null;
  /** `crashed`: the sandbox died (its message says why); otherwise it failed to run. */
  onerror: ((event: { message?: string; crashed?: boolean }) => void) | null;
}

export type SandboxWorkerFactory = () => SandboxWorker;

export class JavascriptError extends Error {
  override name = "JavascriptError";
  constructor(
    message: string,
    readonly logs: string[] = [],
  ) {
    super(message);
  }
}

export class JavascriptTimeoutError extends Error {
  override name = "JavascriptTimeoutError";
}

export interface SandboxHostOptions {
  createWorker: SandboxWorkerFactory;
  /** Hard limit per run, after which the worker is terminated (counted from the sandbox's start). */
  timeoutMs: number;
  /** Sandboxes at once (default MAX_CONCURRENT_SANDBOXES); further runs wait for one to end. */
  maxConcurrent?: number;
}

export interface SandboxHost {
  run: (code: string, signal: AbortSignal) => Promise<SandboxOutcome>;
  /** How many workers were started so far (for the debugger and tests). */
  readonly workersStarted: number;
}

export function createSandboxHost(options: SandboxHostOptions): SandboxHost {
  let workersStarted = 0;
  const slots = createSandboxSlots(options.maxConcurrent ?? MAX_CONCURRENT_SANDBOXES);

  const run = async (code: string, signal: AbortSignal) => {
    // Stop and the tool's timeout end the wait too (the signal aborts): no sandbox is started.
    const release = await slots.acquire(signal);
    try {
      return await runInFreshSandbox(code, signal);
    } finally {
      // The sandbox is terminated by now (each way the run ends terminates it first).
      release();
    }
  };

  const runInFreshSandbox = (code: string, signal: AbortSignal) =>
    new Promise<SandboxOutcome>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      let worker: SandboxWorker;
      try {
        worker = options.createWorker();
        workersStarted++;
      } catch (error) {
        reject(new JavascriptError(`The JavaScript sandbox could not start: ${error instanceof Error ? error.message : String(error)}`));
        return;
      }
      let settled = false;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        worker.onmessage = null;
        worker.onerror = null;
        worker.terminate();
        settle();
      };
      const onAbort = () => finish(() => reject(signal.reason));
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new JavascriptTimeoutError(
                `The code ran longer than ${formatSeconds(options.timeoutMs)} and was stopped (an endless loop or a promise that never settles?). The sandbox was restarted; later calls work normally.`,
              ),
            ),
          ),
        options.timeoutMs,
      );
      signal.addEventListener("abort", onAbort, { once: true });
      worker.onmessage = ({ data }) =>
        finish(() => {
          if (data.ok) {
            const { ok: _ok, ...outcome } = data;
            resolve(outcome);
          } else {
            const printed = data.logs.length ? `\nIt printed before failing:\n${data.logs.join("\n")}` : "";
            reject(new JavascriptError(`${data.error.name}: ${data.error.message}${printed}`, data.logs));
          }
        });
      worker.onerror = (event) =>
        finish(() =>
          reject(new JavascriptError(event.crashed && event.message ? event.message : `The JavaScript sandbox failed: ${event.message || "the worker could not run"}`)),
        );
      worker.postMessage({ code });
    });

  return {
    run,
    get workersStarted() {
      return workersStarted;
    },
  };
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
