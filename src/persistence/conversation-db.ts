// Conversations in IndexedDB. The event log is append-only, so it is stored in chunks: a save
// writes only the events added since the last save (cheap while a long run streams), and a
// load concatenates the chunks in order.
import type { LoopEvent } from "../middleware/types.ts";
import type { Conversation, ConversationMeta } from "../store/conversation.ts";
import { openDatabase, requestToPromise, transactionDone } from "./idb.ts";

const DB_NAME = "toolcall-lab";
const DB_VERSION = 1;
const CONVERSATIONS = "conversations";
const EVENT_CHUNKS = "eventChunks";

interface ConversationRecord extends ConversationMeta {
  eventCount: number;
  chunkCount: number;
}

interface EventChunkRecord {
  conversationId: string;
  seq: number;
  events: LoopEvent[];
}

export interface ConversationRepository {
  /** All conversations, newest first, without their events. */
  list: () => Promise<ConversationMeta[]>;
  load: (id: string) => Promise<Conversation | null>;
  /** Stores the meta and whatever events were added since the last save. */
  save: (meta: ConversationMeta, events: readonly LoopEvent[]) => Promise<void>;
  delete: (id: string) => Promise<void>;
}

function chunkRange(id: string): IDBKeyRange {
  return IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]);
}

/** Plain JSON data only: a tool's result may hold values IndexedDB cannot clone. */
function toStorable<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function metaFromRecord(record: ConversationRecord): ConversationMeta {
  const { eventCount: _e, chunkCount: _c, ...meta } = record;
  return meta;
}

export function createIndexedDbRepository(factory: IDBFactory | null = globalThis.indexedDB ?? null): ConversationRepository {
  let dbPromise: Promise<IDBDatabase> | null = null;
  const db = () => {
    dbPromise ??= openDatabase(factory, DB_NAME, DB_VERSION, (database) => {
      if (!database.objectStoreNames.contains(CONVERSATIONS)) database.createObjectStore(CONVERSATIONS, { keyPath: "id" });
      if (!database.objectStoreNames.contains(EVENT_CHUNKS)) database.createObjectStore(EVENT_CHUNKS, { keyPath: ["conversationId", "seq"] });
    }).catch((error: unknown) => {
      dbPromise = null; // let a later attempt try again
      throw error;
    });
    return dbPromise;
  };

  return {
    async list() {
      const database = await db();
      const tx = database.transaction(CONVERSATIONS, "readonly");
      const records = await requestToPromise(tx.objectStore(CONVERSATIONS).getAll() as IDBRequest<ConversationRecord[]>);
      return records.map(metaFromRecord).sort((a, b) => b.updatedAt - a.updatedAt);
    },

    async load(id) {
      const database = await db();
      const tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readonly");
      const record = await requestToPromise(tx.objectStore(CONVERSATIONS).get(id) as IDBRequest<ConversationRecord | undefined>);
      if (!record) return null;
      const chunks = await requestToPromise(tx.objectStore(EVENT_CHUNKS).getAll(chunkRange(id)) as IDBRequest<EventChunkRecord[]>);
      chunks.sort((a, b) => a.seq - b.seq);
      const events = chunks.flatMap((chunk) => chunk.events).slice(0, record.eventCount);
      return { ...metaFromRecord(record), events };
    },

    async save(meta, events) {
      const database = await db();
      const tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readwrite");
      const done = transactionDone(tx);
      const conversations = tx.objectStore(CONVERSATIONS);
      const chunks = tx.objectStore(EVENT_CHUNKS);
      const existing = await requestToPromise(conversations.get(meta.id) as IDBRequest<ConversationRecord | undefined>);
      let eventCount = existing?.eventCount ?? 0;
      let chunkCount = existing?.chunkCount ?? 0;
      if (events.length < eventCount) {
        // The log never shrinks in the app; if it did, rewrite it rather than keep stale events.
        chunks.delete(chunkRange(meta.id));
        eventCount = 0;
        chunkCount = 0;
      }
      if (events.length > eventCount) {
        const record: EventChunkRecord = { conversationId: meta.id, seq: chunkCount, events: toStorable(events.slice(eventCount)) };
        chunks.put(record);
        chunkCount += 1;
        eventCount = events.length;
      }
      const next: ConversationRecord = { ...toStorable(meta), eventCount, chunkCount };
      conversations.put(next);
      await done;
    },

    async delete(id) {
      const database = await db();
      const tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readwrite");
      const done = transactionDone(tx);
      tx.objectStore(CONVERSATIONS).delete(id);
      tx.objectStore(EVENT_CHUNKS).delete(chunkRange(id));
      await done;
    },
  };
}
