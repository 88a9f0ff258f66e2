// What the store lets become the open conversation: settings checked field by field (from a
// file or from storage), a conversation whose showing never finished not reopened blindly at
// start, and storage failures worded once.
import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIndexedDbRepository, type ConversationRepository } from "../persistence/conversation-db.ts";
import { createConversation, defaultSettings, metaOf, type Conversation, type ConversationSettings } from "../domain/conversation.ts";
import { createConversations, type Conversations } from "./conversation-store.ts";
import { createTabStatusStore } from "./tab-status.ts";
import { markShown } from "./render-guard.ts";
import { toolCallRun } from "./test-events.ts";

/** A page's conversations; a new one stands for a reload (the page's state is gone, storage stays). */
const newPage = (): Conversations => createConversations({ tabStatus: createTabStatusStore() });
let page = newPage();

const state = () => page.store.getState();

/** localStorage as a page has it (Node has none). */
function installLocalStorage(): void {
  const values = new Map<string, string>();
  (globalThis as { localStorage?: Storage }).localStorage = {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, String(value)),
    removeItem: (key) => void values.delete(key),
    clear: () => values.clear(),
    key: (i) => [...values.keys()][i] ?? null,
    get length() {
      return values.size;
    },
  };
}

beforeEach(() => {
  installLocalStorage();
  page = newPage();
});
afterEach(() => {
  delete (globalThis as { localStorage?: Storage }).localStorage;
});

function withSettings(settings: unknown): Conversation {
  return { ...createConversation(1), title: "Imported", settings: settings as ConversationSettings, events: toolCallRun("r1", [{ role: "user", content: "hi" }]) };
}

describe("opening a conversation", () => {
  it("checks an imported conversation's settings field by field and names what was reset", async () => {
    await page.conversationActions.init(createIndexedDbRepository(new IDBFactory()));
    await page.conversationActions.adopt(withSettings({ ...defaultSettings, disabledTools: {}, systemPrompt: 5, maxSteps: "abc", temperature: 0.3 }));
    const { settings } = state().active!;
    expect(settings.disabledTools).toEqual([]);
    expect(settings.systemPrompt).toBe("");
    expect(settings.maxSteps).toBe(8);
    expect(settings.temperature).toBe(0.3);
    expect(state().conversationNotice).toMatch(/Some settings of "Imported" were not usable and were reset: maxSteps .*; systemPrompt .*; disabledTools/);
    expect(state().active!.events).toHaveLength(toolCallRun("r1", []).length);
  });

  it("checks settings stored by an older or broken version when it opens them, and saves them repaired", async () => {
    const factory = new IDBFactory();
    const repo = createIndexedDbRepository(factory);
    const stored = withSettings({ ...defaultSettings, maxSteps: 121, research: "none" });
    await repo.save(metaOf(stored), stored.events);
    await page.conversationActions.init(repo);
    expect(state().active!.id).toBe(stored.id);
    expect(state().active!.settings).toEqual(defaultSettings);
    expect(state().conversationNotice).toMatch(/maxSteps .*; research/);
    await page.saveActive();
    expect((await repo.load(stored.id))!.settings).toEqual(defaultSettings);

    await page.conversationActions.create();
    expect(state().conversationNotice).toBeNull();
  });

  it("does not reopen at start a conversation whose showing never finished, and says so", async () => {
    const factory = new IDBFactory();
    await page.conversationActions.init(createIndexedDbRepository(factory));
    const crashing = withSettings(defaultSettings);
    await page.conversationActions.adopt(crashing);
    // The page dies before the chat has shown it (no markShown): the next start opens an empty one.
    page = newPage(); // a reload: the page's state is gone, storage stays
    await page.conversationActions.init(createIndexedDbRepository(factory));
    expect(state().active!.id).not.toBe(crashing.id);
    expect(state().active!.events).toEqual([]);
    expect(state().list.map((m) => m.id)).toContain(crashing.id);
    expect(state().conversationNotice).toMatch(/The page stopped while showing "Imported" last time, so it was not reopened/);

    // Opened again by hand and shown this time: the next start reopens it as usual.
    await page.conversationActions.open(crashing.id);
    markShown(crashing.id);
    page = newPage(); // a reload: the page's state is gone, storage stays
    await page.conversationActions.init(createIndexedDbRepository(factory));
    expect(state().active!.id).toBe(crashing.id);
    expect(state().conversationNotice).toBeNull();
  });

  it("words a storage failure once, even when the browser's message ends in a full stop", async () => {
    const real = createIndexedDbRepository(new IDBFactory());
    const failing: ConversationRepository = { ...real, save: () => Promise.reject(new Error("The conversation could not be saved.")) };
    await page.conversationActions.init(failing);
    await page.saveActive();
    expect(state().storageError).toBe(
      "Could not save the conversation: The conversation could not be saved. Your conversation is still on this page; export it to keep a copy.",
    );
  });
});
