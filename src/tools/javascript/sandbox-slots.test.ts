import { describe, expect, it } from "vitest";
import { createSandboxHost, JavascriptTimeoutError, type SandboxWorker } from "./sandbox-host.ts";
import type { SandboxRequest, SandboxResponse } from "./sandbox-protocol.ts";
import { createSandboxSlots, MAX_CONCURRENT_SANDBOXES } from "./sandbox-slots.ts";

const never = new AbortController().signal;

describe("createSandboxSlots", () => {
  it("grants up to the limit at once, then in the order asked, as slots are released", async () => {
    const slots = createSandboxSlots(2);
    const a = await slots.acquire(never);
    const b = await slots.acquire(never);
    const order: string[] = [];
    const c = slots.acquire(never).then((release) => (order.push("c"), release));
    const d = slots.acquire(never).then((release) => (order.push("d"), release));
    await Promise.resolve();
    expect([slots.inUse, slots.waiting, order]).toEqual([2, 2, []]);
    a();
    a(); // a second release of the same slot frees nothing more
    const releaseC = await c;
    expect([slots.inUse, slots.waiting, order]).toEqual([2, 1, ["c"]]);
    b();
    await d;
    releaseC();
    expect([slots.inUse, slots.waiting, order]).toEqual([1, 0, ["c", "d"]]);
  });

  it("a wait that is stopped leaves the line with the stop's reason, and takes no slot", async () => {
    const slots = createSandboxSlots(1);
    const held = await slots.acquire(never);
    const stop = new AbortController();
    const waiting = slots.acquire(stop.signal);
    stop.abort(new Error("stopped"));
    await expect(waiting).rejects.toThrow("stopped");
    expect(slots.waiting).toBe(0);
    held();
    expect(slots.inUse).toBe(0);
    const already = new AbortController();
    already.abort(new Error("before"));
    await expect(slots.acquire(already.signal)).rejects.toThrow("before");
  });
});

/** A sandbox that answers only when told to: the test decides when each run ends. */
class ManualWorker implements SandboxWorker {
  onmessage: ((event: { data: SandboxResponse }) => void) | null = null;
  onerror: ((event: { message?: string; crashed?: boolean }) => void) | null = null;
  terminated = false;
  code = "";
  postMessage(message: SandboxRequest): void {
    this.code = message.code;
  }
  terminate(): void {
    this.terminated = true;
  }
  answer(): void {
    this.onmessage?.({ data: { ok: true, result: this.code, logs: [], resultTruncated: false, logsTruncated: false } as SandboxResponse });
  }
}

function hostWithManualWorkers(timeoutMs = 60_000) {
  const workers: ManualWorker[] = [];
  const alive = () => workers.filter((w) => !w.terminated).length;
  const host = createSandboxHost({
    timeoutMs,
    createWorker: () => {
      const worker = new ManualWorker();
      workers.push(worker);
      return worker;
    },
  });
  return { host, workers, alive };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the sandbox host's pool", () => {
  it(`runs at most ${MAX_CONCURRENT_SANDBOXES} sandboxes at once; the others start as those end`, async () => {
    const { host, workers, alive } = hostWithManualWorkers();
    const runs = Array.from({ length: 30 }, (_, i) => host.run(`call ${i}`, never));
    await settle();
    expect(workers).toHaveLength(MAX_CONCURRENT_SANDBOXES);
    let mostAlive = alive();
    while (workers.some((w) => !w.terminated)) {
      for (const worker of workers.filter((w) => !w.terminated)) worker.answer();
      await settle();
      mostAlive = Math.max(mostAlive, alive());
    }
    expect(mostAlive).toBe(MAX_CONCURRENT_SANDBOXES);
    expect(workers).toHaveLength(30);
    const outcomes = await Promise.all(runs);
    expect(outcomes.map((o) => o.result)).toEqual(Array.from({ length: 30 }, (_, i) => `call ${i}`));
  });

  it("Stop ends waiting runs without starting their sandboxes, and running ones terminate", async () => {
    const { host, workers } = hostWithManualWorkers();
    const stop = new AbortController();
    const runs = Array.from({ length: 10 }, (_, i) => host.run(`call ${i}`, stop.signal).catch((e: unknown) => e));
    await settle();
    stop.abort(new Error("user pressed stop"));
    const results = await Promise.all(runs);
    for (const result of results) expect((result as Error).message).toBe("user pressed stop");
    expect(workers).toHaveLength(MAX_CONCURRENT_SANDBOXES);
    expect(workers.every((w) => w.terminated)).toBe(true);
    // The pool is free again.
    const next = host.run("after", never);
    await settle();
    workers.at(-1)!.answer();
    await expect(next).resolves.toMatchObject({ result: "after" });
  });

  it("a run's time limit starts with its sandbox, and a timed-out run frees its slot", async () => {
    const { host, workers } = hostWithManualWorkers(30);
    const runs = Array.from({ length: MAX_CONCURRENT_SANDBOXES + 1 }, (_, i) => host.run(`call ${i}`, never).catch((e: unknown) => e));
    const results = await Promise.all(runs);
    // Every run got its own full time and timed out in its sandbox (none while waiting).
    for (const result of results) expect(result).toBeInstanceOf(JavascriptTimeoutError);
    expect(workers).toHaveLength(MAX_CONCURRENT_SANDBOXES + 1);
  });
});
