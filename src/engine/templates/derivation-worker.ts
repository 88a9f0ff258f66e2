// The page's template derivations, in one worker kept between them and warmed ahead of need. The
// first derivation in a fresh worker runs @huggingface/jinja's interpreter cold (121.6 ms for
// Apertus against a warm 36.9 ms, bench:derive-protocol), so the callers ask for a warm-up where
// the person is not waiting yet (a GGUF's load has started, the restore of a remembered template)
// and the derivation the person waits for runs warm.
//
// Safety: a template runs only in the bounded renderer, in the worker, and the derivation keeps no
// state between calls (no module-level state in the renderer or the analysis), so an answered
// "cannot derive" — a template that writes no calls, breaks a bound, is not Jinja — leaves the
// worker as it was and it is kept: the page's default SmolLM2 has such a template, and ending the
// worker on it made the person's next derivation run cold. A worker that errors (out of memory, a
// message it cannot send) ends, and the next request gets a fresh one. Requests go to the worker
// one at a time, in the order asked (an id each), so one that ends the worker never takes another
// with it.
import type { FormatDerivation } from "./derive-off-thread.ts";

/** A derivation, with how long it took in the worker (performance.now around the derive call). */
export type TimedDerivation = FormatDerivation & { ms: number };

export type DerivationWorkerRequest = { id: number; kind: "derive"; source: string; name: string } | { id: number; kind: "warm-up" };
export interface DerivationWorkerReply {
  id: number;
  derivation: FormatDerivation;
  ms: number;
}

/** What the object needs of a Worker (a fake in tests). */
export type DerivationWorkerPort = Pick<Worker, "postMessage" | "terminate"> & {
  onmessage: ((event: MessageEvent<DerivationWorkerReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  onmessageerror: ((event: MessageEvent) => void) | null;
};

interface Pending {
  request: DerivationWorkerRequest;
  resolve: (derivation: TimedDerivation) => void;
}

const pageWorker = (): DerivationWorkerPort => new Worker(new URL("./derive-format.worker.ts", import.meta.url), { type: "module", name: "template derivation" });

export class DerivationWorker {
  private worker: DerivationWorkerPort | null = null;
  /** Whether the current worker has derived once (a warm-up or a derivation) and is kept. */
  private warm = false;
  private warming: Promise<TimedDerivation> | null = null;
  private nextId = 1;
  private readonly queue: Pending[] = [];
  private inFlight: Pending | null = null;
  /** The last derivation asked for by derive() (not a warm-up): its time in the worker, for the benchmark. */
  lastDerivationMs: number | undefined;

  /**
   * `createWorker`: null where the page has no workers (Node, tests): derivations then run on this
   * thread, through the same bounded renderer.
   */
  constructor(private readonly createWorker: (() => DerivationWorkerPort) | null = typeof Worker === "undefined" ? null : pageWorker) {}

  /** Starts the worker, if none runs, and has it derive a built-in template, so the next derivation runs warm. Resolves when warm. */
  warmUp(): Promise<void> {
    if (!this.createWorker || this.warm) return Promise.resolve();
    if (!this.warming) {
      this.warming = this.enqueue({ id: this.nextId++, kind: "warm-up" });
      const done = this.warming;
      void done.then(() => {
        if (this.warming === done) this.warming = null;
      });
    }
    return this.warming.then(() => undefined);
  }

  /** The call format of `source` derived in the worker, or why not ("cannot derive: …"). */
  async derive(source: string, name: string): Promise<TimedDerivation> {
    let result: TimedDerivation;
    if (!this.createWorker) {
      const { deriveFromTemplate } = await import("./derived-from-template.ts");
      const started = performance.now();
      const derivation = deriveFromTemplate(source, name);
      const ms = performance.now() - started;
      result = derivation.ok ? { ok: true, format: derivation.format, ms } : { ok: false, reason: derivation.reason, ms };
    } else {
      result = await this.enqueue({ id: this.nextId++, kind: "derive", source, name });
    }
    this.lastDerivationMs = result.ms;
    return result;
  }

  /** Ends the worker; requests still waiting are answered "cannot derive". */
  dispose(): void {
    const waiting = [...(this.inFlight ? [this.inFlight] : []), ...this.queue.splice(0)];
    this.inFlight = null;
    this.endWorker();
    for (const pending of waiting) pending.resolve({ ok: false, reason: "cannot derive: the derivation was stopped", ms: 0 });
  }

  private enqueue(request: DerivationWorkerRequest): Promise<TimedDerivation> {
    return new Promise((resolve) => {
      this.queue.push({ request, resolve });
      this.sendNext();
    });
  }

  private sendNext(): void {
    if (this.inFlight) return;
    const pending = this.queue.shift();
    if (!pending) return;
    this.inFlight = pending;
    try {
      this.ensureWorker().postMessage(pending.request);
    } catch (error) {
      this.answer(pending.request.id, { ok: false, reason: `cannot derive: the template could not be handed to the worker (${error instanceof Error ? error.message : String(error)})` }, 0);
    }
  }

  private ensureWorker(): DerivationWorkerPort {
    if (this.worker) return this.worker;
    const worker = this.createWorker!();
    worker.onmessage = (event) => {
      if (this.worker !== worker) return;
      this.answer(event.data.id, event.data.derivation, event.data.ms);
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      if (this.worker === worker) this.fail(`cannot derive: the derivation's worker failed (${event.message || "script error"})`);
    };
    worker.onmessageerror = () => {
      if (this.worker === worker) this.fail("cannot derive: the derivation's worker sent a message the page could not read");
    };
    this.worker = worker;
    this.warm = false;
    return worker;
  }

  /** Answers the request in flight (the worker is kept: a "cannot derive" is an answer, not a failure); then the next request goes. */
  private answer(id: number | undefined, derivation: FormatDerivation, ms: number): void {
    const pending = this.inFlight;
    if (!pending || pending.request.id !== id) return;
    this.inFlight = null;
    if (derivation.ok) this.warm = true;
    pending.resolve({ ...derivation, ms });
    this.sendNext();
  }

  /** The worker failed: it ends, whether or not a request was with it, and that request is answered with why. */
  private fail(reason: string): void {
    const pending = this.inFlight;
    this.endWorker();
    if (pending) this.answer(pending.request.id, { ok: false, reason }, 0);
  }

  private endWorker(): void {
    this.worker?.terminate();
    this.worker = null;
    this.warm = false;
  }
}
