// The conversations: the list (for the sessions panel), the open conversation with its event
// log, and the id of the run now streaming. Streamed events are buffered and applied once per
// frame; saves to IndexedDB are throttled while streaming and forced at the end of a run.
import { create } from "zustand";
import type { LoopEvent } from "../middleware/types.ts";
import type { ConversationRepository } from "../persistence/conversation-db.ts";
import { createConversation, metaOf, readSettings, upgradeSettings, type Conversation, type ConversationMeta, type ConversationSettings } from "./conversation.ts";
import { createFrameBatcher } from "./frame-scheduler.ts";
import { markOpening, unfinishedOpening } from "./render-guard.ts";

export interface ConversationState {
  list: ConversationMeta[];
  active: Conversation | null;
  liveRunId: string | null;
  /** A failed load or save, shown as a banner until dismissed or until a save succeeds. */
  storageError: string | null;
  /** What the person should know about the open conversation (settings reset, not reopened). */
  conversationNotice: string | null;
}

export const useConversationStore = create<ConversationState>()(() => ({
  list: [],
  active: null,
  liveRunId: null,
  storageError: null,
  conversationNotice: null,
}));

const SAVE_INTERVAL_MS = 1000;
const ACTIVE_KEY = "toolcall-lab:active-conversation";

let repository: ConversationRepository | null = null;
let pending: LoopEvent[] = [];
/** The conversation the pending events belong to. */
let pendingFor: string | null = null;
let saveTimer: ReturnType<typeof setTimeout> | null = null;
let saveChain: Promise<void> = Promise.resolve();

function describe(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}

function reportStorageError(action: string, error: unknown): void {
  // The browser's messages often end in a full stop already ("…could not be saved.").
  const reason = describe(error).replace(/[\s.]+$/, "");
  useConversationStore.setState({ storageError: `Could not ${action}: ${reason}. Your conversation is still on this page; export it to keep a copy.` });
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
  useConversationStore.setState({ active: shown, conversationNotice: [notice, settingsNotice].filter(Boolean).join(" ") || null });
  return shown;
}

const batcher = createFrameBatcher(() => {
  if (pending.length === 0) return;
  const { active } = useConversationStore.getState();
  const batch = pending;
  pending = [];
  if (!active || active.id !== pendingFor) return;
  const last = batch[batch.length - 1]!;
  useConversationStore.setState({ active: { ...active, events: active.events.concat(batch), updatedAt: Math.max(active.updatedAt, last.at) } });
});

/** Top-level runs this page started (a run in the log that is not one of them ran before a reload). */
const runsStartedHere = new Set<string>();

/** The whole page failed while this conversation was open: the next start must not reopen it blindly. */
export function markActiveAsFailing(): void {
  const { active } = useConversationStore.getState();
  if (active) markOpening(active.id);
}

