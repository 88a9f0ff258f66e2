// The messages between the page and the results file's reading worker (results-file.worker.ts).
import type { EvalResult } from "../eval/run-case.ts";

export interface ResultsFileRequest {
  file: Blob;
  /** Results per message back: taking in this many is a task of a few milliseconds. */
  resultsPerMessage: number;
}

export type ResultsFileReply = { type: "count"; count: number } | { type: "results"; results: EvalResult[] } | { type: "error"; message: string };
