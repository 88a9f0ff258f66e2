// Parses the playground's output off the page's thread: a pasted megabyte streamed one character
// at a time takes a parser hundreds of milliseconds, which on the page would freeze typing.
import { runPlayground, type PlaygroundInput, type PlaygroundResult } from "../../experiments/playground-parse.ts";

export interface PlaygroundRequest {
  seq: number;
  input: PlaygroundInput;
}
export interface PlaygroundReply {
  seq: number;
  result: PlaygroundResult;
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (event: MessageEvent<PlaygroundRequest>) => {
  const { seq, input } = event.data;
  scope.postMessage({ seq, result: runPlayground(input) } satisfies PlaygroundReply);
};