export function startedOnThisPage(runId: string): boolean {
  return runsStartedHere.has(runId);
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

/** Saves the open conversation now (chained so saves never overlap). */
export function saveActive(): Promise<void> {
  if (saveTimer) {
    clearTimeout(saveTimer);
    saveTimer = null;
  }
  batcher.flushNow();
  const { active } = useConversationStore.getState();
  if (!active || !repository) return saveChain;
  const repo = repository;
  const meta = metaOf(active);
  const events = active.events;
  saveChain = saveChain
    .then(() => repo.save(meta, events))
    .then(
      () => {
        if (useConversationStore.getState().storageError) useConversationStore.setState({ storageError: null });
      },
      (error: unknown) => reportStorageError("save the conversation", error),
    );
  useConversationStore.setState((s) => ({ list: upsertMeta(s.list, meta) }));
  return saveChain;
}

function scheduleSave(): void {
  if (saveTimer) return;
  saveTimer = setTimeout(() => {
    saveTimer = null;
    void saveActive();
  }, SAVE_INTERVAL_MS);
}

export const conversationActions = {
  /** Connects storage and opens the last conversation (or a new one). */
  async init(repo: ConversationRepository | null): Promise<void> {
    repository = repo;
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
        useConversationStore.setState({ list });
        showConversation(
          createConversation(),
          `The page stopped while showing "${title}" last time, so it was not reopened. It is in the Conversations list; open it from there to try again.`,
        );
        return;
      }
      const loaded = id ? await repo.load(id) : null;
      useConversationStore.setState({ list });
      showConversation(loaded ?? createConversation());
    } catch (error) {
      reportStorageError("open the saved conversations", error);
      showConversation(createConversation());
    }
  },

  /** Queues a streamed event; it reaches the store with the next frame. */
  appendEvent(conversationId: string, event: LoopEvent): void {
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
    useConversationStore.setState({ liveRunId: runId });
  },

  updateSettings(patch: Partial<ConversationSettings>): void {
    const { active } = useConversationStore.getState();
    if (!active) return;
    useConversationStore.setState({ active: { ...active, settings: { ...active.settings, ...patch } } });
    scheduleSave();
  },

  setReplayOrigin(origin: { engine: string; generation: number }): void {
    const { active } = useConversationStore.getState();
    if (active) useConversationStore.setState({ active: { ...active, replayOrigin: origin } });
  },

  /** Names a conversation after its first message, unless the user already named it. */
  titleFromFirstMessage(text: string): void {
    const { active } = useConversationStore.getState();
    if (!active || active.title !== "New conversation") return;
    const title = text.replace(/\s+/g, " ").trim().slice(0, 60) || "New conversation";
    useConversationStore.setState({ active: { ...active, title } });
  },

  async rename(id: string, title: string): Promise<void> {
    const clean = title.trim() || "Untitled";
    const { active, list } = useConversationStore.getState();
    if (active?.id === id) {
      useConversationStore.setState({ active: { ...active, title: clean } });
      await saveActive();
      return;
    }
    const meta = list.find((m) => m.id === id);
    if (!meta || !repository) return;
    try {
      const conversation = await repository.load(id);
      if (!conversation) return;
      const next = { ...metaOf(conversation), title: clean };
      await repository.save(next, conversation.events);
      useConversationStore.setState((s) => ({ list: s.list.map((m) => (m.id === id ? next : m)) }));
    } catch (error) {
      reportStorageError("rename the conversation", error);
    }
  },

  async open(id: string): Promise<void> {
    const { active } = useConversationStore.getState();
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
    const conversation = createConversation(Date.now(), settings ?? useConversationStore.getState().active?.settings);
    pending = [];
    showConversation(conversation);
    useConversationStore.setState((s) => ({ list: upsertMeta(s.list, metaOf(conversation)) }));
    await saveActive();
    return conversation;
  },

  /** Adds a conversation whose log came from elsewhere (an imported file) and opens it. */
  async adopt(conversation: Conversation): Promise<void> {
    await saveActive();
    pending = [];
    const shown = showConversation(conversation);
    useConversationStore.setState((s) => ({ list: upsertMeta(s.list, metaOf(shown)) }));
    await saveActive();
  },

  async remove(id: string): Promise<void> {
    const { active } = useConversationStore.getState();
    if (repository) {
      try {
        await saveChain;
        await repository.delete(id);
      } catch (error) {
        reportStorageError("delete the conversation", error);
        return;
      }
    }
    useConversationStore.setState((s) => ({ list: s.list.filter((m) => m.id !== id) }));
    if (active?.id === id) {
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = null;
      pending = [];
      useConversationStore.setState({ active: null });
      const next = useConversationStore.getState().list[0];
      if (next) await conversationActions.open(next.id);
      else await conversationActions.create();
    }
  },

  dismissStorageError(): void {
    useConversationStore.setState({ storageError: null });
  },

  dismissConversationNotice(): void {
    useConversationStore.setState({ conversationNotice: null });
  },
};

/** For tests: forget module state between cases. */
export function resetConversationStoreForTests(): void {
  repository = null;
  pending = [];
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = null;
  saveChain = Promise.resolve();
  useConversationStore.setState({ list: [], active: null, liveRunId: null, storageError: null, conversationNotice: null });
}
