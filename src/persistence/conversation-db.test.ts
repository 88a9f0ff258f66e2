import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { createConversation, metaOf } from "../domain/conversation.ts";
import { toolCallRun } from "../store/test-events.ts";
import { syntheticTokenLog } from "../log-encoding/synthetic-token-log.test-helper.ts";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { createIndexedDbRepository } from "./conversation-db.ts";

describe("the IndexedDB conversation repository", () => {
  it("saves a conversation in appended chunks and loads it back whole", async () => {
    const repo = createIndexedDbRepository(new IDBFactory());
    const conversation = createConversation(100);
    const events = toolCallRun("r1", [{ role: "user", content: "hi" }]);
    await repo.save(metaOf(conversation), events.slice(0, 5));
    await repo.save({ ...metaOf(conversation), updatedAt: 200 }, events);
    await repo.save({ ...metaOf(conversation), updatedAt: 300 }, events); // meta only: an empty chunk
    const loaded = await repo.load(conversation.id);
    expect(loaded?.events).toEqual(events);
    expect(loaded?.updatedAt).toBe(300);
    expect(loaded?.settings).toEqual(conversation.settings);
  });

  it("cuts a large save into chunks of a bounded size, and loads them back in order", async () => {
    const factory = new IDBFactory();
    const repo = createIndexedDbRepository(factory, { chunkEvents: 3 });
    const conversation = createConversation(100);
    const events = [...toolCallRun("r1", [{ role: "user", content: "hi" }]), ...toolCallRun("r2", [{ role: "user", content: "again" }])];
    expect(events.length).toBeGreaterThan(7);
    await repo.save(metaOf(conversation), events.slice(0, 2));
    await repo.save(metaOf(conversation), events);
    expect((await repo.load(conversation.id))?.events).toEqual(events);
    // Read back by a repository with another chunk size: the stored layout is self-describing.
    expect((await createIndexedDbRepository(factory).load(conversation.id))?.events).toEqual(events);
  });

  it("cuts a save by the tokens its chunks hold too (never one event's), and loads every token back", async () => {
    // 3,000 tokens with alternatives in deltas of 500 (an imported step's shape), and a delta of 1,500 alone.
    const [runStart, stepStart, ...deltas] = syntheticTokenLog("simple", 4_500);
    const grouped: LoopEvent[] = [runStart!, stepStart!];
    for (const size of [500, 500, 500, 500, 500, 500, 1_500]) {
      const taken = deltas.splice(0, size) as Extract<LoopEvent, { type: "output-delta" }>[];
      grouped.push({ ...taken[0]!, text: taken.map((d) => d.text).join(""), tokens: taken.flatMap((d) => d.tokens ?? []) });
    }
    let pauses = 0;
    const repo = createIndexedDbRepository(new IDBFactory(), {
      chunkTokens: 1_000,
      pause: async () => {
        pauses += 1;
      },
    });
    const conversation = createConversation(100);
    await repo.save(metaOf(conversation), grouped);
    // Chunks: [starts + 2 deltas], [2 deltas], [2 deltas], [the 1,500-token delta]: a pause before each but the first.
    expect(pauses).toBe(3);
    const loaded = await repo.load(conversation.id);
    expect(loaded?.events).toEqual(grouped);
    expect(loaded?.events.flatMap((e) => (e.type === "output-delta" ? (e.tokens ?? []) : []))).toHaveLength(4_500);
  });

  it("encodes a chunk of one delta of thousands of tokens in pieces with turns between them, a small save at once, and loads both back", async () => {
    // One delta of 3,000 tokens with alternatives: one event, never cut, so one chunk of its own.
    const [runStart, stepStart, ...deltas] = syntheticTokenLog("server-like", 3_000) as Extract<LoopEvent, { type: "output-delta" }>[];
    const one: LoopEvent = { ...deltas[0]!, text: deltas.map((d) => d.text).join(""), tokens: deltas.flatMap((d) => d.tokens ?? []) };
    let turns = 0;
    // A turn whenever 0 ms have passed: at every checkpoint the paced encoding reaches.
    const repo = createIndexedDbRepository(new IDBFactory(), { workSliceMs: 0, workTurn: async () => void (turns += 1) });
    const conversation = createConversation(100);
    await repo.save(metaOf(conversation), [runStart!, stepStart!]);
    expect(turns).toBe(0);
    await repo.save(metaOf(conversation), [runStart!, stepStart!, one]);
    // Its tokens checked and written 500 at a time: five turns inside each pass.
    expect(turns).toBeGreaterThanOrEqual(10);
    turns = 0;
    const fresh = createIndexedDbRepository(new IDBFactory(), { workSliceMs: 0, workTurn: async () => void (turns += 1) });
    await fresh.save(metaOf(conversation), [runStart!, stepStart!]);
    expect(turns).toBe(0);
    expect((await repo.load(conversation.id))?.events).toEqual([runStart, stepStart, one]);
  });

  it("ignores chunks written by a save that never wrote its record", async () => {
    const factory = new IDBFactory();
    const repo = createIndexedDbRepository(factory, { chunkEvents: 2 });
    const conversation = createConversation(100);
    const events = toolCallRun("r1", []);
    await repo.save(metaOf(conversation), events.slice(0, 2));
    // A save cut short: a chunk past the record's count, as if the page closed before the record.
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open("toolcall-lab");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction("eventChunks", "readwrite");
      tx.objectStore("eventChunks").put({ conversationId: conversation.id, seq: 1, events: events.slice(2, 4) });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    expect((await repo.load(conversation.id))?.events).toEqual(events.slice(0, 2));
    // The next save writes over the leftover chunk.
    await repo.save(metaOf(conversation), events);
    expect((await repo.load(conversation.id))?.events).toEqual(events);
  });

  it("lists newest first, renames and deletes", async () => {
    const repo = createIndexedDbRepository(new IDBFactory());
    const a = { ...createConversation(100), title: "A" };
    const b = { ...createConversation(200), title: "B" };
    await repo.save(metaOf(a), []);
    await repo.save(metaOf(b), toolCallRun("r", []));
    expect((await repo.list()).map((m) => m.title)).toEqual(["B", "A"]);
    await repo.save({ ...metaOf(a), title: "A renamed", updatedAt: 300 }, []);
    expect((await repo.list()).map((m) => m.title)).toEqual(["A renamed", "B"]);
    await repo.delete(b.id);
    expect((await repo.list()).map((m) => m.title)).toEqual(["A renamed"]);
    expect(await repo.load(b.id)).toBeNull();
  });

  it("stores tool results that are not plain data as JSON", async () => {
    const repo = createIndexedDbRepository(new IDBFactory());
    const conversation = createConversation(1);
    const events = toolCallRun("r1", []);
    const withFunction = events.map((e) => (e.type === "tool-end" ? { ...e, result: { value: 4, fn: () => 1 } } : e));
    await repo.save(metaOf(conversation), withFunction);
    const loaded = await repo.load(conversation.id);
    expect(loaded?.events.find((e) => e.type === "tool-end")).toMatchObject({ result: { value: 4 } });
  });

  it("fails with a clear message where there is no IndexedDB", async () => {
    const repo = createIndexedDbRepository(null);
    await expect(repo.list()).rejects.toThrow(/no IndexedDB/);
  });
});

