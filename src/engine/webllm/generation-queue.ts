// One generation at a time per engine. WebLLM's interruptGenerate is global to its engine: a
// stop meant for one request would cut whichever request is running. So the lab's engine lets
// one generation into WebLLM at a time (parallel sub-agents take turns), and only the running
// one ever sends an interrupt. A generation stopped before WebLLM has finished with it (a stop
// during prefill) holds its turn until WebLLM is done, so the next waits for the GPU — and the
// queue says so while it waits.

export interface QueueState {
  /** Generations waiting for their turn. */
  waiting: number;
  /** The turn is held by a stopped generation that WebLLM is still finishing (e.g. its prefill). */
  draining: boolean;
}

export class GenerationQueue {
  private tail: Promise<void> = Promise.resolve();
  private waitingCount = 0;
  private drainingCount = 0;

  constructor(private readonly onChange?: (state: QueueState) => void) {}

  get state(): QueueState {
    return { waiting: this.waitingCount, draining: this.drainingCount > 0 };
  }

  /**
   * Waits for this generation's turn. Resolves with the function that gives the turn back, or
   * with null when `signal` aborted first (the turn is then given back as soon as it comes).
   */
  async enter(signal: AbortSignal): Promise<Turn | null> {
    const previous = this.tail;
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.tail = previous.then(() => mine);
    this.waitingCount++;
    this.changed();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<"aborted">((resolve) => {
      onAbort = () => resolve("aborted");
      if (signal.aborted) resolve("aborted");
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    const outcome = await Promise.race([previous.then(() => "turn" as const), aborted]);
    if (onAbort) signal.removeEventListener("abort", onAbort);
    this.waitingCount--;
    this.changed();
    if (outcome === "aborted") {
      void previous.then(release);
      return null;
    }
    return new Turn(release, this);
  }

  /** For Turn: a stopped generation keeps its turn while WebLLM finishes it. */
  markDraining(delta: 1 | -1): void {
    this.drainingCount += delta;
    this.changed();
  }

  private changed(): void {
    this.onChange?.(this.state);
  }
}

export class Turn {
  private done = false;
  constructor(
    private readonly release: () => void,
    private readonly queue: GenerationQueue,
  ) {}

  /** Gives the turn back now. */
  leave(): void {
    if (this.done) return;
    this.done = true;
    this.release();
  }

  /** Gives the turn back once `finishing` settles (a stopped generation WebLLM still runs). */
  leaveAfter(finishing: Promise<unknown>): void {
    if (this.done) return;
    this.done = true;
    this.queue.markDraining(1);
    void finishing
      .catch(() => undefined)
      .then(() => {
        this.queue.markDraining(-1);
        this.release();
      });
  }
}
