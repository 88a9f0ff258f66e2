import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { EvalResult } from "../eval/run-case.ts";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { createEvalRepository, EVENTS_PER_SLICE } from "./eval-db.ts";
import { bigReplyLog, recordedLogs } from "./recorded-logs.test-helper.ts";

const result = (id: string, pass: boolean): EvalResult => ({ id, category: "simple_python", protocol: "hermes", mode: "prompt", constrained: false, repeat: 0, pass, strictPass: pass, reason: pass ? "" : "x", calls: [], durationMs: 1, runId: `run-${id}` });
const events = (id: string): LoopEvent[] => [{ type: "run-start", runId: `run-${id}`, at: 1, protocol: "hermes", messages: [], tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } } as unknown as LoopEvent];

describe("eval repository (IndexedDB)", () => {
  it("keeps the latest run and its cases across a reopen (a reload); events are read per case", async () => {
    const factory = new IDBFactory();
    const first = createEvalRepository(factory);
    await first.saveRun({ id: "old", config: {}, total: 1, status: "done", startedAt: 1, label: "old" });
    await first.saveCase("old", "k0", result("simple_python_9", true), events("9"));
    await first.saveRun({ id: "new", config: { perCategory: 2 }, total: 2, status: "running", startedAt: 2, label: "new" });
    await first.saveCase("new", "k1", result("simple_python_0", true), events("0"));

    const reopened = createEvalRepository(factory);
    const latest = await reopened.latest();
    expect(latest?.run).toMatchObject({ id: "new", status: "running", total: 2, config: { perCategory: 2 } });
    expect(latest?.results.map((r) => [r.jobKey, r.result.id])).toEqual([["k1", "simple_python_0"]]);
    expect(await reopened.events("new", "k1")).toEqual(events("0"));
    expect(await reopened.events("new", "missing")).toBeUndefined();

    await reopened.keepOnly("new");
    expect(await reopened.events("old", "k0")).toBeUndefined();
    expect((await reopened.latest())?.run.id).toBe("new");
    await reopened.keepOnly("");
    expect(await reopened.latest()).toBeUndefined();
  });

  it("keeps cases saved from conversation turns, oldest first, apart from runs", async () => {
    const factory = new IDBFactory();
    const repo = createEvalRepository(factory);
    await repo.addSavedCase({ id: "saved_2", question: "{}", savedAt: 2 });
    await repo.addSavedCase({ id: "saved_1", question: "{}", answer: "{}", savedAt: 1 });
    await repo.keepOnly("");
    expect((await createEvalRepository(factory).savedCases()).map((c) => c.id)).toEqual(["saved_1", "saved_2"]);
    await repo.removeSavedCase("saved_1");
    expect((await repo.savedCases()).map((c) => c.id)).toEqual(["saved_2"]);
  });

  it("stores a case's events with each long text once, reads them back exactly, and reads cases stored plain before", async () => {
    const factory = new IDBFactory();
    const repo = createEvalRepository(factory);
    const { events: big, reply } = await bigReplyLog(200_000, 2_000);
    await repo.saveCase("run", "big", result("simple_python_1", true), big);
    expect(await createEvalRepository(factory).events("run", "big")).toEqual(big);
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open("toolcall-lab-eval", 2);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const read = (key: string) =>
      new Promise<unknown>((resolve, reject) => {
        const request = db.transaction("cases", "readonly").objectStore("cases").get(key);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const stored = (await read("run|big")) as { eventBlobs: Blob[] };
    const storedChars = (await Promise.all(stored.eventBlobs.map((blob) => blob.text()))).reduce((sum, slice) => sum + slice.length, 0);
    expect(storedChars).toBeLessThan(1.3 * reply.length);
    // A case as it was stored before: its events plain.
    const memory = (await recordedLogs()).memory!;
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction("cases", "readwrite");
      tx.objectStore("cases").put({ key: "run|old", runId: "run", jobKey: "old", result: result("simple_python_2", true), events: memory });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    expect(await repo.events("run", "old")).toEqual(memory);
  });

  it("says so when the browser has no IndexedDB", async () => {
    await expect(createEvalRepository(null).latest()).rejects.toThrow(/no IndexedDB/);
  });

  it("stores a case of many events as JSON slices in blobs, made with turns for the page between them, and reads them back exactly", async () => {
    // The recorded logs, repeated to 20,000+ events: one IndexedDB put of them as objects was a
    // 4 s task, and of 80 MB of JSON strings a 1.2 s task; blobs are stored by reference.
    const logs = Object.values(await recordedLogs()).flat();
    const many: LoopEvent[] = [];
    while (many.length < 20_000) many.push(...logs);
    const factory = new IDBFactory();
    const repo = createEvalRepository(factory);
    let pauses = 0;
    await repo.saveCase("run", "big", result("simple_python_0", false), many, async () => {
      pauses += 1;
    });
    expect(pauses).toBe(Math.ceil(many.length / EVENTS_PER_SLICE));
    expect(await createEvalRepository(factory).events("run", "big")).toEqual(many);
    const stored = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const open = factory.open("toolcall-lab-eval");
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const get = open.result.transaction("cases").objectStore("cases").get("run|big");
        get.onsuccess = () => resolve(get.result as Record<string, unknown>);
      };
    });
    expect(stored.events).toBeUndefined();
    expect(stored.eventsJson).toBeUndefined();
    const blobs = stored.eventBlobs as unknown[];
    expect(blobs).toHaveLength(Math.ceil(many.length / EVENTS_PER_SLICE));
    expect(blobs.every((slice) => slice instanceof Blob)).toBe(true);
    // Each slice is one piece of bounded work: the records of at most EVENTS_PER_SLICE events.
    const sizes = await Promise.all((blobs as Blob[]).map(async (slice) => (JSON.parse(await slice.text()) as unknown[]).length));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(EVENTS_PER_SLICE);
  });

  it("reads a case stored as JSON strings (before the blobs)", async () => {
    const factory = new IDBFactory();
    const repo = createEvalRepository(factory);
    await repo.saveRun({ id: "run", config: {}, total: 1, status: "done", startedAt: 1, label: "run" });
    const memory = (await recordedLogs()).memory!;
    await repo.saveCase("run", "fresh", result("simple_python_3", true), memory);
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open("toolcall-lab-eval");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const fresh = await new Promise<{ eventBlobs: Blob[] }>((resolve) => {
      const get = db.transaction("cases").objectStore("cases").get("run|fresh");
      get.onsuccess = () => resolve(get.result as { eventBlobs: Blob[] });
    });
    const eventsJson = await Promise.all(fresh.eventBlobs.map((blob) => blob.text()));
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction("cases", "readwrite");
      tx.objectStore("cases").put({ key: "run|strings", runId: "run", jobKey: "strings", result: result("simple_python_3", true), encoding: "shared-text-1", eventsJson });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    expect(await repo.events("run", "strings")).toEqual(memory);
  });
});
