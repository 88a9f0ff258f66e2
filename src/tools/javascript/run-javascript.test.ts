import { describe, expect, it, vi } from "vitest";
import type { ToolContext } from "toolcall-middleware/types.ts";
import { createRunJavascriptTool } from "./run-javascript.ts";
import { SANDBOX_CRASHED_MESSAGE } from "./sandbox-frame.ts";
import { JavascriptError, JavascriptTimeoutError, type SandboxWorker } from "./sandbox-host.ts";
import type { SandboxRequest, SandboxResponse } from "./sandbox-protocol.ts";
import { runInProcess } from "./sandbox-test-support.ts";

/**
 * A stand-in for the sandbox (frame and worker) that runs the same sandbox code in this process. Code
 * containing "HANG" never replies, like an endless loop (a real one would block this process).
 */
class InProcessWorker implements SandboxWorker {
  onmessage: ((event: { data: SandboxResponse }) => void) | null = null;
  onerror: ((event: { message?: string; crashed?: boolean }) => void) | null = null;
  terminated = false;
  received: SandboxRequest[] = [];

  postMessage(message: SandboxRequest): void {
    this.received.push(message);
    if (message.code.includes("HANG")) return;
    void runInProcess(message.code).then((reply) => {
      if (!this.terminated) this.onmessage?.({ data: reply });
    });
  }

  terminate(): void {
    this.terminated = true;
  }
}

function setup(timeoutMs = 100) {
  const workers: InProcessWorker[] = [];
  const tool = createRunJavascriptTool({
    timeoutMs,
    createWorker: () => {
      const worker = new InProcessWorker();
      workers.push(worker);
      return worker;
    },
  });
  return { tool, workers };
}

const context = (signal = new AbortController().signal) => ({ signal }) as ToolContext;

describe("run_javascript tool", () => {
  it("has the contract name, a `code` parameter and its timeout", () => {
    const { tool } = setup(2500);
    expect(tool.name).toBe("run_javascript");
    expect(tool.parameters).toMatchObject({ properties: { code: { type: "string" } }, required: ["code"] });
    expect(tool.timeoutMs).toBe(2500);
  });

  it("returns the result and the logs, and terminates the worker afterwards", async () => {
    const { tool, workers } = setup();
    await expect(tool.execute({ code: "console.log('hi'); return 2 ** 8;" }, context())).resolves.toEqual({ result: 256, logs: ["hi"] });
    expect(workers).toHaveLength(1);
    expect(workers[0]?.terminated).toBe(true);
  });

  it("gives null as the result when the code returns nothing", async () => {
    const { tool } = setup();
    await expect(tool.execute({ code: "console.log('only printing')" }, context())).resolves.toEqual({ result: null, logs: ["only printing"] });
  });

  it("passes on the code's error with what it printed", async () => {
    const { tool } = setup();
    const error = await tool.execute({ code: "console.log('before'); null.x" }, context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JavascriptError);
    expect((error as Error).message).toMatch(/^TypeError: .*\nIt printed before failing:\nbefore$/);
  });

  it("kills code that runs too long, and a fresh worker serves the next call", async () => {
    const { tool, workers } = setup(50);
    const error = await tool.execute({ code: "while (true) {} // HANG" }, context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JavascriptTimeoutError);
    expect((error as Error).message).toMatch(/ran longer than 0\.1 s and was stopped/);
    expect(workers[0]?.terminated).toBe(true);
    await expect(tool.execute({ code: "1 + 1" }, context())).resolves.toEqual({ result: 2, logs: [] });
    expect(workers).toHaveLength(2);
    expect(workers[1]).not.toBe(workers[0]);
  });

  it("terminates the worker when the turn is aborted, with the abort reason", async () => {
    const { tool, workers } = setup(60_000);
    const controller = new AbortController();
    const running = tool.execute({ code: "HANG" }, context(controller.signal));
    // The sandbox's code loads on first use: abort once the worker runs the code.
    await vi.waitFor(() => expect(workers).toHaveLength(1));
    controller.abort(new Error("user pressed stop"));
    await expect(running).rejects.toThrow("user pressed stop");
    expect(workers[0]?.terminated).toBe(true);
  });

  it("does not start a worker for an already aborted turn or invalid arguments", async () => {
    const { tool, workers } = setup();
    const controller = new AbortController();
    controller.abort();
    await expect(tool.execute({ code: "1" }, context(controller.signal))).rejects.toThrow();
    await expect(tool.execute({ source: "1" }, context())).rejects.toThrow(/Invalid arguments/);
    expect(workers).toHaveLength(0);
  });

  it("reports a worker that fails to load or cannot be created", async () => {
    const failing = createRunJavascriptTool({
      createWorker: () => {
        const worker = new InProcessWorker();
        worker.postMessage = () => queueMicrotask(() => worker.onerror?.({ message: "script failed to load" }));
        return worker;
      },
    });
    await expect(failing.execute({ code: "1" }, context())).rejects.toThrow(/sandbox failed: script failed to load/);
    const unavailable = createRunJavascriptTool({
      createWorker: () => {
        throw new ReferenceError("Worker is not defined");
      },
    });
    await expect(unavailable.execute({ code: "1" }, context())).rejects.toThrow(/could not start: Worker is not defined/);
  });

  it("reports a sandbox that died (its process ended) with the sandbox's own explanation, and the next call works", async () => {
    let calls = 0;
    const tool = createRunJavascriptTool({
      timeoutMs: 60_000,
      createWorker: () => {
        const worker = new InProcessWorker();
        if (calls++ === 0) worker.postMessage = () => queueMicrotask(() => worker.onerror?.({ message: SANDBOX_CRASHED_MESSAGE, crashed: true }));
        return worker;
      },
    });
    const error = await tool.execute({ code: "const a = []; for (;;) a.push(new Array(1e6))" }, context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JavascriptError);
    expect((error as Error).message).toBe(SANDBOX_CRASHED_MESSAGE);
    await expect(tool.execute({ code: "6 * 7" }, context())).resolves.toEqual({ result: 42, logs: [] });
  });

  it("says when the result was cut", async () => {
    const { tool } = setup();
    const outcome = (await tool.execute({ code: 'return "x".repeat(1e6)' }, context())) as { result: string; resultTruncated?: boolean };
    expect(outcome.resultTruncated).toBe(true);
    expect(outcome.result).toMatch(/\[cut at 10000 characters: the result had 1000000\]$/);
  });
});
