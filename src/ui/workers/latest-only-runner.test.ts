// The runner behind the playground's and "Parse as…"'s workers, with a stand-in worker: whatever
// goes wrong, the caller hears why and the next request is sent.
import { afterEach, describe, expect, it, vi } from "vitest";
import { LatestOnlyRunner } from "./latest-only-runner.ts";

class FakeWorker {
  sent: unknown[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  terminated = false;
  postMessage(message: { seq: number; input: unknown }): void {
    // Structured clone recurses: input nested too deep cannot be sent.
    structuredClone(message);
    this.sent.push(message);
  }
  reply(seq: number, result: string): void {
    this.onmessage?.({ data: { seq, result } } as MessageEvent);
  }
  terminate(): void {
    this.terminated = true;
  }
}

afterEach(() => vi.unstubAllGlobals());

function deepArray(levels: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe("latest-only worker runner", () => {
  it("an input that cannot be handed to the worker is answered with a message, and the runner is not left busy", () => {
    vi.stubGlobal("Worker", FakeWorker);
    const worker = new FakeWorker();
    const results: string[] = [];
    const runner = new LatestOnlyRunner<unknown, string>({ createWorker: () => worker as unknown as Worker, runHere: () => "here", failed: (message) => `failed: ${message}`, onResult: (r) => results.push(r) });
    runner.run(deepArray(200_000));
    expect(results).toEqual([expect.stringMatching(/^failed: The input could not be handed to the worker: /)]);
    expect(runner.running).toBe(false);
    runner.run("small");
    expect(worker.sent).toEqual([{ seq: 2, input: "small" }]);
    worker.reply(2, "parsed");
    expect(results.at(-1)).toBe("parsed");
  });

  it("only the newest waiting request is sent after a reply; a failed worker is replaced and the next request still goes", () => {
    vi.stubGlobal("Worker", FakeWorker);
    const workers: FakeWorker[] = [];
    const results: string[] = [];
    const runner = new LatestOnlyRunner<string, string>({
      createWorker: () => {
        const made = new FakeWorker();
        workers.push(made);
        return made as unknown as Worker;
      },
      runHere: () => "here",
      failed: (message) => `failed: ${message}`,
      onResult: (r) => results.push(r),
    });
    runner.run("a");
    runner.run("b");
    runner.run("c");
    workers[0]!.reply(1, "A");
    // "a" was overtaken: its reply is not delivered; "c" is sent, "b" never is.
    expect(results).toEqual([]);
    expect(workers[0]!.sent).toEqual([{ seq: 1, input: "a" }, { seq: 3, input: "c" }]);
    workers[0]!.onerror?.({ message: "boom" } as ErrorEvent);
    expect(results).toEqual(["failed: The worker failed: boom"]);
    expect(workers[0]!.terminated).toBe(true);
    runner.run("d");
    expect(workers[1]!.sent).toEqual([{ seq: 4, input: "d" }]);
  });
});

describe("the playground's runner", () => {
  it("a tool schema nested 100,000 deep (which a link can carry) is answered with a message, and the playground parses again", async () => {
    const made: FakeWorker[] = [];
    vi.stubGlobal(
      "Worker",
      class extends FakeWorker {
        constructor() {
          super();
          made.push(this);
        }
      },
    );
    const { PlaygroundRunner } = await import("../playground/playground-runner.ts");
    const results: { error?: string }[] = [];
    const runner = new PlaygroundRunner((result) => results.push(result));
    const input = { output: "x", protocol: "hermes", tools: [{ name: "deep", description: "", parameters: deepArray(100_000) as Record<string, unknown> }], chunking: { kind: "whole" as const } };
    expect(() => runner.parse(input)).not.toThrow();
    expect(results).toEqual([expect.objectContaining({ error: expect.stringMatching(/^The input could not be handed to the worker/) })]);
    runner.parse({ ...input, tools: [] });
    expect(made[0]!.sent).toHaveLength(1);
  });
});
