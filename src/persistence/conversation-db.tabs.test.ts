// Two tabs on one database: each tab has its own repository over the same IndexedDB. A write
// that another tab's write came before must not overwrite it, and a deleted conversation must
// stay deleted, whatever a tab that still shows it writes.
import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { createConversation, metaOf } from "../domain/conversation.ts";
import { toolCallRun } from "../store/test-events.ts";
import { createIndexedDbRepository } from "./conversation-db.ts";

const user = (content: string) => [{ role: "user" as const, content }];

function twoTabs(chunkEvents?: number) {
  const factory = new IDBFactory();
  const options = chunkEvents ? { chunkEvents } : {};
  return { factory, a: createIndexedDbRepository(factory, options), b: createIndexedDbRepository(factory, options) };
}

describe("two tabs writing one conversation", () => {
  it("refuses a write made from a view another tab's write has outdated, and hands back what is stored", async () => {
    const { a, b } = twoTabs();
    const conversation = createConversation(100);
    const a1 = toolCallRun("a1", user("A1"));
    await a.save(metaOf(conversation), a1);
    await b.load(conversation.id); // tab B opens the conversation
    const a2 = [...a1, ...toolCallRun("a2", user("A2"))];
    expect(await a.save(metaOf(conversation), a2)).toEqual({ status: "saved" });

    // B writes B2 on top of its view (A1 only): refused, nothing overwritten.
    const b2 = [...a1, ...toolCallRun("b2", user("B2"))];
    const result = await b.save(metaOf(conversation), b2);
    expect(result.status).toBe("changed");
    if (result.status !== "changed") return;
    expect(result.stored.events).toEqual(a2);
    expect(result.base.eventCount).toBe(a1.length);
    expect((await a.load(conversation.id))?.events).toEqual(a2);

    // Having seen what is stored, B's next write lands on top of it.
    const merged = [...a2, ...toolCallRun("b2", user("B2"))];
    expect(await b.save(metaOf(conversation), merged)).toEqual({ status: "saved" });
    expect((await a.load(conversation.id))?.events).toEqual(merged);
  });

  it("refuses a settings-only write from an outdated view too", async () => {
    const { a, b } = twoTabs();
    const conversation = createConversation(100);
    await a.save(metaOf(conversation), []);
    await b.load(conversation.id);
    await a.save({ ...metaOf(conversation), title: "Renamed in A" }, []);
    const result = await b.save({ ...metaOf(conversation), settings: { ...conversation.settings, maxSteps: 2 } }, []);
    expect(result.status).toBe("changed");
    expect((await a.load(conversation.id))?.title).toBe("Renamed in A");
    expect((await a.load(conversation.id))?.settings.maxSteps).toBe(conversation.settings.maxSteps);
  });

  it("keeps the first of two writes made at once from the same view", async () => {
    const { a, b } = twoTabs();
    const conversation = createConversation(100);
    const base = toolCallRun("a1", user("A1"));
    await a.save(metaOf(conversation), base);
    await b.load(conversation.id);
    const fromA = [...base, ...toolCallRun("a2", user("A2"))];
    const fromB = [...base, ...toolCallRun("b2", user("B2"))];
    const [resultA, resultB] = await Promise.all([a.save(metaOf(conversation), fromA), b.save(metaOf(conversation), fromB)]);
    expect([resultA.status, resultB.status].sort()).toEqual(["changed", "saved"]);
    const kept = resultA.status === "saved" ? fromA : fromB;
    expect((await a.load(conversation.id))?.events).toEqual(kept);
  });

  it("checks a large save cut into chunks against what another tab wrote in between", async () => {
    const { a, b } = twoTabs(3);
    const conversation = createConversation(100);
    const base = toolCallRun("a1", user("A1"));
    await a.save(metaOf(conversation), base);
    await b.load(conversation.id);
    const big = [...base, ...toolCallRun("a2", user("A2")), ...toolCallRun("a3", user("A3"))];
    const small = [...base, ...toolCallRun("b2", user("B2")).slice(0, 2)];
    const saving = a.save(metaOf(conversation), big); // many chunks, each in its own transaction
    const fromB = await b.save(metaOf(conversation), small);
    const fromA = await saving;
    expect([fromA.status, fromB.status]).toContain("saved");
    const loaded = (await a.load(conversation.id))?.events;
    expect([big, small]).toContainEqual(loaded);
  });
});

describe("a conversation deleted in one tab while another writes to it", () => {
  it("stays deleted: the other tab's next write is refused as deleted", async () => {
    const { a, b } = twoTabs();
    const conversation = createConversation(100);
    const run = toolCallRun("a1", user("count slowly"));
    await a.save(metaOf(conversation), run.slice(0, 4)); // tab A is streaming
    await b.load(conversation.id);
    await b.delete(conversation.id);
    expect(await a.save(metaOf(conversation), run.slice(0, 9))).toEqual({ status: "deleted" });
    expect(await a.save(metaOf(conversation), run)).toEqual({ status: "deleted" });
    expect(await b.list()).toEqual([]);
    expect(await a.load(conversation.id)).toBeNull();
    expect(await b.load(conversation.id)).toBeNull();
  });

  it("stays deleted for a tab whose view was already outdated, and for a meta-only write", async () => {
    const { a, b } = twoTabs();
    const conversation = createConversation(100);
    const run: LoopEvent[] = toolCallRun("a1", user("hi"));
    await a.save(metaOf(conversation), run.slice(0, 3));
    await b.load(conversation.id);
    await a.save(metaOf(conversation), run.slice(0, 6));
    await a.save(metaOf(conversation), run.slice(0, 9));
    await a.delete(conversation.id);
    expect(await b.save({ ...metaOf(conversation), title: "late rename" }, run.slice(0, 3))).toEqual({ status: "deleted" });
    expect(await b.save(metaOf(conversation), run)).toEqual({ status: "deleted" });
    expect(await a.list()).toEqual([]);
  });
});

describe("reading what another tab added", () => {
  it("reads only the events stored past the ones this tab holds", async () => {
    const { a, b } = twoTabs(4);
    const conversation = createConversation(100);
    const a1 = toolCallRun("a1", user("A1"));
    await a.save(metaOf(conversation), a1);
    expect((await b.load(conversation.id))?.events).toEqual(a1);
    const a2 = [...a1, ...toolCallRun("a2", user("A2"))];
    await a.save({ ...metaOf(conversation), title: "Two" }, a2);
    expect(await b.loadSince(conversation.id, a1.length)).toMatchObject({ from: a1.length, events: a2.slice(a1.length), title: "Two" });
    // Nothing new: an empty tail.
    expect(await b.loadSince(conversation.id, a2.length)).toMatchObject({ from: a2.length, events: [] });
    // A tab holding something else than what it last read gets the whole log.
    expect(await b.loadSince(conversation.id, 3)).toMatchObject({ from: 0, events: a2 });
    await a.delete(conversation.id);
    expect(await b.loadSince(conversation.id, a2.length)).toBe("deleted");
    expect(await b.loadSince("never-saved", 0)).toBeNull();
  });
});
