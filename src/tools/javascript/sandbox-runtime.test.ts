import { runInContext, createContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { SANDBOX_LIMITS } from "./sandbox-protocol.ts";
import { sandboxRuntime, sandboxWorkerScript } from "./sandbox-runtime.ts";
import { runInProcess } from "./sandbox-test-support.ts";

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (...args: string[]) => () => Promise<unknown>;
const runtime = sandboxRuntime(SANDBOX_LIMITS);
const { compileUserCode, lockDownNetwork, toPlainResult, messages } = runtime;

describe("compileUserCode + runCompiled", () => {
  it("returns a single expression's value", async () => {
    await expect(runInProcess("1 + 2")).resolves.toEqual({ ok: true, result: 3, logs: [] });
    await expect(runInProcess("[1, 2, 3].map((x) => x * 2)")).resolves.toMatchObject({ result: [2, 4, 6] });
  });

  it("runs statements and returns what `return` gives", async () => {
    await expect(runInProcess("const a = 6;\nconst b = 7;\nreturn a * b;")).resolves.toMatchObject({ ok: true, result: 42 });
  });

  it("awaits promises, also at the top level", async () => {
    await expect(runInProcess("await new Promise((r) => setTimeout(() => r('late'), 1))")).resolves.toMatchObject({ result: "late" });
    await expect(runInProcess("const v = await Promise.resolve(5); return v + 1;")).resolves.toMatchObject({ result: 6 });
  });

  it("captures console output in order, marking warnings and errors", async () => {
    const reply = await runInProcess("console.log('a', 1, {x: 2}); console.warn('careful'); console.error(new Error('bad')); return 'done';");
    expect(reply).toEqual({ ok: true, result: "done", logs: ['a 1 {"x":2}', "[warn] careful", "[error] Error: bad"] });
  });

  it("omits the result when the code returns nothing", async () => {
    const reply = await runInProcess("let x = 1; x++;");
    expect(reply).toEqual({ ok: true, logs: [] });
  });

  it("reports thrown errors with what was printed before", async () => {
    await expect(runInProcess("console.log('step 1'); throw new RangeError('out of range');")).resolves.toEqual({
      ok: false,
      error: { name: "RangeError", message: "out of range" },
      logs: ["step 1"],
    });
    await expect(runInProcess("throw 'plain string'")).resolves.toMatchObject({ ok: false, error: { message: /non-Error value: plain string/ } });
  });

  it("reports a thrown Proxy whose every trap throws as an error, instead of never answering", async () => {
    const code = "const trap = () => { throw new Error('trap'); };\nthrow new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });";
    const reply = await runInProcess(code);
    expect(reply).toMatchObject({ ok: false, error: { name: "Error", message: /non-Error value: \[a value that cannot be read/ } });
  });

  it("describes a printed Proxy whose traps throw, and reports returning one (its `then` trap throws) as an error", async () => {
    const code = "const trap = () => { throw new Error('trap'); };\nconst p = new Proxy({}, { get: trap, getPrototypeOf: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });\nconsole.log(p);\nreturn p;";
    const reply = await runInProcess(code);
    expect(reply).toEqual({ ok: false, error: { name: "Error", message: "trap" }, logs: ["[a value that cannot be read: touching it throws]"] });
  });

  it("runs the code once even when it throws a SyntaxError at run time", async () => {
    const reply = await runInProcess("console.log('ran'); JSON.parse('{bad');");
    expect(reply).toMatchObject({ ok: false, error: { name: "SyntaxError" }, logs: ["ran"] });
  });

  it("refuses code that does not compile, without running any of it", () => {
    expect(() => compileUserCode("let = ;", AsyncFunction)).toThrow(SyntaxError);
  });

  it("refuses dynamic import(), however it is spaced or commented", () => {
    expect(() => compileUserCode("await import('https://example.com/x.js')", AsyncFunction)).toThrow(messages.network);
    for (const code of [
      "import /* hi */ ('x')",
      'return (await import //x\n("http://127.0.0.1:4555/mod.js")).x',
      "return (await import <!-- x\n('x')).x",
      "return (await import\n--> x\n('x')).x",
      "import /* a */ // b\n /* c */ ('x')",
    ]) {
      expect(() => compileUserCode(code, AsyncFunction), code).toThrow(/import\(\)/);
    }
  });

  it("cuts very long console output and says so", async () => {
    const reply = await runInProcess("for (let i = 0; i < 1000; i++) console.log('line', i); return 1;");
    expect(reply).toMatchObject({ ok: true, result: 1, logsTruncated: true });
    expect(reply.logs.length).toBe(200);
  });

  it("cuts one huge log line to what fits, with a note", async () => {
    const reply = await runInProcess("console.log('y'.repeat(1e6)); return 1;");
    expect(reply).toMatchObject({ ok: true, logsTruncated: true });
    expect(reply.logs).toHaveLength(1);
    expect(reply.logs[0]!.length).toBeLessThan(SANDBOX_LIMITS.maxLogChars + 100);
    expect(reply.logs[0]).toMatch(/\[cut at 20000 characters: the line had 1000000\]$/);
  });

  it("cuts a huge returned string or object to the result limit, with a note", async () => {
    const text = await runInProcess('return "x".repeat(10e6)');
    expect(text).toMatchObject({ ok: true, resultTruncated: true });
    const result = (text as { result: string }).result;
    expect(result.length).toBeLessThan(SANDBOX_LIMITS.maxResultChars + 100);
    expect(result).toMatch(/^x{10000}\n… \[cut at 10000 characters: the result had 10000000\]$/);

    const object = await runInProcess("return Array.from({ length: 1e5 }, (_, i) => ({ i }))");
    expect(object).toMatchObject({ ok: true, resultTruncated: true, result: expect.stringMatching(/^\[\{"i":0\},\{"i":1\}.*\[cut at 10000 characters/s) });
  });

  it("keeps a result under the limit whole", async () => {
    await expect(runInProcess(`return "x".repeat(${SANDBOX_LIMITS.maxResultChars})`)).resolves.toEqual({ ok: true, result: "x".repeat(SANDBOX_LIMITS.maxResultChars), logs: [] });
  });

  it("cuts a huge error message", async () => {
    const reply = await runInProcess("throw new Error('e'.repeat(1e6))");
    expect(reply).toMatchObject({ ok: false, error: { name: "Error", message: expect.stringMatching(/\[cut at \d+ characters: the message had 1000000\]$/) } });
    expect(JSON.stringify(reply).length).toBeLessThan(SANDBOX_LIMITS.maxErrorChars + 200);
  });
});

describe("toPlainResult", () => {
  it("turns values that JSON or postMessage cannot carry into readable text", () => {
    expect(toPlainResult(NaN)).toEqual({ result: "NaN" });
    expect(toPlainResult(10n)).toEqual({ result: "10n" });
    expect(toPlainResult(function named() {})).toEqual({ result: "[Function named]" });
    expect(toPlainResult(new Map([["a", 1]]))).toEqual({ result: { a: 1 } });
    expect(toPlainResult(new Set([1, 2]))).toEqual({ result: [1, 2] });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toPlainResult(cyclic)).toEqual({ result: "[object Object]" });
    expect(toPlainResult({ d: new Date(0) })).toEqual({ result: { d: "1970-01-01T00:00:00.000Z" } });
    expect(toPlainResult(undefined)).toEqual({});
  });
});

describe("lockDownNetwork", () => {
  it("replaces network and storage globals with stubs that throw and cannot be restored", () => {
    const scope: Record<string, unknown> = { fetch: () => "network!", XMLHttpRequest: class {}, setTimeout };
    lockDownNetwork(scope);
    for (const name of ["fetch", "XMLHttpRequest", "WebSocket", "WebSocketStream", "EventSource", "FontFace", "importScripts"]) {
      expect(() => (scope[name] as () => unknown)(), name).toThrow(messages.network);
    }
    for (const name of ["indexedDB", "caches"]) expect(() => scope[name], name).toThrow(messages.storage);
    expect(() => {
      "use strict";
      scope.fetch = () => "restored";
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(scope, "fetch", { value: () => "restored" })).toThrow(TypeError);
  });

  it("also replaces them on the scope's prototypes, where a worker keeps fetch and importScripts", () => {
    class GlobalScopeLike {}
    Object.defineProperty(GlobalScopeLike.prototype, "fetch", { value: () => "network!", configurable: true, writable: true });
    const scope = new GlobalScopeLike() as { fetch: () => unknown };
    lockDownNetwork(scope);
    const viaPrototype = (GlobalScopeLike.prototype as { fetch: () => unknown }).fetch;
    expect(() => viaPrototype.call(scope)).toThrow(messages.network);
    expect(() => scope.fetch()).toThrow(messages.network);
  });

  it("takes navigator.storage (the origin private file system) away, also from the navigator's prototype", () => {
    class NavigatorLike {
      get storage() {
        return { getDirectory: () => "the origin's files" };
      }
    }
    const navigator = new NavigatorLike();
    lockDownNetwork({ navigator });
    expect(() => navigator.storage).toThrow(messages.storage);
    const getter = Object.getOwnPropertyDescriptor(NavigatorLike.prototype, "storage")?.get;
    expect(() => getter?.call(navigator)).toThrow(messages.storage);
  });
});

describe("sandboxWorkerScript", () => {
  it("is self-contained: it runs in an empty context, locks it down and answers one request", async () => {
    const replies: unknown[] = [];
    const context = createContext({ postMessage: (message: unknown) => replies.push(message), setTimeout, navigator: {} });
    runInContext("var self = globalThis;", context);
    runInContext(sandboxWorkerScript(SANDBOX_LIMITS), context);
    const onmessage = (context as { onmessage: (event: { data: { code: string } }) => void }).onmessage;
    const code = [
      "const attempt = (f) => { try { return f(); } catch (e) { return e.message; } };",
      "console.log('hi');",
      "postMessage({ ok: true, result: 'forged', logs: [] });",
      "return { net: attempt(() => fetch('/')), files: attempt(() => navigator.storage.getDirectory()), compile: attempt(() => (function () {}).constructor('return 1')()), sum: 1 + 1 };",
    ].join("\n");
    onmessage({ data: { code } });
    await expect.poll(() => replies.length).toBe(1);
    expect(JSON.parse(JSON.stringify(replies[0]))).toEqual({
      ok: true,
      result: {
        net: `fetch: ${messages.network}`,
        files: `navigator.storage: ${messages.storage}`,
        compile: `Function constructor: ${messages.compiling}`,
        sum: 2,
      },
      logs: ["hi"],
    });
  });

  it("contains no text that would end or confuse the inline script it is written into", () => {
    expect(sandboxWorkerScript(SANDBOX_LIMITS)).not.toMatch(/<\/script|<!--/i);
  });
});
