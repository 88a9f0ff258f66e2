// Conversations in IndexedDB. The event log is append-only, so it is stored in chunks: a save
// writes only the events added since the last save (cheap while a long run streams), and a
// load concatenates the chunks in order. A large save (an imported session) is cut into chunks
// of a bounded number of events, each copied and written in its own transaction, so no single
// task of the page copies megabytes; the conversation's record, which says how many chunks
// count, is written last, so a save cut short leaves the stored conversation as it was.
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

/** Events per stored chunk: copying and writing this many takes a few milliseconds. */
const CHUNK_EVENTS = 200;

export function createIndexedDbRepository(
  factory: IDBFactory | null = globalThis.indexedDB ?? null,
  { chunkEvents = CHUNK_EVENTS }: { chunkEvents?: number } = {},
): ConversationRepository {
  let dbPromise: Promise<IDBDatabase> | null = null;
  // The open database once it is open, and what this tab last stored of each conversation: with
  // both known, a save issues its writes in the same task it is called in (no read first), which
  // is what lets a save made as the page is hidden or closed land.
  let opened: IDBDatabase | null = null;
  const stored = new Map<string, { eventCount: number; chunkCount: number }>();
  const db = () => {
    dbPromise ??= openDatabase(factory, DB_NAME, DB_VERSION, (database) => {
      if (!database.objectStoreNames.contains(CONVERSATIONS)) database.createObjectStore(CONVERSATIONS, { keyPath: "id" });
      if (!database.objectStoreNames.contains(EVENT_CHUNKS)) database.createObjectStore(EVENT_CHUNKS, { keyPath: ["conversationId", "seq"] });
    }).then(
      (database) => (opened = database),
      (error: unknown) => {
        dbPromise = null; // let a later attempt try again
        throw error;
      },
    );
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
      // Chunks past the record's count are left from a save that did not finish: not part of the log.
      const counted = record.chunkCount > 0 ? IDBKeyRange.bound([id, 0], [id, record.chunkCount - 1]) : null;
      const chunks = counted ? await requestToPromise(tx.objectStore(EVENT_CHUNKS).getAll(counted) as IDBRequest<EventChunkRecord[]>) : [];
      chunks.sort((a, b) => a.seq - b.seq);
      const events = chunks.flatMap((chunk) => chunk.events).slice(0, record.eventCount);
      stored.set(id, { eventCount: record.eventCount, chunkCount: record.chunkCount });
      return { ...metaFromRecord(record), events };
    },

    async save(meta, events) {
      const database = opened ?? (await db());
      let tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readwrite");
      let done = transactionDone(tx);
      const known = stored.get(meta.id);
      stored.delete(meta.id); // until this save commits, what is stored is read afresh
      const existing = known ?? (await requestToPromise(tx.objectStore(CONVERSATIONS).get(meta.id) as IDBRequest<ConversationRecord | undefined>));
      let eventCount = existing?.eventCount ?? 0;
      let chunkCount = existing?.chunkCount ?? 0;
      // The log never shrinks in the app; if it did, it is rewritten rather than keep stale events.
      const rewrite = events.length < eventCount;
      if (rewrite) {
        tx.objectStore(EVENT_CHUNKS).delete(chunkRange(meta.id));
        eventCount = 0;
        chunkCount = 0;
      }
      const added = events.slice(eventCount);
      const slices: LoopEvent[][] = [];
      for (let at = 0; at < added.length; at += chunkEvents) slices.push(added.slice(at, at + chunkEvents));
      const putChunk = (target: IDBTransaction, slice: LoopEvent[]) => {
        target.objectStore(EVENT_CHUNKS).put({ conversationId: meta.id, seq: chunkCount, events: toStorable(slice) } satisfies EventChunkRecord);
        chunkCount += 1;
        eventCount += slice.length;
      };
      // A large save (an imported session): every chunk but the last is written in a
      // transaction of its own (the page gets a turn between them), and the record is not
      // touched until the last, so a save cut short leaves the stored conversation as it was
      // (a load reads only the chunks the record counts).
      if (!rewrite) {
        for (const slice of slices.slice(0, -1)) {
          putChunk(tx, slice);
          await done;
          tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readwrite");
          done = transactionDone(tx);
        }
      }
      for (const slice of rewrite ? slices : slices.slice(-1)) putChunk(tx, slice);
      const next: ConversationRecord = { ...toStorable(meta), eventCount, chunkCount };
      tx.objectStore(CONVERSATIONS).put(next);
      // Nothing more will be asked of it: commit now rather than when the page next gets a turn.
      tx.commit?.();
      await done;
      stored.set(meta.id, { eventCount, chunkCount });
    },

    async delete(id) {
      stored.delete(id);
      const database = opened ?? (await db());
      const tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readwrite");
      const done = transactionDone(tx);
      tx.objectStore(CONVERSATIONS).delete(id);
      tx.objectStore(EVENT_CHUNKS).delete(chunkRange(id));
      await done;
    },
  };
}
