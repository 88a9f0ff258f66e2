import { describe, expect, it } from "vitest";
import { DerivationWorker, type DerivationWorkerPort, type DerivationWorkerReply, type DerivationWorkerRequest } from "./derivation-worker.ts";
import type { DerivedFormat } from "toolcall-middleware/derive/derive-format.ts";

/** A Worker that answers only when the test says so. */
class FakeWorker implements DerivationWorkerPort {
  onmessage: ((event: MessageEvent<DerivationWorkerReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onmessageerror: ((event: MessageEvent) => void) | null = null;
  readonly posted: DerivationWorkerRequest[] = [];
  terminated = false;
  postMessage(message: DerivationWorkerRequest): void {
    this.posted.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(reply: DerivationWorkerReply): void {
    this.onmessage?.({ data: reply } as MessageEvent<DerivationWorkerReply>);
  }
  fail(message: string): void {
    this.onerror?.({ message, preventDefault: () => undefined } as ErrorEvent);
  }
}

const FORMAT = { marker: "a plain-data stand-in" } as unknown as DerivedFormat;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setUp() {
  const workers: FakeWorker[] = [];
  const derivations = new DerivationWorker(() => {
    const worker = new FakeWorker();
    workers.push(worker);
    return worker;
  });
  return { workers, derivations };
}

describe("DerivationWorker", () => {
  it("sends one request at a time, in the order asked, and answers each by its id with the worker's time", async () => {
    const { workers, derivations } = setUp();
    const first = derivations.derive("template one", "one");
    const second = derivations.derive("template two", "two");
    expect(workers).toHaveLength(1);
    const worker = workers[0]!;
    expect(worker.posted).toEqual([{ id: 1, kind: "derive", source: "template one", name: "one" }]);
    // A reply for another id is not this request's.
    worker.reply({ id: 2, derivation: { ok: true, format: FORMAT }, ms: 1 });
    worker.reply({ id: 1, derivation: { ok: true, format: FORMAT }, ms: 12.5 });
    expect(await first).toEqual({ ok: true, format: FORMAT, ms: 12.5 });
    expect(worker.posted.map((r) => r.id)).toEqual([1, 2]);
    worker.reply({ id: 2, derivation: { ok: true, format: FORMAT }, ms: 3 });
    expect(await second).toEqual({ ok: true, format: FORMAT, ms: 3 });
    expect(derivations.lastDerivationMs).toBe(3);
    // Kept between derivations.
    expect(worker.terminated).toBe(false);
    expect(workers).toHaveLength(1);
  });

  it("keeps the worker, warm, after a template that cannot be derived: the next derivation goes to the same worker", async () => {
    const { workers, derivations } = setUp();
    const warming = derivations.warmUp();
    workers[0]!.reply({ id: 1, derivation: { ok: true, format: FORMAT }, ms: 120 });
    await warming;
    const refused = derivations.derive("{% for %}", "not jinja");
    const next = derivations.derive("template", "next");
    workers[0]!.reply({ id: 2, derivation: { ok: false, reason: "cannot derive: the template is not valid Jinja" }, ms: 2 });
    expect(await refused).toEqual({ ok: false, reason: "cannot derive: the template is not valid Jinja", ms: 2 });
    expect(workers[0]!.terminated).toBe(false);
    expect(workers).toHaveLength(1);
    expect(workers[0]!.posted.at(-1)).toEqual({ id: 3, kind: "derive", source: "template", name: "next" });
    workers[0]!.reply({ id: 3, derivation: { ok: true, format: FORMAT }, ms: 4 });
    expect(await next).toMatchObject({ ok: true });
    // Still warm: no second warm-up is sent.
    await derivations.warmUp();
    expect(workers[0]!.posted.filter((r) => r.kind === "warm-up")).toHaveLength(1);
  });

  it("answers a worker's error with cannot derive, ends that worker and ignores anything it sends after", async () => {
    const { workers, derivations } = setUp();
    const first = derivations.derive("template", "one");
    const second = derivations.derive("template", "two");
    workers[0]!.fail("out of memory");
    expect(await first).toEqual({ ok: false, reason: "cannot derive: the derivation's worker failed (out of memory)", ms: 0 });
    expect(workers[0]!.terminated).toBe(true);
    workers[0]!.reply({ id: 2, derivation: { ok: true, format: FORMAT }, ms: 1 });
    expect(workers[1]!.posted.map((r) => r.id)).toEqual([2]);
    workers[1]!.fail("");
    expect(await second).toEqual({ ok: false, reason: "cannot derive: the derivation's worker failed (script error)", ms: 0 });
  });

  it("warms a worker once with the built-in template and derives in that same worker after", async () => {
    const { workers, derivations } = setUp();
    const warming = derivations.warmUp();
    void derivations.warmUp();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.posted).toEqual([{ id: 1, kind: "warm-up" }]);
    workers[0]!.reply({ id: 1, derivation: { ok: true, format: FORMAT }, ms: 120 });
    await warming;
    await derivations.warmUp();
    expect(workers[0]!.posted).toHaveLength(1);
    const derived = derivations.derive("template", "one");
    expect(workers[0]!.posted.at(-1)).toEqual({ id: 2, kind: "derive", source: "template", name: "one" });
    workers[0]!.reply({ id: 2, derivation: { ok: true, format: FORMAT }, ms: 8 });
    expect(await derived).toEqual({ ok: true, format: FORMAT, ms: 8 });
    expect(derivations.lastDerivationMs).toBe(8);
    expect(workers).toHaveLength(1);
  });

  it("warms again after the warm worker failed and ended", async () => {
    const { workers, derivations } = setUp();
    const warming = derivations.warmUp();
    workers[0]!.reply({ id: 1, derivation: { ok: true, format: FORMAT }, ms: 100 });
    await warming;
    const failing = derivations.derive("bad", "bad");
    workers[0]!.fail("out of memory");
    await failing;
    await flush();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.terminated).toBe(true);
    void derivations.warmUp();
    expect(workers).toHaveLength(2);
    expect(workers[1]!.posted).toEqual([{ id: 3, kind: "warm-up" }]);
  });

  it("answers what waits with cannot derive when disposed", async () => {
    const { workers, derivations } = setUp();
    const first = derivations.derive("a", "a");
    const second = derivations.derive("b", "b");
    derivations.dispose();
    expect(workers[0]!.terminated).toBe(true);
    expect(await first).toEqual({ ok: false, reason: "cannot derive: the derivation was stopped", ms: 0 });
    expect(await second).toEqual({ ok: false, reason: "cannot derive: the derivation was stopped", ms: 0 });
  });

  it("derives on this thread, through the same derivation, where there are no workers", async () => {
    const derivations = new DerivationWorker(null);
    await derivations.warmUp();
    const derived = await derivations.derive("{% if %}", "broken");
    expect(derived).toMatchObject({ ok: false, reason: expect.stringMatching(/^cannot derive: the template is not valid Jinja/) });
    expect(derived.ms).toBeGreaterThanOrEqual(0);
  });
});
