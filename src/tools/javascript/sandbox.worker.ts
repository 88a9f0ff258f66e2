// The run_javascript sandbox: a dedicated worker (no DOM) that runs one piece of code per
// worker. The page terminates it when the code takes too long or the turn is aborted.
import type { SandboxRequest, SandboxResponse } from "./sandbox-protocol.ts";
import { compileUserCode, ConsoleCapture, describeError, lockDownCompilers, lockDownNetwork, replaceEverywhere, runCompiled } from "./sandbox-runner.ts";

const scope = self as unknown as Record<string, unknown> & DedicatedWorkerGlobalScope;
// Captured before lockDown, which takes these away from the user's code.
const reply = scope.postMessage.bind(scope) as (message: SandboxResponse) => void;
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (...args: string[]) => () => Promise<unknown>;

const capture = new ConsoleCapture();
Object.defineProperty(scope, "console", { value: capture.console(), writable: false, configurable: false });
lockDownNetwork(scope);
lockDownCompilers(scope);
// The user's code must not forge the reply.
replaceEverywhere(scope, "postMessage", () => undefined);

scope.onmessage = async (event: MessageEvent<SandboxRequest>) => {
  let run: () => Promise<unknown>;
  try {
    run = compileUserCode(event.data.code, AsyncFunction);
  } catch (error) {
    reply({ ok: false, error: describeError(error), logs: [] });
    return;
  }
  reply(await runCompiled(run, capture));
};
