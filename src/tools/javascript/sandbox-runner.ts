// What runs inside the sandbox worker: shut the doors to the network, capture console output,
// run the user's code and turn its result into plain data. Kept apart from the worker entry so
// that Node tests can exercise it on a stand-in global object.
import type { SandboxResponse } from "./sandbox-protocol.ts";

export const NETWORK_DISABLED_MESSAGE = "Network access is disabled in run_javascript (the sandbox has no network).";

/** Globals that reach the network or other contexts of the app; replaced with throwing stubs. */
const BLOCKED_GLOBALS = [
  "fetch",
  "XMLHttpRequest",
  "WebSocket",
  "EventSource",
  "WebTransport",
  "importScripts",
  "Worker",
  "SharedWorker",
  "BroadcastChannel",
  "indexedDB",
  "caches",
] as const;

export const COMPILING_DISABLED_MESSAGE = "compiling code from strings is disabled in run_javascript; write the code directly.";

function blocked(name: string, message = NETWORK_DISABLED_MESSAGE): () => never {
  return function blockedGlobal() {
    throw new Error(`${name}: ${message}`);
  };
}

/**
 * Puts `value` in place of `name` on `scope` and on every prototype of it that defines the name:
 * in a worker `fetch`, `importScripts` or `postMessage` live on WorkerGlobalScope.prototype, and
 * `WorkerGlobalScope.prototype.fetch.call(self, …)` would otherwise get around an own property.
 * Non-writable and non-configurable, so user code cannot put the original back.
 */
export function replaceEverywhere(scope: object, name: string, value: unknown): void {
  for (let holder = Object.getPrototypeOf(scope) as object | null; holder && holder !== Object.prototype; holder = Object.getPrototypeOf(holder) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(holder, name);
    if (descriptor?.configurable) Object.defineProperty(holder, name, { value, writable: false, configurable: false, enumerable: false });
  }
  Object.defineProperty(scope, name, { value, writable: false, configurable: false, enumerable: false });
}

/** Replaces the network globals on `scope` (and its prototypes) with stubs that throw. */
export function lockDownNetwork(scope: object): void {
  for (const name of BLOCKED_GLOBALS) replaceEverywhere(scope, name, blocked(name));
}

/**
 * Closes the ways to compile code at run time (eval, the Function constructors reached through
 * any function, string timers), which could hide an `import(` from compileUserCode's check.
 * Changes this realm's intrinsics: call it only inside the worker.
 */
export function lockDownCompilers(scope: Record<string, unknown>): void {
  replaceEverywhere(scope, "eval", blocked("eval", COMPILING_DISABLED_MESSAGE));
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    const prototype = Object.getPrototypeOf(fn) as object;
    Object.defineProperty(prototype, "constructor", { value: blocked("Function constructor", COMPILING_DISABLED_MESSAGE), writable: false, configurable: false });
  }
  replaceEverywhere(scope, "Function", blocked("Function", COMPILING_DISABLED_MESSAGE));
  for (const timer of ["setTimeout", "setInterval"] as const) {
    const original = scope[timer] as ((handler: unknown, ...rest: unknown[]) => unknown) | undefined;
    if (typeof original !== "function") continue;
    replaceEverywhere(scope, timer, (handler: unknown, ...rest: unknown[]) => {
      if (typeof handler !== "function") throw new TypeError(`${timer} with a string of code is disabled in run_javascript`);
      return original.call(scope, handler, ...rest);
    });
  }
}

const MAX_LOG_ENTRIES = 200;
const MAX_LOG_CHARS = 20_000;

function formatLogValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === "function") return `[Function ${value.name || "anonymous"}]`;
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "symbol" || value === undefined) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Makes a returned value plain data that survives postMessage and JSON. */
export function toPlainResult(value: unknown): unknown {
  if (value === undefined) return undefined;
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (typeof value === "function" || typeof value === "bigint" || typeof value === "symbol" || value instanceof Error) {
    return formatLogValue(value);
  }
  if (value instanceof Map) return toPlainResult(Object.fromEntries(value));
  if (value instanceof Set) return toPlainResult([...value]);
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : (JSON.parse(json) as unknown);
  } catch {
    return String(value);
  }
}

export class ConsoleCapture {
  readonly logs: string[] = [];
  truncated = false;
  private chars = 0;

  record(level: string, args: unknown[]): void {
    if (this.truncated) return;
    const line = (level === "log" || level === "info" ? "" : `[${level}] `) + args.map(formatLogValue).join(" ");
    if (this.logs.length >= MAX_LOG_ENTRIES || this.chars + line.length > MAX_LOG_CHARS) {
      this.truncated = true;
      return;
    }
    this.chars += line.length;
    this.logs.push(line);
  }

  /** A console whose methods record here. */
  console(): Pick<Console, "log" | "info" | "warn" | "error" | "debug"> {
    const make = (level: string) => (...args: unknown[]) => this.record(level, args);
    return { log: make("log"), info: make("info"), warn: make("warn"), error: make("error"), debug: make("debug") };
  }
}

// Dynamic import() cannot be switched off as a global; it is refused by reading the code.
const DYNAMIC_IMPORT = /\bimport\s*(?:\/\*[\s\S]*?\*\/\s*)*\(/;

type AsyncFunctionConstructor = new (...args: string[]) => () => Promise<unknown>;

/**
 * Compiles the code without running it: a single expression is returned as is (await allowed),
 * otherwise it is run as the body of an async function whose `return` gives the result.
 * The AsyncFunction constructor must be captured before lockDown().
 */
export function compileUserCode(code: string, AsyncFunction: AsyncFunctionConstructor): () => Promise<unknown> {
  if (DYNAMIC_IMPORT.test(code)) throw new Error(`import(): ${NETWORK_DISABLED_MESSAGE}`);
  try {
    return new AsyncFunction(`return (\n${code}\n);`);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  return new AsyncFunction(code);
}

export function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: `The code threw a non-Error value: ${formatLogValue(error)}` };
}

/** Runs compiled user code, capturing its console, and builds the reply. */
export async function runCompiled(run: () => Promise<unknown>, capture: ConsoleCapture): Promise<SandboxResponse> {
  const truncation = () => (capture.truncated ? { logsTruncated: true } : {});
  try {
    const value: unknown = await run();
    const result = toPlainResult(value);
    return { ok: true, ...(result === undefined ? {} : { result }), logs: capture.logs, ...truncation() };
  } catch (error) {
    return { ok: false, error: describeError(error), logs: capture.logs, ...truncation() };
  }
}
