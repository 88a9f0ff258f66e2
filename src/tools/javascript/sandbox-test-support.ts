// Test support: runs user code the way the sandbox worker does, inside this process. Only for
// Node unit tests (no endless loops: they would block the test process).
import type { SandboxResponse } from "./sandbox-protocol.ts";
import { compileUserCode, ConsoleCapture, describeError, runCompiled } from "./sandbox-runner.ts";

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (...args: string[]) => () => Promise<unknown>;

/**
 * The worker replaces the global console; in process the compiled code instead gets a local
 * `console` bound to the capture (through `this`), so the test process's console is untouched.
 */
class AsyncFunctionWithConsole extends AsyncFunction {
  constructor(...args: string[]) {
    const body = args.pop() as string;
    super(...args, `const console = this;\n${body}`);
  }
}

export async function runInProcess(code: string): Promise<SandboxResponse> {
  const capture = new ConsoleCapture();
  let run: () => Promise<unknown>;
  try {
    run = compileUserCode(code, AsyncFunctionWithConsole);
  } catch (error) {
    return { ok: false, error: describeError(error), logs: [] };
  }
  return runCompiled(() => run.call(capture.console()), capture);
}
