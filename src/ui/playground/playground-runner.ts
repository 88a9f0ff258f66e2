// Sends the playground's parses to its worker, one at a time: while one runs, only the newest
// request waits (typing faster than the parser skips the states in between), and a reply is
// delivered only if no newer request was made. Without workers (tests), parses on the page.
import { runPlayground, type PlaygroundInput, type PlaygroundResult } from "../../experiments/playground-parse.ts";
import type { PlaygroundReply, PlaygroundRequest } from "./playground.worker.ts";

export class PlaygroundRunner {
  private worker: Worker | null = null;
  private seq = 0;
  private busy = false;
  private waiting: PlaygroundRequest | null = null;

  constructor(private readonly onResult: (result: PlaygroundResult) => void) {}

  parse(input: PlaygroundInput): void {
    this.seq += 1;
    const request = { seq: this.seq, input };
    if (typeof Worker === "undefined") {
      this.onResult(runPlayground(input));
      return;
    }
    if (this.busy) {
      this.waiting = request;
      return;
    }
    this.send(request);
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  private send(request: PlaygroundRequest): void {
    this.busy = true;
    this.ensureWorker().postMessage(request);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL("./playground.worker.ts", import.meta.url), { type: "module", name: "parser playground" });
    worker.onmessage = (event: MessageEvent<PlaygroundReply>) => {
      this.busy = false;
      if (event.data.seq === this.seq) this.onResult(event.data.result);
      const next = this.waiting;
      this.waiting = null;
      if (next) this.send(next);
    };
    worker.onerror = (event) => {
      this.busy = false;
      this.worker?.terminate();
      this.worker = null;
      const failed: PlaygroundResult = {
        protocol: "",
        events: [],
        eventCount: 0,
        result: { text: "", reasoning: "", calls: [], errors: [], repairs: [] },
        chunkCount: 0,
        agrees: false,
        error: `The parsing worker failed: ${event.message || "script error"}`,
        ms: 0,
      };
      this.onResult(failed);
    };
    this.worker = worker;
    return worker;
  }
}
