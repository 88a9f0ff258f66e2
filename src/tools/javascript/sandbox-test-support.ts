// Test support: runs user code the way the sandbox worker does, inside this process. Only for
// Node unit tests (no endless loops: they would block the test process).
import { SANDBOX_LIMITS, type SandboxLimits, type SandboxResponse } from "./sandbox-protocol.ts";
import { sandboxRuntime } from "./sandbox-runtime.ts";

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

export async function runInProcess(code: string, limits: SandboxLimits = SANDBOX_LIMITS): Promise<SandboxResponse> {
  const runtime = sandboxRuntime(limits);
  const capture = new runtime.ConsoleCapture();
  let run: () => Promise<unknown>;
  try {
    run = runtime.compileUserCode(code, AsyncFunctionWithConsole);
  } catch (error) {
    return { ok: false, error: runtime.describeError(error), logs: [] };
  }
  return runtime.runCompiled(() => run.call(capture.console()), capture);
}
