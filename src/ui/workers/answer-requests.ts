// The worker side of latest-only-runner.ts: each request answered with its result; work that
// throws (a stack overflow on input nested too deep) or a result that cannot be sent back is
// answered with a result saying so, so the page always hears back.
import type { RunnerReply, RunnerRequest } from "./latest-only-runner.ts";

export function answerRequests<Input, Result>(work: (input: Input) => Result, failed: (message: string) => Result): void {
  const scope = self as unknown as DedicatedWorkerGlobalScope;
  scope.onmessage = (event: MessageEvent<RunnerRequest<Input>>) => {
    const { seq, input } = event.data;
    let result: Result;
    try {
      result = work(input);
    } catch (error) {
      result = failed(`The work failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      scope.postMessage({ seq, result } satisfies RunnerReply<Result>);
    } catch (error) {
      scope.postMessage({ seq, result: failed(`The result could not be sent back: ${error instanceof Error ? error.message : String(error)}`) } satisfies RunnerReply<Result>);
    }
  };
}