describe("the stored format's version (2: chunks may be in the shared-text encoding)", () => {
  const openAt = (factory: IDBFactory, version?: number) =>
    new Promise<IDBDatabase>((resolve, reject) => {
      const request = version === undefined ? factory.open("toolcall-lab") : factory.open("toolcall-lab", version);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains("conversations")) request.result.createObjectStore("conversations", { keyPath: "id" });
        if (!request.result.objectStoreNames.contains("eventChunks")) request.result.createObjectStore("eventChunks", { keyPath: ["conversationId", "seq"] });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });

  it("a tab of an older build that holds the database blocks this one with a clear message; once it lets go, the older build can no longer open it", async () => {
    const factory = new IDBFactory();
    const olderTab = await openAt(factory, 1); // never answers versionchange, as the build before did not
    const repo = createIndexedDbRepository(factory);
    await expect(repo.list()).rejects.toThrow(/blocked by another tab with an older version open; close it and reload/);
    olderTab.close();
    await expect(repo.list()).resolves.toEqual([]);
    await expect(openAt(factory, 1)).rejects.toMatchObject({ name: "VersionError" });
  });

  it("a newer build opening the database in another tab is let through, and this tab's next read fails instead of misreading", async () => {
    const factory = new IDBFactory();
    const repo = createIndexedDbRepository(factory);
    const conversation = createConversation(100);
    await repo.save(metaOf(conversation), toolCallRun("r1", []));
    const newer = await openAt(factory, 4);
    newer.close();
    await expect(repo.list()).rejects.toThrow(/upgraded by a newer version of the lab in another tab; reload this page/);
  });
});
