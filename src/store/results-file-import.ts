// Reads an Evaluate results file in a worker where the page has workers (results-file.worker.ts),
// else on the page a slice at a time; either way the page stays free to answer clicks while a
// file of up to 32 MB is parsed and checked. `signal` ends the reading (the worker is ended).
import { readResultsFileInSlices } from "../eval/results-file.ts";
import type { EvalResult } from "../eval/run-case.ts";
import { categoryOf } from "../eval/suite.ts";
import type { ResultsFileReply, ResultsFileRequest } from "./results-file-protocol.ts";
import { createYieldPoint } from "./yield-to-page.ts";

/** Results per message from the worker (a result may carry a case log of thousands of records). */
const RESULTS_PER_MESSAGE = 20;

export class ReadingStopped extends Error {
  constructor() {
    super("Stopped reading the file.");
    this.name = "ReadingStopped";
  }
}

export async function readResultsBlob(file: Blob, signal?: AbortSignal): Promise<EvalResult[]> {
  if (typeof Worker === "undefined") return readResultsFileInSlices(await file.text(), categoryOf, createYieldPoint(16));
  const worker = new Worker(new URL("./results-file.worker.ts", import.meta.url), { type: "module", name: "results file" });
  try {
    return await new Promise<EvalResult[]>((resolve, reject) => {
      if (signal?.aborted) reject(new ReadingStopped());
      signal?.addEventListener("abort", () => reject(new ReadingStopped()), { once: true });
      let expected: number | null = null;
      const results: EvalResult[] = [];
      const finish = () => {
        if (expected !== null && results.length >= expected) resolve(results);
      };
      worker.onmessage = (event: MessageEvent<ResultsFileReply>) => {
        const message = event.data;
        if (message.type === "error") reject(new Error(message.message));
        else if (message.type === "count") {
          expected = message.count;
          finish();
        } else {
          for (const result of message.results) results.push(result);
          finish();
        }
      };
      worker.onerror = (event) => reject(new Error(`the file could not be read: ${event.message || "the reading worker failed"}`));
      worker.postMessage({ file, resultsPerMessage: RESULTS_PER_MESSAGE } satisfies ResultsFileRequest);
    });
  } finally {
    worker.terminate();
  }
}
