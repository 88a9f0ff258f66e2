import { describe, expect, it } from "vitest";
import { compileUserCode, lockDownNetwork, NETWORK_DISABLED_MESSAGE, toPlainResult } from "./sandbox-runner.ts";
import { runInProcess } from "./sandbox-test-support.ts";

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (...args: string[]) => () => Promise<unknown>;

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

  it("runs the code once even when it throws a SyntaxError at run time", async () => {
    const reply = await runInProcess("console.log('ran'); JSON.parse('{bad');");
    expect(reply).toMatchObject({ ok: false, error: { name: "SyntaxError" }, logs: ["ran"] });
  });

  it("refuses code that does not compile, without running any of it", () => {
    expect(() => compileUserCode("let = ;", AsyncFunction)).toThrow(SyntaxError);
  });

  it("refuses dynamic import(), however it is spaced", () => {
    expect(() => compileUserCode("await import('https://example.com/x.js')", AsyncFunction)).toThrow(NETWORK_DISABLED_MESSAGE);
    expect(() => compileUserCode("import /* hi */ ('x')", AsyncFunction)).toThrow(/import\(\)/);
  });

  it("cuts very long console output and says so", async () => {
    const reply = await runInProcess("for (let i = 0; i < 1000; i++) console.log('line', i); return 1;");
    expect(reply).toMatchObject({ ok: true, result: 1, logsTruncated: true });
    expect(reply.logs.length).toBe(200);
  });
});

describe("toPlainResult", () => {
  it("turns values that JSON or postMessage cannot carry into readable text", () => {
    expect(toPlainResult(NaN)).toBe("NaN");
    expect(toPlainResult(10n)).toBe("10n");
    expect(toPlainResult(function named() {})).toBe("[Function named]");
    expect(toPlainResult(new Map([["a", 1]]))).toEqual({ a: 1 });
    expect(toPlainResult(new Set([1, 2]))).toEqual([1, 2]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toPlainResult(cyclic)).toBe("[object Object]");
    expect(toPlainResult({ d: new Date(0) })).toEqual({ d: "1970-01-01T00:00:00.000Z" });
  });
});

describe("lockDownNetwork", () => {
  it("replaces network globals with stubs that throw and cannot be restored", () => {
    const scope: Record<string, unknown> = { fetch: () => "network!", XMLHttpRequest: class {}, setTimeout };
    lockDownNetwork(scope);
    for (const name of ["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "importScripts", "indexedDB"]) {
      expect(() => (scope[name] as () => unknown)()).toThrow(NETWORK_DISABLED_MESSAGE);
    }
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
    expect(() => viaPrototype.call(scope)).toThrow(NETWORK_DISABLED_MESSAGE);
    expect(() => scope.fetch()).toThrow(NETWORK_DISABLED_MESSAGE);
  });
});
