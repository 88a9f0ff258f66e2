// What runs inside the sandbox worker: shut the doors to the network and to storage (a second
// layer: the frame's origin and CSP are the first), capture console output, run the user's code
// and turn its result into small plain data.
//
// Everything is one self-contained function because its source text *is* the worker's script:
// the sandbox frame has an opaque origin and no network, so it cannot load a script file — the
// page writes this function's text into the frame, which starts the worker from it as a blob.
// So `sandboxRuntime` must not refer to anything outside itself (a unit test runs its text in an
// empty context to hold that). Node tests call it directly.
import type { SandboxLimits, SandboxResponse } from "./sandbox-protocol.ts";

type AsyncFunctionConstructor = new (...args: string[]) => () => Promise<unknown>;

export function sandboxRuntime(limits: SandboxLimits) {
  const messages = {
    network: "Network access is disabled in run_javascript (the sandbox has no network).",
    storage: "Storage is disabled in run_javascript (the sandbox keeps nothing between calls).",
    compiling: "compiling code from strings is disabled in run_javascript; write the code directly.",
  };

  // Taken before the user's code runs, which could replace them.
  const stringify = JSON.stringify;
  const parse = JSON.parse;

  /** Globals that reach the network or other contexts; replaced with throwing stubs. */
  const blockedGlobals = [
    "fetch",
    "XMLHttpRequest",
    "WebSocket",
    "WebSocketStream",
    "EventSource",
    "WebTransport",
    "FontFace",
    "importScripts",
    "Worker",
    "SharedWorker",
    "BroadcastChannel",
  ];
  const blockedStorage = ["indexedDB", "caches"];

  function blocked(name: string, message: string): () => never {
    return function blockedGlobal() {
      throw new Error(`${name}: ${message}`);
    };
  }

  /**
   * Puts `descriptor` in place of `name` on `scope` and on every prototype of it that defines the
   * name: in a worker `fetch`, `importScripts` or `postMessage` live on WorkerGlobalScope.prototype,
   * and `WorkerGlobalScope.prototype.fetch.call(self, …)` would otherwise get around an own
   * property. Non-configurable, so user code cannot put the original back.
   */
  function sealEverywhere(scope: object, name: string, descriptor: PropertyDescriptor): void {
    const sealed = { ...descriptor, configurable: false, enumerable: false };
    for (let holder = Object.getPrototypeOf(scope) as object | null; holder && holder !== Object.prototype; holder = Object.getPrototypeOf(holder) as object | null) {
      if (Object.getOwnPropertyDescriptor(holder, name)?.configurable) Object.defineProperty(holder, name, sealed);
    }
    Object.defineProperty(scope, name, sealed);
  }

  function replaceEverywhere(scope: object, name: string, value: unknown): void {
    sealEverywhere(scope, name, { value, writable: false });
  }

  /** Replaces the network and storage globals on `scope` (and its prototypes) with stubs that throw. */
  function lockDownNetwork(scope: object): void {
    for (const name of blockedGlobals) replaceEverywhere(scope, name, blocked(name, messages.network));
    // Reading these throws at once, with a message that says why (a stub object would fail later
    // with "open is not a function").
    for (const name of blockedStorage) sealEverywhere(scope, name, { get: blocked(name, messages.storage) });
    const navigator = (scope as { navigator?: object }).navigator;
    // navigator.storage.getDirectory() is the origin private file system.
    if (navigator) sealEverywhere(navigator, "storage", { get: blocked("navigator.storage", messages.storage) });
  }

  /**
   * Closes the ways to compile code at run time (eval, the Function constructors reached through
   * any function, string timers), which could hide an `import(` from compileUserCode's check.
   * Changes this realm's intrinsics: call it only inside the worker.
   */
  function lockDownCompilers(scope: Record<string, unknown>): void {
    replaceEverywhere(scope, "eval", blocked("eval", messages.compiling));
    for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
      const prototype = Object.getPrototypeOf(fn) as object;
      Object.defineProperty(prototype, "constructor", { value: blocked("Function constructor", messages.compiling), writable: false, configurable: false });
    }
    replaceEverywhere(scope, "Function", blocked("Function", messages.compiling));
    for (const timer of ["setTimeout", "setInterval"]) {
      const original = scope[timer] as ((handler: unknown, ...rest: unknown[]) => unknown) | undefined;
      if (typeof original !== "function") continue;
      replaceEverywhere(scope, timer, (handler: unknown, ...rest: unknown[]) => {
        if (typeof handler !== "function") throw new TypeError(`${timer} with a string of code is disabled in run_javascript`);
        return original.call(scope, handler, ...rest);
      });
    }
  }

  /** Cuts `text` to `max` characters (never inside a surrogate pair) and says so at the end. */
  function cutText(text: string, max: number, what: string): string {
    if (text.length <= max) return text;
    const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
    return `${text.slice(0, end)}\n… [cut at ${end} characters: the ${what} had ${text.length}]`;
  }

  /** Anything as one line of text; never throws, even for a Proxy whose traps do. */
  function formatValue(value: unknown): string {
    try {
      if (typeof value === "string") return value;
      if (value instanceof Error) return `${String(value.name)}: ${String(value.message)}`;
      if (typeof value === "function") return `[Function ${String(value.name) || "anonymous"}]`;
      if (typeof value === "bigint") return `${value}n`;
      if (typeof value === "symbol" || value === undefined) return String(value);
      try {
        return stringify(value) ?? String(value);
      } catch {
        return String(value);
      }
    } catch {
      return "[a value that cannot be read: touching it throws]";
    }
  }

  /**
   * Makes a returned value plain data that survives postMessage and JSON, at most
   * maxResultChars long as JSON; a longer one becomes its cut JSON text with a note.
   */
  function toPlainResult(value: unknown): { result?: unknown; truncated?: true } {
    if (value === undefined) return {};
    const asText = (text: string) =>
      text.length > limits.maxResultChars ? { result: cutText(text, limits.maxResultChars, "result"), truncated: true as const } : { result: text };
    try {
      if (typeof value === "string") return asText(value);
      if (typeof value === "number" && !Number.isFinite(value)) return { result: String(value) };
      if (typeof value === "function" || typeof value === "bigint" || typeof value === "symbol" || value instanceof Error) return asText(formatValue(value));
      if (value instanceof Map) return toPlainResult(Object.fromEntries(value));
      if (value instanceof Set) return toPlainResult([...value]);
      let json: string | undefined;
      try {
        json = stringify(value);
      } catch {
        return asText(formatValue(value));
      }
      if (json === undefined) return asText(formatValue(value));
      if (json.length > limits.maxResultChars) return asText(json);
      return { result: parse(json) as unknown };
    } catch {
      return { result: formatValue(value) };
    }
  }

  class ConsoleCapture {
    readonly logs: string[] = [];
    truncated = false;
    private chars = 0;

    record(level: string, args: unknown[]): void {
      if (this.truncated) return;
      const line = (level === "log" || level === "info" ? "" : `[${level}] `) + args.map(formatValue).join(" ");
      const room = limits.maxLogChars - this.chars;
      if (this.logs.length >= limits.maxLogEntries || room <= 0) {
        this.truncated = true;
        return;
      }
      if (line.length > room) {
        this.truncated = true;
        this.logs.push(cutText(line, room, "line"));
        this.chars = limits.maxLogChars;
        return;
      }
      this.chars += line.length;
      this.logs.push(line);
    }

    /** A console whose methods record here. */
    console(): Pick<Console, "log" | "info" | "warn" | "error" | "debug"> {
      const make =
        (level: string) =>
        (...args: unknown[]) =>
          this.record(level, args);
      return { log: make("log"), info: make("info"), warn: make("warn"), error: make("error"), debug: make("debug") };
    }
  }

  // Dynamic import() cannot be switched off as a global; it is refused by reading the code.
  // Between `import` and `(` may stand spaces and any kind of comment: block, line, and the
  // HTML-like opening and closing comment markers, which are valid in scripts. (The `-{2}`
  // spelling keeps those markers out of this source, which is written into an HTML document.)
  const dynamicImport = /\bimport\s*(?:(?:\/\*[\s\S]*?\*\/|\/\/[^\n\r\u2028\u2029]*|<!-{2}[^\n\r\u2028\u2029]*|-{2}>[^\n\r\u2028\u2029]*)\s*)*\(/;

  /**
   * Compiles the code without running it: a single expression is returned as is (await allowed),
   * otherwise it is run as the body of an async function whose `return` gives the result.
   * The AsyncFunction constructor must be captured before lockDownCompilers().
   */
  function compileUserCode(code: string, AsyncFunction: AsyncFunctionConstructor): () => Promise<unknown> {
    if (dynamicImport.test(code)) throw new Error(`import(): ${messages.network}`);
    try {
      return new AsyncFunction(`return (\n${code}\n);`);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
    return new AsyncFunction(code);
  }

  /** What was thrown, as a short name and message; never throws. */
  function describeError(error: unknown): { name: string; message: string } {
    try {
      if (error instanceof Error) {
        const name = String(error.name);
        return { name, message: cutText(String(error.message), Math.max(0, limits.maxErrorChars - name.length), "message") };
      }
    } catch {
      // A Proxy or an object whose getters throw: described below.
    }
    return { name: "Error", message: cutText(`The code threw a non-Error value: ${formatValue(error)}`, limits.maxErrorChars, "message") };
  }

  /** Runs compiled user code, capturing its console, and builds the reply. */
  async function runCompiled(run: () => Promise<unknown>, capture: ConsoleCapture): Promise<SandboxResponse> {
    const logsTruncated = () => (capture.truncated ? { logsTruncated: true } : {});
    let value: unknown;
    try {
      value = await run();
    } catch (error) {
      return { ok: false, error: describeError(error), logs: capture.logs, ...logsTruncated() };
    }
    const { result, truncated } = toPlainResult(value);
    return { ok: true, ...(result === undefined ? {} : { result }), logs: capture.logs, ...logsTruncated(), ...(truncated ? { resultTruncated: true } : {}) };
  }

  /** Turns the worker's global scope into the sandbox and answers its one request. */
  function installInWorker(scope: Record<string, unknown> & { postMessage: (message: unknown) => void; onmessage: unknown }): void {
    // Captured before the lockdown, which takes these away from the user's code.
    const reply = scope.postMessage.bind(scope);
    const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as AsyncFunctionConstructor;
    const capture = new ConsoleCapture();
    Object.defineProperty(scope, "console", { value: capture.console(), writable: false, configurable: false });
    lockDownNetwork(scope);
    lockDownCompilers(scope);
    // The user's code must not forge the reply.
    replaceEverywhere(scope, "postMessage", () => undefined);

    const answer = async (code: unknown): Promise<SandboxResponse> => {
      try {
        return await runCompiled(compileUserCode(String(code), AsyncFunction), capture);
      } catch (error) {
        return { ok: false, error: describeError(error), logs: capture.logs };
      }
    };
    scope.onmessage = (event: { data?: { code?: unknown } }) => {
      void answer(event.data?.code).then((response) => {
        try {
          reply(response);
        } catch (error) {
          reply({ ok: false, error: { name: "Error", message: `The sandbox could not send back the outcome: ${describeError(error).message}` }, logs: [] });
        }
      });
    };
  }

  return {
    messages,
    lockDownNetwork,
    lockDownCompilers,
    replaceEverywhere,
    toPlainResult,
    ConsoleCapture,
    compileUserCode,
    describeError,
    runCompiled,
    installInWorker,
  };
}

export type SandboxRuntime = ReturnType<typeof sandboxRuntime>;

/** The sandbox worker's whole script: the runtime's own source, started on the worker's scope. */
export function sandboxWorkerScript(limits: SandboxLimits): string {
  return `(${sandboxRuntime.toString()})(${JSON.stringify(limits)}).installInWorker(self);\n`;
}
