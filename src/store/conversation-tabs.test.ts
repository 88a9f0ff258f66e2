// Two tabs of the lab in one test: each "tab" has stores of its own (conversations, tab status,
// run controller and repository) over one IndexedDB, linked (or not) by a BroadcastChannel as
// tabs of one browser are.
import { IDBFactory } from "fake-indexeddb";
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatMessage, Engine, LoopEvent, Protocol } from "toolcall-middleware/types.ts";
import { createIndexedDbRepository } from "../persistence/conversation-db.ts";
import { createTabLink, soloTabLink, type TabLink } from "../persistence/tab-link.ts";
import { createConversations } from "./conversation-store.ts";
import { followOtherTabs } from "./follow-other-tabs.ts";
import { createRunController, createRunStore } from "./run-controller.ts";
import { createTabStatusStore } from "./tab-status.ts";
import { toolCallRun } from "./test-events.ts";
import { samplingDefaultsFor } from "toolcall-middleware/families/registry.ts";

const opened: TabLink[] = [];
afterEach(() => {
  for (const link of opened.splice(0)) link.close();
});

const engine: Engine = { name: "fake", generate: async function* () {} };
const protocol = { name: "hermes", label: "Hermes" } as Protocol;

/** A loop that answers "reply to <message>" at once. */
async function* answer(options: { messages: ChatMessage[] }): AsyncGenerator<LoopEvent> {
  const runId = `run-${Math.random().toString(36).slice(2)}`;
  const last = options.messages[options.messages.length - 1]!;
  yield { type: "run-start", runId, at: Date.now(), protocol: "hermes", messages: options.messages, tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } };
  const reply: ChatMessage = { role: "assistant", content: `reply to ${last.content}` };
  yield { type: "run-end", runId, at: Date.now(), status: "final", messages: [...options.messages, reply] };
}

async function openTab(factory: IDBFactory, link: TabLink = soloTabLink) {
  const tabStatus = createTabStatusStore();
  const store = createConversations({ tabStatus });
  const runStore = createRunStore();
  const run = createRunController({ run: runStore, conversations: store });
  run.configureRunEnvironment({
    runLoop: answer,
    resolveProtocol: async () => protocol,
    resolveEngine: () => ({ engine }),
    resolveTools: () => [],
    protocolName: () => "hermes",
    samplingDefaults: () => samplingDefaultsFor("Qwen3-1.7B-q4f16_1-MLC", true),
  });
  await store.conversationActions.init(createIndexedDbRepository(factory), link);
  const stopFollowing = followOtherTabs(link, { conversations: store, tabStatus });
  opened.push({ ...soloTabLink, close: stopFollowing });
  const active = () => store.store.getState().active!;
  return { ...store, ...run, runStore, tabStatus, active };
}

function linked(): TabLink {
  const link = createTabLink({ channel: new BroadcastChannel("toolcall-lab:test"), locks: null });
  opened.push(link);
  return link;
}

/** The user message each run in the log answered, in order. */
function asked(events: readonly LoopEvent[]): string[] {
  return events.flatMap((e) => (e.type === "run-start" && !e.parent ? [String(e.messages[e.messages.length - 1]?.content)] : []));
}

