// The conversations: the list (for the sessions panel), the open conversation with its event
// log, and the id of the run now streaming. Streamed events are buffered and applied once per
// frame; saves to IndexedDB are throttled while streaming and forced at the end of a run.
// Other tabs may show and write the same conversations: a tab runs a turn only while it holds
// the conversation's write claim, follows the saves other tabs announce, and when storage says
// another tab wrote or deleted the conversation, keeps both versions or stops saving, and says so.
import { createStore, type StoreApi } from "zustand/vanilla";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import type { ConversationRepository } from "../persistence/conversation-db.ts";
import { soloTabLink, type TabLink } from "../persistence/tab-link.ts";
import { createConversation, metaOf, newConversationId, readSettings, upgradeSettings, type Conversation, type ConversationMeta, type ConversationSettings } from "../domain/conversation.ts";
import { createFrameBatcher } from "./frame-scheduler.ts";
import { reconcileConversation } from "./reconcile-conversation.ts";
import { markOpening, unfinishedOpening } from "./render-guard.ts";
import { setWritingElsewhere, showTabNotice, type TabStatusStore } from "./tab-status.ts";

export interface ConversationState {
  list: ConversationMeta[];
  active: Conversation | null;
  liveRunId: string | null;
  /** A failed load or save, shown as a banner until dismissed or until a save succeeds. */
  storageError: string | null;
  /** What the person should know about the open conversation (settings reset, not reopened). */
  conversationNotice: string | null;
}

export type ConversationStore = StoreApi<ConversationState>;

const SAVE_INTERVAL_MS = 1000;
const ACTIVE_KEY = "toolcall-lab:active-conversation";

const WRITING_ELSEWHERE =
  "This conversation is being written in another tab. Your message is kept here: send it again once that tab's turn has finished.";
const DELETED_ELSEWHERE = "This conversation was deleted in another tab. Keep it as a new conversation to go on with it.";

function describe(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}

function rememberActive(id: string | null): void {
  try {
    if (id) localStorage.setItem(ACTIVE_KEY, id);
    else localStorage.removeItem(ACTIVE_KEY);
  } catch {
    // localStorage is only a convenience (which conversation to reopen); IndexedDB holds the data.
  }
}

function rememberedActive(): string | null {
  try {
    return localStorage.getItem(ACTIVE_KEY);
  } catch {
    return null;
  }
}

function upsertMeta(list: ConversationMeta[], meta: ConversationMeta): ConversationMeta[] {
  const rest = list.filter((m) => m.id !== meta.id);
  return [meta, ...rest].sort((a, b) => b.updatedAt - a.updatedAt);
}

/**
 * The page's conversations: the store, the storage and tab link it writes through (given to
 * init), the events waiting for the next frame and the save chain, and the actions on them.
 * `tabStatus` is where it tells the person what other tabs did.
 */
