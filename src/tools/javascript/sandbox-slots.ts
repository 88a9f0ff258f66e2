// At most N JavaScript sandboxes at once. Each run_javascript call gets a fresh sandbox (a frame
// with its own process and worker), and starting hundreds at once stalls the page for seconds;
// so a call first takes a slot, waiting in line when all are taken. A call stopped (or timed out)
// while waiting leaves the line at once and never starts a sandbox.

/** Sandboxes that may run at once: enough for parallel calls, few enough for a laptop's cores. */
export const MAX_CONCURRENT_SANDBOXES = 4;

export interface SandboxSlots {
  /** Resolves with the slot's release once one is free; rejects with the signal's reason if it aborts first. */
  acquire: (signal: AbortSignal) => Promise<() => void>;
  /** Slots taken now. */
  readonly inUse: number;
  /** Calls waiting for a slot now. */
  readonly waiting: number;
}

interface Waiter {
  grant: () => void;
  signal: AbortSignal;
  onAbort: () => void;
}

export function createSandboxSlots(limit: number = MAX_CONCURRENT_SANDBOXES): SandboxSlots {
  const size = Math.max(1, Math.floor(limit));
  let inUse = 0;
  const line: Waiter[] = [];

  const releaser = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inUse--;
      const next = line.shift();
      if (next) {
        next.signal.removeEventListener("abort", next.onAbort);
        inUse++;
        next.grant();
      }
    };
  };

  return {
    acquire: (signal) =>
      new Promise((resolve, reject) => {
        if (signal.aborted) {
          reject(signal.reason);
          return;
        }
        if (inUse < size) {
          inUse++;
          resolve(releaser());
          return;
        }
        const waiter: Waiter = {
          grant: () => resolve(releaser()),
          signal,
          onAbort: () => {
            const at = line.indexOf(waiter);
            if (at >= 0) line.splice(at, 1);
            reject(signal.reason);
          },
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
        line.push(waiter);
      }),
    get inUse() {
      return inUse;
    },
    get waiting() {
      return line.length;
    },
  };
}
