// Reads an Evaluate results file off the page's thread: the JSON.parse of a file near the cap
// (32 MB) is one task of seconds, and checking every result with its case log is more. The
// results come back a few at a time, each batch a message of its own, so taking them in is small
// tasks too (one message of 32 MB would be cloned into the page in one task).
import { readResultsFile, resultsFileTooLarge } from "../eval/results-file.ts";
import { categoryOf } from "../eval/suite.ts";
import type { ResultsFileReply, ResultsFileRequest } from "./results-file-protocol.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const reply = (message: ResultsFileReply) => scope.postMessage(message);

scope.onmessage = async (event: MessageEvent<ResultsFileRequest>) => {
  try {
    const { file, resultsPerMessage } = event.data;
    const tooLarge = resultsFileTooLarge(file.size);
    if (tooLarge) throw new Error(tooLarge);
    const results = readResultsFile(await file.text(), categoryOf);
    reply({ type: "count", count: results.length });
    for (let at = 0; at < results.length; at += resultsPerMessage) reply({ type: "results", results: results.slice(at, at + resultsPerMessage) });
  } catch (error) {
    reply({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
};