export function createConversations({ tabStatus }: { tabStatus: TabStatusStore }) {
  const conversationStore = createStore<ConversationState>()(() => ({
    list: [],
    active: null,
    liveRunId: null,
    storageError: null,
    conversationNotice: null,
  }));

  let repository: ConversationRepository | null = null;
  let pending: LoopEvent[] = [];
  /** The conversation the pending events belong to. */
  let pendingFor: string | null = null;
  let saveTimer: ReturnType<typeof setTimeout> | null = null;
  let saveChain: Promise<void> = Promise.resolve();
  let tabs: TabLink = soloTabLink;
  /** Conversations another tab deleted: this tab no longer saves them. */
  const deletedElsewhere = new Set<string>();
  /** Conversations this tab runs a turn in, each with the end of that turn's write claim. */
  const writingHere = new Map<string, Promise<void>>();
  /** A conversation kept as a new one: a turn still streaming into the old id lands in the new. */
  const keptAs = new Map<string, string>();

  function reportStorageError(action: string, error: unknown): void {
    // The browser's messages often end in a full stop already ("…could not be saved.").
    const reason = describe(error).replace(/[\s.]+$/, "");
    conversationStore.setState({ storageError: `Could not ${action}: ${reason}. Your conversation is still on this page; export it to keep a copy.` });
  }

  /**
   * Every conversation becomes the open one through here: its settings (from IndexedDB or a
   * file) are checked field by field, and the guard notes that it is being shown.
   */
  function showConversation(conversation: Conversation, notice: string | null = null): Conversation {
    // Stored settings are data from another time (or another program): upgraded from the lab's
    // old fixed sampling values, then checked field by field.
    const raw: unknown = conversation.settings;
    const { settings, problems } = readSettings(typeof raw === "object" && raw !== null && !Array.isArray(raw) ? upgradeSettings(raw as Partial<ConversationSettings>) : raw);
    const settingsNotice =
      problems.length > 0
        ? `Some settings of "${conversation.title}" were not usable and were reset: ${problems.map((p) => `${p.field} (${p.message})`).join("; ")}.`
        : null;
    markOpening(conversation.id);
    rememberActive(conversation.id);
    const shown = { ...conversation, settings };
    conversationStore.setState({ active: shown, conversationNotice: [notice, settingsNotice].filter(Boolean).join(" ") || null });
    return shown;
  }

  const batcher = createFrameBatcher(() => {
    if (pending.length === 0) return;
    const { active } = conversationStore.getState();
    const batch = pending;
    pending = [];
    if (!active || active.id !== pendingFor) return;
    const last = batch[batch.length - 1]!;
    conversationStore.setState({ active: { ...active, events: active.events.concat(batch), updatedAt: Math.max(active.updatedAt, last.at) } });
  });

  /** Top-level runs this page started (a run in the log that is not one of them ran before a reload). */
  const runsStartedHere = new Set<string>();

  /** The whole page failed while this conversation was open: the next start must not reopen it blindly. */
  function markActiveAsFailing(): void {
    const { active } = conversationStore.getState();
    if (active) markOpening(active.id);
  }

  function startedOnThisPage(runId: string): boolean {
    return runsStartedHere.has(runId);
  }

  /** Stops saving a conversation another tab deleted, and tells the person if it is open here. */
  function markDeletedElsewhere(id: string): void {
    deletedElsewhere.add(id);
    conversationStore.setState((s) => ({ list: s.list.filter((m) => m.id !== id) }));
    const { active } = conversationStore.getState();
    if (active?.id !== id) return;
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = null;
    setWritingElsewhere(tabStatus, null);
    showTabNotice(tabStatus, { kind: "deleted", conversationId: id, title: active.title });
  }

  /**
   * Saves a snapshot of a conversation. When another tab wrote it since this tab last saw it,
   * storage refuses; both versions are then kept in one log (the stored one, then this tab's
   * additions) and that is saved instead.
   */
  async function persist(repo: ConversationRepository, meta: ConversationMeta, events: readonly LoopEvent[]): Promise<void> {
    let result = await repo.save(meta, events);
    for (let attempt = 0; result.status === "changed" && attempt < 3; attempt += 1) {
      const merged = reconcileConversation({ ...meta, events: [...events] }, result.base, result.stored);
      const { active } = conversationStore.getState();
      if (active?.id === meta.id) {
        // Events streamed while the save was under way go on after the merged log.
        const since = active.events.slice(events.length);
        conversationStore.setState((s) => ({
          active: { ...merged.conversation, events: merged.conversation.events.concat(since) },
          list: upsertMeta(s.list, metaOf(merged.conversation)),
        }));
      }
      if (merged.fromElsewhere > 0 && merged.fromHere > 0) {
        showTabNotice(tabStatus, { kind: "merged", conversationId: meta.id, fromElsewhere: merged.fromElsewhere, fromHere: merged.fromHere });
      }
      meta = metaOf(merged.conversation);
      events = merged.conversation.events;
      result = await repo.save(meta, events);
    }
    if (result.status === "changed") throw new Error("another tab keeps changing it at the same time; reload this tab to see the latest version");
    if (result.status === "deleted") {
      markDeletedElsewhere(meta.id);
      return;
    }
    tabs.announce({ kind: "saved", conversationId: meta.id, eventCount: events.length });
  }

  /** Saves the open conversation now (chained so saves never overlap). */
  function saveActive(): Promise<void> {
    if (saveTimer) {
      clearTimeout(saveTimer);
      saveTimer = null;
    }
    batcher.flushNow();
    const { active } = conversationStore.getState();
    if (!active || !repository || deletedElsewhere.has(active.id)) return saveChain;
    const repo = repository;
    const meta = metaOf(active);
    const events = active.events;
    saveChain = saveChain
      .then(() => persist(repo, meta, events))
      .then(
        () => {
          if (conversationStore.getState().storageError) conversationStore.setState({ storageError: null });
        },
        (error: unknown) => reportStorageError("save the conversation", error),
      );
    conversationStore.setState((s) => ({ list: upsertMeta(s.list, meta) }));
    return saveChain;
  }

  /**
   * Brings the open conversation up to what is stored (another tab said it saved, or this tab is
   * about to write). Unsaved changes here are saved first, which reconciles them with what is
   * stored. Resolves with the number of events that came from elsewhere.
   */
  function catchUp(id: string): Promise<number> {
    if (saveTimer) void saveActive();
    let fromElsewhere = 0;
    saveChain = saveChain.then(async () => {
      const { active } = conversationStore.getState();
      const repo = repository;
      if (!active || active.id !== id || !repo || deletedElsewhere.has(id)) return;
      const have = active.events.length;
      const update = await repo.loadSince(id, have);
      if (update === "deleted") {
        markDeletedElsewhere(id);
        return;
      }
      if (!update) return; // not saved yet
      const current = conversationStore.getState().active;
      // Anything else (this tab's copy changed meanwhile, or holds events a failed save did not
      // store) is left to the next save, which reconciles it with what is stored.
      if (current?.id !== id || current.events.length !== have || update.from !== have || saveTimer) return;
      const { events, from: _from, ...meta } = update;
      fromElsewhere = events.length;
      if (events.length === 0 && JSON.stringify(meta) === JSON.stringify(metaOf(current))) return;
      conversationStore.setState((s) => ({ active: { ...meta, events: current.events.concat(events) }, list: upsertMeta(s.list, meta) }));
    });
    saveChain = saveChain.catch((error: unknown) => reportStorageError("read the changes made in another tab", error));
    return saveChain.then(() => fromElsewhere);
  }

  function scheduleSave(): void {
    if (saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = null;
      void saveActive();
    }, SAVE_INTERVAL_MS);
  }

  const conversationActions = {
    /** Connects storage and opens the last conversation (or a new one). */
    async init(repo: ConversationRepository | null, link: TabLink = soloTabLink): Promise<void> {
      repository = repo;
      tabs = link;
      if (!repo) {
        showConversation(createConversation());
        return;
      }
      try {
        const list = await repo.list();
        const wanted = rememberedActive();
        const id = list.find((m) => m.id === wanted)?.id ?? list[0]?.id;
        // The page stopped while showing this one last time: do not show it blindly again.
        const unfinished = unfinishedOpening();
        if (id && id === unfinished) {
          const title = list.find((m) => m.id === id)?.title ?? id;
          conversationStore.setState({ list });
          showConversation(
            createConversation(),
            `The page stopped while showing "${title}" last time, so it was not reopened. It is in the Conversations list; open it from there to try again.`,
          );
          return;
        }
        const loaded = id ? await repo.load(id) : null;
        conversationStore.setState({ list });
        showConversation(loaded ?? createConversation());
      } catch (error) {
        reportStorageError("open the saved conversations", error);
        showConversation(createConversation());
      }
    },

    /** Queues a streamed event; it reaches the store with the next frame. */
    appendEvent(streamedInto: string, event: LoopEvent): void {
      const conversationId = keptAs.get(streamedInto) ?? streamedInto;
      if (pendingFor !== conversationId) {
        batcher.flushNow();
        pendingFor = conversationId;
      }
      pending.push(event);
      batcher.schedule();
      scheduleSave();
    },

    flush(): void {
      batcher.flushNow();
    },

    setLiveRun(runId: string | null): void {
      if (runId) runsStartedHere.add(runId);
      conversationStore.setState({ liveRunId: runId });
    },

    updateSettings(patch: Partial<ConversationSettings>): void {
      const { active } = conversationStore.getState();
      if (!active) return;
      conversationStore.setState({ active: { ...active, settings: { ...active.settings, ...patch } } });
      scheduleSave();
    },

    setReplayOrigin(origin: { engine: string; generation: number }): void {
      const { active } = conversationStore.getState();
      if (active) conversationStore.setState({ active: { ...active, replayOrigin: origin } });
    },

    /** Names a conversation after its first message, unless the user already named it. */
    titleFromFirstMessage(text: string): void {
      const { active } = conversationStore.getState();
      if (!active || active.title !== "New conversation") return;
      const title = text.replace(/\s+/g, " ").trim().slice(0, 60) || "New conversation";
      conversationStore.setState({ active: { ...active, title } });
    },

    async rename(id: string, title: string): Promise<void> {
      const clean = title.trim() || "Untitled";
      const { active, list } = conversationStore.getState();
      if (active?.id === id) {
        conversationStore.setState({ active: { ...active, title: clean } });
        await saveActive();
        return;
      }
      const meta = list.find((m) => m.id === id);
      if (!meta || !repository) return;
      try {
        const conversation = await repository.load(id);
        if (!conversation) throw new Error("it is no longer stored (deleted in another tab?)");
        const next = { ...metaOf(conversation), title: clean };
        const result = await repository.save(next, conversation.events);
        if (result.status === "deleted") throw new Error("it was deleted in another tab");
        if (result.status === "changed") throw new Error("another tab changed it at the same moment; try again");
        tabs.announce({ kind: "saved", conversationId: id, eventCount: conversation.events.length });
        conversationStore.setState((s) => ({ list: s.list.map((m) => (m.id === id ? next : m)) }));
      } catch (error) {
        reportStorageError("rename the conversation", error);
      }
    },

    async open(id: string): Promise<void> {
      const { active } = conversationStore.getState();
      if (active?.id === id) return;
      await saveActive();
      if (!repository) return;
      try {
        const loaded = await repository.load(id);
        if (!loaded) throw new Error("it is no longer stored");
        pending = [];
        showConversation(loaded);
      } catch (error) {
        reportStorageError("open that conversation", error);
      }
    },

    async create(settings?: ConversationSettings): Promise<Conversation> {
      await saveActive();
      const conversation = createConversation(Date.now(), settings ?? conversationStore.getState().active?.settings);
      pending = [];
      showConversation(conversation);
      conversationStore.setState((s) => ({ list: upsertMeta(s.list, metaOf(conversation)) }));
      await saveActive();
      return conversation;
    },

    /** Adds a conversation whose log came from elsewhere (an imported file) and opens it. */
    async adopt(conversation: Conversation): Promise<void> {
      await saveActive();
      pending = [];
      const shown = showConversation(conversation);
      conversationStore.setState((s) => ({ list: upsertMeta(s.list, metaOf(shown)) }));
      await saveActive();
    },

    async remove(id: string): Promise<void> {
      const { active } = conversationStore.getState();
      if (repository) {
        try {
          await saveChain;
          await repository.delete(id);
          tabs.announce({ kind: "deleted", conversationId: id });
        } catch (error) {
          reportStorageError("delete the conversation", error);
          return;
        }
      }
      conversationStore.setState((s) => ({ list: s.list.filter((m) => m.id !== id) }));
      if (active?.id === id) {
        if (saveTimer) clearTimeout(saveTimer);
        saveTimer = null;
        pending = [];
        conversationStore.setState({ active: null });
        const next = conversationStore.getState().list[0];
        if (next) await conversationActions.open(next.id);
        else await conversationActions.create();
      }
    },

    dismissStorageError(): void {
      conversationStore.setState({ storageError: null });
    },

    dismissConversationNotice(): void {
      conversationStore.setState({ conversationNotice: null });
    },

    /**
     * Claims the conversation for a turn: refused while another tab runs one there (or after it
     * was deleted elsewhere). Once claimed, this tab's copy is brought up to the stored log, so a
     * turn sent from an outdated view builds on every message. release() ends the claim.
     */
    async claimForTurn(id: string): Promise<{ release: () => void } | { refused: string }> {
      await writingHere.get(id); // this tab's previous turn there is still saving its end
      if (deletedElsewhere.has(id)) return { refused: DELETED_ELSEWHERE };
      const claim = await tabs.claim(id);
      if (!claim) {
        if (conversationStore.getState().active?.id === id) setWritingElsewhere(tabStatus, id);
        return { refused: WRITING_ELSEWHERE };
      }
      let ended!: () => void;
      writingHere.set(id, new Promise<void>((resolve) => (ended = resolve)));
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        writingHere.delete(id);
        claim.release();
        ended();
        tabs.announce({ kind: "turn-ended", conversationId: id });
      };
      if (tabStatus.getState().writingElsewhere === id) setWritingElsewhere(tabStatus, null);
      tabs.announce({ kind: "turn-started", conversationId: id });
      const fromElsewhere = await catchUp(id);
      if (deletedElsewhere.has(id)) {
        release();
        return { refused: DELETED_ELSEWHERE };
      }
      if (fromElsewhere > 0) showTabNotice(tabStatus, { kind: "refreshed", conversationId: id, fromElsewhere });
      return { release };
    },

    /** Another tab saved the open conversation: show what it stored (unless this tab writes it). */
    followStored(): Promise<void> {
      const { active } = conversationStore.getState();
      if (!active || writingHere.has(active.id)) return Promise.resolve();
      return catchUp(active.id).then(() => undefined);
    },

    deletedElsewhere(id: string): void {
      markDeletedElsewhere(id);
    },

    /** The sessions list as stored, after another tab added, renamed or deleted one. */
    async refreshList(): Promise<void> {
      if (!repository) return;
      try {
        const list = await repository.list();
        conversationStore.setState({ list: list.filter((m) => !deletedElsewhere.has(m.id)) });
      } catch (error) {
        reportStorageError("list the saved conversations", error);
      }
    },

    /** Saves what this tab shows of a conversation deleted elsewhere as a new conversation. */
    async keepAsNew(): Promise<void> {
      batcher.flushNow();
      const { active } = conversationStore.getState();
      if (!active) return;
      const copy: Conversation = { ...active, id: newConversationId(), title: `${active.title} (kept)`, createdAt: Date.now() };
      keptAs.set(active.id, copy.id);
      if (pendingFor === active.id) pendingFor = copy.id;
      showTabNotice(tabStatus, null);
      conversationStore.setState((s) => ({ active: copy, list: upsertMeta(s.list, metaOf(copy)) }));
      rememberActive(copy.id);
      await saveActive();
    },

    /** Leaves a conversation deleted elsewhere without keeping it: opens another one. */
    async closeDeleted(): Promise<void> {
      showTabNotice(tabStatus, null);
      conversationStore.setState({ active: null });
      const next = conversationStore.getState().list.find((m) => !deletedElsewhere.has(m.id));
      if (next) await conversationActions.open(next.id);
      else await conversationActions.create();
    },
  };

  /** Another saved conversation's log, read without opening it (to compare its steps); null when none is stored under that id. */
  async function loadConversationEvents(id: string): Promise<readonly LoopEvent[] | null> {
    const active = conversationStore.getState().active;
    if (active?.id === id) return active.events;
    if (!repository) return null;
    return (await repository.load(id))?.events ?? null;
  }

  return { store: conversationStore, markActiveAsFailing, startedOnThisPage, saveActive, conversationActions, loadConversationEvents };
}

export type Conversations = ReturnType<typeof createConversations>;
