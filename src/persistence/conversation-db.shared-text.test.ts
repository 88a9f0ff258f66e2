// What a saved conversation takes in IndexedDB, and that it reads back exactly: each long text
// is stored once (shared-text.ts), saves that stream in one chunk at a time included; logs saved
// before the encoding still load, and go on being saved after it.
import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { createConversation, metaOf } from "../domain/conversation.ts";
import { createIndexedDbRepository } from "./conversation-db.ts";
import { bigReplyLog, recordedLogs } from "./recorded-logs.test-helper.ts";

function openRaw(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open("toolcall-lab");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

interface RawChunk {
  conversationId: string;
  seq: number;
  encoding?: string;
  events?: unknown[];
  eventsBlob?: Blob;
}

async function rawChunks(factory: IDBFactory): Promise<RawChunk[]> {
  const db = await openRaw(factory);
  const chunks = await new Promise<RawChunk[]>((resolve, reject) => {
    const request = db.transaction("eventChunks", "readonly").objectStore("eventChunks").getAll();
    request.onsuccess = () => resolve(request.result as RawChunk[]);
    request.onerror = () => reject(request.error);
  });
  db.close();
  return chunks;
}

/** The stored chunks, a blob's records read into `events` (what the stored size counts). */
async function storedChunks(factory: IDBFactory): Promise<{ seq: number; encoding?: string; events: unknown[] }[]> {
  const chunks = await rawChunks(factory);
  return Promise.all(chunks.map(async ({ eventsBlob, ...chunk }) => ({ ...chunk, events: eventsBlob ? (JSON.parse(await eventsBlob.text()) as unknown[]) : (chunk.events ?? []) })));
}

/** Writes a conversation the way the repository did before the encoding: plain events per chunk. */
async function writeOldFormat(factory: IDBFactory, conversation: ReturnType<typeof createConversation>, events: LoopEvent[], perChunk: number): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open("toolcall-lab", 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore("conversations", { keyPath: "id" });
      request.result.createObjectStore("eventChunks", { keyPath: ["conversationId", "seq"] });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(["conversations", "eventChunks"], "readwrite");
    let seq = 0;
    for (let at = 0; at < events.length; at += perChunk) {
      tx.objectStore("eventChunks").put({ conversationId: conversation.id, seq: seq++, events: JSON.parse(JSON.stringify(events.slice(at, at + perChunk))) });
    }
    tx.objectStore("conversations").put({ ...metaOf(conversation), eventCount: events.length, chunkCount: seq });
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

describe("conversations saved with each long text once", () => {
  it("stores a run with a 1,000,000-character reply in about its size (it took five times that)", async () => {
    const { events, reply } = await bigReplyLog();
    const factory = new IDBFactory();
    const repo = createIndexedDbRepository(factory);
    const conversation = createConversation(1);
    // Saved as the page saves a streaming run: a few events at a time.
    for (let at = 0; at < events.length; at += 37) await repo.save(metaOf(conversation), events.slice(0, Math.min(events.length, at + 37)));
    await repo.save(metaOf(conversation), events);
    const stored = JSON.stringify(await storedChunks(factory)).length;
    console.log(`stored: ${stored.toLocaleString("en-US")} characters for a reply of ${reply.length.toLocaleString("en-US")} (${(stored / reply.length).toFixed(2)}x); the events as they are: ${(JSON.stringify(events).length / reply.length).toFixed(2)}x`);
    expect(stored).toBeLessThan(1.3 * reply.length);
    expect((await createIndexedDbRepository(factory).load(conversation.id))?.events).toEqual(events);
  });

  it("loads exactly what was saved, whether saved at once, event by event or in small chunks", async () => {
    const events = Object.values(await recordedLogs()).flat();
    for (const [how, chunkEvents, step] of [["at once", 200, events.length], ["in chunks of 7", 7, events.length], ["every 13 events", 200, 13]] as const) {
      const factory = new IDBFactory();
      const repo = createIndexedDbRepository(factory, { chunkEvents });
      const conversation = createConversation(1);
      for (let at = step; at < events.length + step; at += step) await repo.save(metaOf(conversation), events.slice(0, Math.min(at, events.length)));
      expect((await repo.load(conversation.id))?.events, how).toEqual(events);
      expect((await createIndexedDbRepository(factory).load(conversation.id))?.events, how).toEqual(events);
      expect((await storedChunks(factory)).every((chunk) => chunk.encoding === "shared-text-1"), how).toBe(true);
    }
  });

  it("reads a log of many thousand events (decoded a slice at a time) exactly", async () => {
    const { events } = await bigReplyLog(40_000, 16);
    expect(events.length).toBeGreaterThan(4_000);
    const factory = new IDBFactory();
    const conversation = createConversation(1);
    const writer = createIndexedDbRepository(factory);
    await writer.save(metaOf(conversation), events.slice(0, 2_500));
    const reader = createIndexedDbRepository(factory);
    expect((await reader.load(conversation.id))?.events).toEqual(events.slice(0, 2_500));
    await writer.save(metaOf(conversation), events);
    const update = await reader.loadSince(conversation.id, 2_500);
    expect(update !== "deleted" && update?.events).toEqual(events.slice(2_500));
  });

  it("a second tab reads on from what it has, though the new chunks refer to older ones", async () => {
    const events = Object.values(await recordedLogs()).flat();
    const factory = new IDBFactory();
    const writer = createIndexedDbRepository(factory, { chunkEvents: 11 });
    const reader = createIndexedDbRepository(factory);
    const conversation = createConversation(1);
    const half = Math.floor(events.length / 2);
    await writer.save(metaOf(conversation), events.slice(0, half));
    expect((await reader.loadSince(conversation.id, 0))).toMatchObject({ from: 0, events: events.slice(0, half) });
    await writer.save(metaOf(conversation), events);
    const update = await reader.loadSince(conversation.id, half);
    expect(update).toMatchObject({ from: half });
    expect(update !== "deleted" && update?.events).toEqual(events.slice(half));
    // The reader now writes on after what it read; the writer reads it back.
    const more = (await recordedLogs()).memory!.map((event) => ({ ...event, runId: `${event.runId}-again` }));
    await reader.save(metaOf(conversation), [...events, ...more]);
    const back = await writer.loadSince(conversation.id, events.length);
    expect(back !== "deleted" && back?.events).toEqual(more);
    expect((await createIndexedDbRepository(factory).load(conversation.id))?.events).toEqual([...events, ...more]);
  });

  it("loads a conversation saved before the encoding (plain chunks), and saves on after it", async () => {
    const events = Object.values(await recordedLogs()).flat();
    const factory = new IDBFactory();
    const conversation = createConversation(1);
    await writeOldFormat(factory, conversation, events, 50);
    const repo = createIndexedDbRepository(factory);
    expect((await repo.load(conversation.id))?.events).toEqual(events);
    // New events refer to the old chunks' texts (the same reply, the same prompts).
    const more = (await recordedLogs()).branch!.map((event) => ({ ...event, runId: `${event.runId}-2` }));
    await repo.save(metaOf(conversation), [...events, ...more]);
    const chunks = await storedChunks(factory);
    expect(chunks.filter((chunk) => chunk.encoding === undefined)).toHaveLength(Math.ceil(events.length / 50));
    expect(chunks.filter((chunk) => chunk.encoding === "shared-text-1").length).toBeGreaterThan(0);
    expect((await createIndexedDbRepository(factory).load(conversation.id))?.events).toEqual([...events, ...more]);
    // A repository that has saved other conversations since (what it kept of this log is gone,
    // and is rebuilt from the events in memory, old chunks included) writes on the same way.
    const third = (await recordedLogs()).native!.map((event) => ({ ...event, runId: `${event.runId}-3` }));
    for (let i = 0; i < 10; i += 1) await repo.save(metaOf(createConversation(2 + i)), more);
    await repo.save(metaOf(conversation), [...events, ...more, ...third]);
    expect((await createIndexedDbRepository(factory).load(conversation.id))?.events).toEqual([...events, ...more, ...third]);
  });

  it("stores each chunk's records as a Blob of their JSON (not cloned in the page's task), and still reads chunks stored as objects before", async () => {
    const events = Object.values(await recordedLogs()).flat();
    const factory = new IDBFactory();
    const conversation = createConversation(1);
    await createIndexedDbRepository(factory, { chunkEvents: 40 }).save(metaOf(conversation), events);
    const chunks = await rawChunks(factory);
    expect(chunks).toHaveLength(Math.ceil(events.length / 40));
    expect(chunks.every((chunk) => chunk.eventsBlob instanceof Blob && chunk.events === undefined)).toBe(true);
    expect((await createIndexedDbRepository(factory).load(conversation.id))?.events).toEqual(events);
    // The same chunks as a build before the blobs stored them: the encoded records as objects.
    const db = await openRaw(factory);
    const asObjects = await Promise.all(chunks.map(async ({ eventsBlob, ...chunk }) => ({ ...chunk, events: JSON.parse(await eventsBlob!.text()) as unknown[] })));
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction("eventChunks", "readwrite");
      for (const chunk of asObjects) tx.objectStore("eventChunks").put(chunk);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    expect((await rawChunks(factory)).some((chunk) => chunk.eventsBlob)).toBe(false);
    const repo = createIndexedDbRepository(factory);
    expect((await repo.load(conversation.id))?.events).toEqual(events);
    // Written on after them, in blobs, with references into the old chunks' texts.
    const more = (await recordedLogs()).branch!.map((event) => ({ ...event, runId: `${event.runId}-2` }));
    await repo.save(metaOf(conversation), [...events, ...more]);
    expect((await createIndexedDbRepository(factory).load(conversation.id))?.events).toEqual([...events, ...more]);
  });

  it("a tab whose save is refused reads the other tab's blob chunks and hands them back", async () => {
    const factory = new IDBFactory();
    const conversation = createConversation(1);
    const logs = await recordedLogs();
    const first = createIndexedDbRepository(factory);
    const second = createIndexedDbRepository(factory);
    await first.save(metaOf(conversation), logs.memory!);
    expect((await second.load(conversation.id))?.events).toEqual(logs.memory);
    const more = logs.branch!.map((event) => ({ ...event, runId: `${event.runId}-2` }));
    await second.save(metaOf(conversation), [...logs.memory!, ...more]);
    const refused = await first.save(metaOf(conversation), [...logs.memory!, ...logs.native!]);
    expect(refused.status).toBe("changed");
    expect(refused.status === "changed" && refused.stored.events).toEqual([...logs.memory!, ...more]);
  });

  it("gives the page a turn before each chunk of a large save but the first, and a small save none (it must be issued at once as the page closes)", async () => {
    const events = Object.values(await recordedLogs()).flat();
    const factory = new IDBFactory();
    let pauses = 0;
    const repo = createIndexedDbRepository(factory, { chunkEvents: 50, pause: async () => void (pauses += 1) });
    const conversation = createConversation(1);
    await repo.save(metaOf(conversation), events.slice(0, 30));
    expect(pauses).toBe(0);
    await repo.save(metaOf(conversation), events);
    expect(pauses).toBe(Math.ceil((events.length - 30) / 50) - 1);
    expect((await createIndexedDbRepository(factory).load(conversation.id))?.events).toEqual(events);
  });
});
