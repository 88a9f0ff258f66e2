// Sends work to a worker one request at a time: while one runs, only the newest request waits
// (typing faster than the worker skips the states in between), and a reply is delivered only if
// no newer request was made. Whatever goes wrong — the input cannot be sent (too deep to clone,
// not cloneable), the worker fails — the caller gets a result saying so and the runner is free
// for the next request: it is never left marked busy. Without workers (tests), runs on the page.

export interface LatestOnlyRunnerOptions<Input, Result> {
  /** Makes the worker (once, and again after it failed). */
  createWorker: () => Worker;
  /** The work itself, for where there are no workers. */
  runHere: (input: Input) => Result;
  /** The result that says the work could not be done, and why. */
  failed: (message: string) => Result;
  onResult: (result: Result) => void;
}

export interface RunnerRequest<Input> {
  seq: number;
  input: Input;
}
export interface RunnerReply<Result> {
  seq: number;
  result: Result;
}

export class LatestOnlyRunner<Input, Result> {
  private worker: Worker | null = null;
  private seq = 0;
  private busy = false;
  private waiting: RunnerRequest<Input> | null = null;

  constructor(private readonly options: LatestOnlyRunnerOptions<Input, Result>) {}

  run(input: Input): void {
    this.seq += 1;
    const request = { seq: this.seq, input };
    if (typeof Worker === "undefined") {
      this.options.onResult(this.options.runHere(input));
      return;
    }
    if (this.busy) {
      this.waiting = request;
      return;
    }
    this.send(request);
  }

  /** Whether a request is with the worker now. */
  get running(): boolean {
    return this.busy;
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    this.busy = false;
    this.waiting = null;
  }

  private send(request: RunnerRequest<Input>): void {
    this.busy = true;
    try {
      this.ensureWorker().postMessage(request);
    } catch (error) {
      // The input could not be cloned for the worker (nested too deep, or not cloneable).
      this.busy = false;
      if (request.seq === this.seq) this.options.onResult(this.options.failed(`The input could not be handed to the worker: ${error instanceof Error ? error.message : String(error)}`));
      this.next();
    }
  }

  private next(): void {
    const next = this.waiting;
    this.waiting = null;
    if (next) this.send(next);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.options.createWorker();
    worker.onmessage = (event: MessageEvent<RunnerReply<Result>>) => {
      this.busy = false;
      if (event.data.seq === this.seq) this.options.onResult(event.data.result);
      this.next();
    };
    const fail = (message: string) => {
      this.busy = false;
      this.worker?.terminate();
      this.worker = null;
      this.options.onResult(this.options.failed(message));
      this.next();
    };
    worker.onerror = (event) => fail(`The worker failed: ${event.message || "script error"}`);
    worker.onmessageerror = () => fail("The worker's reply could not be read.");
    this.worker = worker;
    return worker;
  }
}