describe("two tabs, one conversation", () => {
  it("a tab whose view is out of date loads the latest log before it sends: A1, A2, B2, A3", async () => {
    const factory = new IDBFactory();
    const a = await openTab(factory);
    await a.sendMessage("A1");
    const b = await openTab(factory); // no messages between the tabs: B never hears of A2
    await b.conversationActions.open(a.active().id);
    expect(asked(b.active().events)).toEqual(["A1"]);

    await a.sendMessage("A2");
    expect(asked(b.active().events)).toEqual(["A1"]); // B's view is out of date
    expect(await b.sendMessage("B2")).toBe(true);
    expect(asked(b.active().events)).toEqual(["A1", "A2", "B2"]);
    // B's turn was built on A2: its prompt's history holds it.
    const b2 = b.active().events.filter((e) => e.type === "run-start").at(-1)!;
    expect(b2.type === "run-start" && b2.messages.map((m) => m.content)).toEqual(["A1", "reply to A1", "A2", "reply to A2", "B2"]);
    expect(b.tabStatus.getState().notice).toMatchObject({ kind: "refreshed" });

    await a.sendMessage("A3");
    expect(asked(a.active().events)).toEqual(["A1", "A2", "B2", "A3"]);
    const stored = await createIndexedDbRepository(factory).load(a.active().id);
    expect(asked(stored!.events)).toEqual(["A1", "A2", "B2", "A3"]);
  });

  it("follows another tab's saves when told of them", async () => {
    const factory = new IDBFactory();
    const a = await openTab(factory, linked());
    await a.sendMessage("A1");
    const b = await openTab(factory, linked());
    await b.conversationActions.open(a.active().id);
    await a.sendMessage("A2");
    await vi.waitFor(() => expect(asked(b.active().events)).toEqual(["A1", "A2"]));
    await a.conversationActions.rename(a.active().id, "Renamed in A");
    await vi.waitFor(() => expect(b.active().title).toBe("Renamed in A"));
  });

  it("two tabs writing at once (no locks) both keep their events, and the second is told", async () => {
    const factory = new IDBFactory();
    const a = await openTab(factory);
    await a.sendMessage("A1");
    const b = await openTab(factory);
    await b.conversationActions.open(a.active().id);
    const id = a.active().id;
    for (const event of toolCallRun("a2", [{ role: "user", content: "A2" }])) a.conversationActions.appendEvent(id, event);
    for (const event of toolCallRun("b2", [{ role: "user", content: "B2" }])) b.conversationActions.appendEvent(id, event);
    await a.saveActive();
    await b.saveActive();
    const stored = await createIndexedDbRepository(factory).load(id);
    expect(asked(stored!.events)).toEqual(["A1", "A2", "B2"]);
    expect(asked(b.active().events)).toEqual(["A1", "A2", "B2"]);
    expect(b.tabStatus.getState().notice).toMatchObject({ kind: "merged", fromHere: 18 });
  });

  it("keeps a title set in another tab while this tab writes, and this tab's events", async () => {
    const factory = new IDBFactory();
    const a = await openTab(factory);
    await a.sendMessage("A1");
    const b = await openTab(factory);
    const id = a.active().id;
    await b.conversationActions.rename(id, "Named in B"); // B has another conversation open
    await a.sendMessage("A2");
    const stored = await createIndexedDbRepository(factory).load(id);
    expect(stored?.title).toBe("Named in B");
    expect(asked(stored!.events)).toEqual(["A1", "A2"]);
    expect(a.active().title).toBe("Named in B");
    expect(a.tabStatus.getState().notice).toBeNull(); // nothing to tell: nothing was at stake
  });

  it("a conversation deleted in one tab stays deleted while the other streams into it; that tab says so and can keep its copy", async () => {
    const factory = new IDBFactory();
    const a = await openTab(factory, linked());
    await a.sendMessage("A1");
    const id = a.active().id;
    const b = await openTab(factory, linked());
    await b.conversationActions.open(id);
    const streaming = toolCallRun("a2", [{ role: "user", content: "A2" }]);
    const firstTurn = a.active().events.length;
    for (const event of streaming.slice(0, 5)) a.conversationActions.appendEvent(id, event);
    await a.saveActive();

    await b.conversationActions.remove(id);
    await vi.waitFor(() => expect(a.tabStatus.getState().notice).toMatchObject({ kind: "deleted", conversationId: id }));
    for (const event of streaming.slice(5, 10)) a.conversationActions.appendEvent(id, event);
    await a.saveActive();
    const repo = createIndexedDbRepository(factory);
    expect(await repo.load(id)).toBeNull();
    expect((await repo.list()).map((m) => m.id)).not.toContain(id);
    expect(a.active().events).toHaveLength(firstTurn + 10); // still shown here

    await a.conversationActions.keepAsNew();
    for (const event of streaming.slice(10)) a.conversationActions.appendEvent(id, event); // the turn goes on
    await a.saveActive();
    const kept = await repo.load(a.active().id);
    expect(kept?.title).toMatch(/\(kept\)$/);
    expect(asked(kept!.events)).toEqual(["A1", "A2"]);
    expect(kept!.events.slice(-streaming.length)).toEqual(streaming);
    expect(await repo.load(id)).toBeNull();
  });

  it("a tab does not run a turn in a conversation deleted in another tab", async () => {
    const factory = new IDBFactory();
    const a = await openTab(factory);
    await a.sendMessage("A1");
    const id = a.active().id;
    const b = await openTab(factory);
    await b.conversationActions.remove(id); // A hears nothing of it
    expect(await a.sendMessage("A2")).toBe(false);
    expect(a.runStore.getState().notice).toMatch(/deleted in another tab/);
    expect(a.tabStatus.getState().notice).toMatchObject({ kind: "deleted" });
    expect(await createIndexedDbRepository(factory).load(id)).toBeNull();
  });
});
