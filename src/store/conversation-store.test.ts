import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import { createIndexedDbRepository, type ConversationRepository } from "../persistence/conversation-db.ts";
import { conversationActions, resetConversationStoreForTests, saveActive, useConversationStore } from "./conversation-store.ts";
import { toolCallRun } from "./test-events.ts";

afterEach(() => resetConversationStoreForTests());

const active = () => useConversationStore.getState().active!;

describe("the conversation store", () => {
  it("applies streamed events in one batch and saves them, surviving a 'reload'", async () => {
    const factory = new IDBFactory();
    await conversationActions.init(createIndexedDbRepository(factory));
    const id = active().id;
    const events = toolCallRun("r1", [{ role: "user", content: "hi" }]);
    for (const event of events) conversationActions.appendEvent(id, event);
    expect(active().events).toHaveLength(0); // not yet: batched until the next frame
    conversationActions.flush();
    expect(active().events).toEqual(events);
    await saveActive();

    resetConversationStoreForTests();
    await conversationActions.init(createIndexedDbRepository(factory));
    expect(active().id).toBe(id);
    expect(active().events).toEqual(events);
    expect(useConversationStore.getState().list.map((m) => m.id)).toEqual([id]);
  });

  it("creates, renames, opens and deletes conversations", async () => {
    await conversationActions.init(createIndexedDbRepository(new IDBFactory()));
    const first = active().id;
    const second = (await conversationActions.create()).id;
    expect(useConversationStore.getState().list).toHaveLength(2);
    await conversationActions.rename(first, "  Maths  ");
    expect(useConversationStore.getState().list.find((m) => m.id === first)?.title).toBe("Maths");
    await conversationActions.open(first);
    expect(active().title).toBe("Maths");
    await conversationActions.remove(first);
    expect(active().id).toBe(second);
    expect(useConversationStore.getState().list.map((m) => m.id)).toEqual([second]);
  });

  it("drops events of a conversation that is no longer open", async () => {
    await conversationActions.init(null);
    conversationActions.appendEvent("someone-else", toolCallRun("r1", [])[0]!);
    conversationActions.flush();
    expect(active().events).toHaveLength(0);
  });

  it("shows a storage failure instead of hiding it, and clears it after a good save", async () => {
    let fail = true;
    const real = createIndexedDbRepository(new IDBFactory());
    const flaky: ConversationRepository = {
      ...real,
      save: (meta, events) => (fail ? Promise.reject(new DOMException("quota reached", "QuotaExceededError")) : real.save(meta, events)),
    };
    await conversationActions.init(flaky);
    await saveActive();
    expect(useConversationStore.getState().storageError).toMatch(/Could not save the conversation: QuotaExceededError: quota reached/);
    fail = false;
    await saveActive();
    expect(useConversationStore.getState().storageError).toBeNull();
  });

  it("reports a database that cannot be opened and still gives a working conversation", async () => {
    await conversationActions.init(createIndexedDbRepository(null));
    expect(useConversationStore.getState().storageError).toMatch(/no IndexedDB/);
    expect(active().events).toEqual([]);
  });
});
