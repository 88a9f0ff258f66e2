// Sends the playground's parses to its worker, the newest request only (latest-only-runner.ts).
// Without workers (tests), parses on the page.
import type { PlaygroundInput, PlaygroundResult } from "../../experiments/playground-parse.ts";
import { runPlaygroundInput } from "./playground-with-template.ts";
import { LatestOnlyRunner } from "../workers/latest-only-runner.ts";

/** What the playground shows when a parse could not run (the worker failed, or the input was refused). */
export function failedPlaygroundResult(message: string): PlaygroundResult {
  return {
    protocol: "",
    events: [],
    eventCount: 0,
    result: { text: "", reasoning: "", calls: [], errors: [], repairs: [] },
    chunkCount: 0,
    agrees: false,
    error: message,
    ms: 0,
  };
}

export class PlaygroundRunner {
  private readonly runner: LatestOnlyRunner<PlaygroundInput, PlaygroundResult>;

  constructor(onResult: (result: PlaygroundResult) => void) {
    this.runner = new LatestOnlyRunner({
      createWorker: () => new Worker(new URL("./playground.worker.ts", import.meta.url), { type: "module", name: "parser playground" }),
      runHere: runPlaygroundInput,
      failed: failedPlaygroundResult,
      onResult,
    });
  }

  parse(input: PlaygroundInput): void {
    this.runner.run(input);
  }

  dispose(): void {
    this.runner.dispose();
  }
}
