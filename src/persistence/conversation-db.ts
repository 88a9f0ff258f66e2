// Conversations in IndexedDB. The event log is append-only, so it is stored in chunks: a save
// writes only the events added since the last save (cheap while a long run streams), and a
// load concatenates the chunks in order. A large save (an imported session) is cut into chunks
// of a bounded number of events, each copied and written in its own transaction, so no single
// task of the page copies megabytes; the conversation's record, which says how many chunks
// count, is written last, so a save cut short leaves the stored conversation as it was.
//
// Several tabs share the database, so a write must not land on top of a conversation another
// tab has changed since this tab last read or wrote it. Every save adds exactly one new chunk
// (an empty one when only the title or settings changed) with `add`, at the chunk number this
// tab expects next; chunk numbers are never reused (a deleted conversation or a rewritten log
// leaves empty placeholders), so if another tab has written since, that chunk number is taken,
// the add fails and the whole transaction (chunk and record) is rolled back. The check is part
// of the write itself, with no read first: a save made as the page closes is still issued in
// the task it is called in and commits at once. Only after a refusal does the repository read
// what is stored, in a transaction of its own, and say what happened ("changed" or "deleted").
//
// A chunk's events are stored in the shared-text encoding (shared-text.ts): a long text that
// an earlier event of the log holds (a reply's output, a message the run-end repeats, the
// prompt the next step grows) is stored as a reference to it, so a reply is stored about once
// rather than five times. References reach back into earlier chunks, so a log is read from its
// first chunk on, or on from where this tab last read or wrote it with what it kept of the log
// then (a codec). Chunks written before the encoding (no `encoding` field) hold plain events
// and are read as they are. A chunk's encoded records are stored as a Blob of their JSON text
// (json-blob.ts: IndexedDB stores it by reference, where it cloned objects in the page's task);
// chunks stored before that hold the records as objects and still read.
import type { LoopEvent } from "toolcall-middleware/types.ts";
import type { Conversation, ConversationMeta } from "../domain/conversation.ts";
import { openDatabase, requestToPromise, transactionDone } from "./idb.ts";
import { jsonBlob, readJsonBlob } from "./json-blob.ts";
import { recordedTokens, sliceEvents } from "../log-encoding/event-slices.ts";
import type { Checkpoint, DecodeIssue, SharedTextCodec } from "../log-encoding/shared-text.ts";

const DB_NAME = "toolcall-lab";
/**
 * 2: event chunks may be stored in the shared-text encoding (a chunk with `encoding`). Raised so a
 * tab still running a build from before it, which would misread such chunks, holds the database
 * at version 1 and blocks this one with a clear message instead ("close it and reload"), and can
 * no longer open it after. Version-1 data needs no change: plain chunks are read as they are.
 *
 * 3: a chunk's records may be stored as a Blob (`eventsBlob`), which a version-2 build cannot
 * read (it expects `events`: the whole conversation would fail to load); raised for the same
 * reason. Older data needs no change.
 */
const DB_VERSION = 3;
const CONVERSATIONS = "conversations";
const EVENT_CHUNKS = "eventChunks";

interface ConversationRecord extends ConversationMeta {
  eventCount: number;
  /** The next chunk number: every number below it is taken (by events, or a placeholder). */
  chunkCount: number;
  /** The log's first chunk; those below it are placeholders left by a rewrite. Absent: 0. */
  firstChunk?: number;
}

/** What a deleted conversation leaves: writes into it are refused as "deleted", not stored. */
interface TombstoneRecord {
  id: string;
  deletedAt: number;
  chunkCount: number;
}

type StoredRecord = ConversationRecord | TombstoneRecord;

interface EventChunkRecord {
  conversationId: string;
  seq: number;
  /** Absent in chunks written before the encoding: their events are stored plain. */
  encoding?: typeof SHARED_TEXT;
  /** The records as objects (chunks stored before the blobs, and placeholders), or… */
  events?: unknown[];
  /** …a Blob of the encoded records' JSON text (stored by reference, not cloned in the page's task). */
  eventsBlob?: Blob;
}

const SHARED_TEXT = "shared-text-1";

/** What this tab last read or wrote of a conversation: a write is built on top of it. */
export interface SeenVersion {
  eventCount: number;
  meta: ConversationMeta | null;
}

export type SaveResult =
  | { status: "saved" }
  /** Nothing was written: the conversation was deleted (in another tab). */
  | { status: "deleted" }
  /**
   * Nothing was written: another tab changed the conversation since `base` (what this tab
   * last saw). `stored` is what is stored now; the next save is checked against it.
   */
  | { status: "changed"; stored: Conversation; base: SeenVersion };

/** The stored log past the first `from` events (from 0: the whole log), and the meta. */
export type StoredUpdate = ConversationMeta & { events: LoopEvent[]; from: number };

export interface ConversationRepository {
  /** All conversations, newest first, without their events. */
  list: () => Promise<ConversationMeta[]>;
  load: (id: string) => Promise<Conversation | null>;
  /**
   * What is stored of a conversation past the first `have` events, when those are the ones this
   * repository last read or wrote; else the whole log (from 0). "deleted" when it was deleted
   * (or is gone since this repository read it); null when it was never stored.
   */
  loadSince: (id: string, have: number) => Promise<StoredUpdate | "deleted" | null>;
  /** Stores the meta and whatever events were added since this tab last read or wrote them. */
  save: (meta: ConversationMeta, events: readonly LoopEvent[]) => Promise<SaveResult>;
  delete: (id: string) => Promise<void>;
}

const SAVED: SaveResult = { status: "saved" };
const DELETED: SaveResult = { status: "deleted" };

function chunkRange(id: string, from = 0, to = Number.MAX_SAFE_INTEGER): IDBKeyRange {
  return IDBKeyRange.bound([id, from], [id, to]);
}

/** Plain JSON data only: a tool's result may hold values IndexedDB cannot clone. */
function toStorable<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function isTombstone(record: StoredRecord): record is TombstoneRecord {
  return "deletedAt" in record;
}

function metaFromRecord(record: ConversationRecord): ConversationMeta {
  const { eventCount: _e, chunkCount: _c, firstChunk: _f, ...meta } = record;
  return meta;
}

/** Deep equality of JSON data (key order aside): whether a save has anything new to write. */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return keysA.length === keysB.length && keysA.every((k) => sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function isConstraintError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "ConstraintError";
}

/** Events per stored chunk: copying and writing this many takes a few milliseconds. */
const CHUNK_EVENTS = 200;
/**
 * Tokens (with their probabilities) a chunk holds at most: encoding a chunk is one task, and
 * the 25 events of an imported step at the bound (250,000 tokens with alternatives) made one
 * chunk that took 2 s at once on a busy machine (load 5–9): 10,000 are under 100 ms there. One
 * event's tokens are never cut.
 */
const CHUNK_TOKENS = 10_000;
/** Conversations whose codec is kept between saves; another one's is rebuilt when it is saved. */
const KEPT_CODECS = 8;
/**
 * Encoding a chunk, or reading a log, for this long gives the page a turn: the codec's paced
 * forms check between events and between pieces of one delta's tokens (TOKENS_PER_PIECE), so no
 * task does more than about this much of it, however many tokens one event holds.
 */
const WORK_SLICE_MS = 12;
/**
 * A save's last (or only) chunk carrying more recorded tokens than this is encoded paced, before
 * its transaction opens, rather than in the task the save is called in: 10,000 tokens with
 * alternatives took 200–400 ms at once on a busy machine. Such a chunk comes from an import or
 * from a delta of thousands of tokens; a save of a few streamed deltas (the one made as the page
 * closes) is still issued at once.
 */
const TOKENS_ENCODED_AT_ONCE = 2_000;
const turnForThePage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A checkpoint that takes a `turn` once `sliceMs` have passed since the last one. */
function timeSlices(turn: () => Promise<void>, sliceMs: number): Checkpoint {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await turn();
    since = performance.now();
  };
}

/** Where this tab's copy of a conversation stands in the store. */
interface Position {
  eventCount: number;
  chunkCount: number;
  firstChunk: number;
  meta: ConversationMeta | null;
}

const NOTHING_STORED: Position = { eventCount: 0, chunkCount: 0, firstChunk: 0, meta: null };

export function createIndexedDbRepository(
  factory: IDBFactory | null = globalThis.indexedDB ?? null,
  {
    chunkEvents = CHUNK_EVENTS,
    chunkTokens = CHUNK_TOKENS,
    pause = turnForThePage,
    workTurn = turnForThePage,
    workSliceMs = WORK_SLICE_MS,
  }: {
    chunkEvents?: number;
    /** Recorded tokens a chunk holds at most (but the tokens of one event, which are never cut). */
    chunkTokens?: number;
    /** Awaited before each chunk of a large save is encoded, but the first (a turn for the page). */
    pause?: () => Promise<void>;
    /** The turn taken inside a paced encoding or a read whenever `workSliceMs` have passed. */
    workTurn?: () => Promise<void>;
    workSliceMs?: number;
  } = {},
): ConversationRepository {
  let dbPromise: Promise<IDBDatabase> | null = null;
  // The open database once it is open, and where this tab's copy of each conversation stands:
  // with both known, a save issues its writes in the same task it is called in (no read first),
  // which is what lets a save made as the page is hidden or closed land.
  let opened: IDBDatabase | null = null;
  const seen = new Map<string, Position>();
  // What this tab kept of each log it last read or wrote in full (`count` events): the next
  // chunk is written, or read, on from there. Taken out while a save uses it and put back once
  // the save is stored, so a save cut short never leaves one that is ahead of the store.
  const codecs = new Map<string, SharedTextCodec>();
  // The shared-text codec's code loads with the database (db() resolves once both are there), so
  // it stays out of the page's first load and every read or write that has the database has it.
  let codecModule: typeof import("../log-encoding/shared-text.ts") | null = null;
  const newCodec = (): SharedTextCodec => {
    if (!codecModule) throw new Error("the shared-text codec is used before the database is open");
    return new codecModule.SharedTextCodec();
  };
  const keepCodec = (id: string, codec: SharedTextCodec) => {
    codecs.delete(id);
    codecs.set(id, codec);
    for (const oldest of codecs.keys()) {
      if (codecs.size <= KEPT_CODECS) break;
      codecs.delete(oldest);
    }
  };
  /** A codec that has taken in the first `from` events of this log (rebuilt from them if need be). */
  const takeCodec = (id: string, events: readonly LoopEvent[], from: number): SharedTextCodec => {
    const kept = codecs.get(id);
    codecs.delete(id);
    if (kept && kept.count === from) return kept;
    const codec = newCodec();
    for (let i = 0; i < from; i += 1) codec.encode(events[i]!);
    return codec;
  };
  const open = () => {
    const opening = openDatabase(factory, DB_NAME, DB_VERSION, (database) => {
      if (!database.objectStoreNames.contains(CONVERSATIONS)) database.createObjectStore(CONVERSATIONS, { keyPath: "id" });
      if (!database.objectStoreNames.contains(EVENT_CHUNKS)) database.createObjectStore(EVENT_CHUNKS, { keyPath: ["conversationId", "seq"] });
    });
    return Promise.all([opening, import("../log-encoding/shared-text.ts")]).catch((error: unknown) => {
      // The codec failed to load: a database that did open is closed, not left holding its version.
      opening.then((database) => database.close(), () => undefined);
      throw error;
    });
  };
  const db = () => {
    dbPromise ??= open().then(
      ([database, codec]) => {
        codecModule = codec;
        // A newer build asks for the database in another tab: let it go (this tab's next read or
        // write reopens and, at an older version than the database's, fails with a clear error).
        database.onversionchange = () => {
          database.close();
          if (opened === database) opened = null;
          dbPromise = null;
        };
        return (opened = database);
      },
      (error: unknown) => {
        dbPromise = null; // let a later attempt try again
        throw error;
      },
    );
    return dbPromise;
  };

  const positionOf = (record: ConversationRecord): Position => ({
    eventCount: record.eventCount,
    chunkCount: record.chunkCount,
    firstChunk: record.firstChunk ?? 0,
    meta: metaFromRecord(record),
  });

  const samePosition = (record: ConversationRecord, position: Position) =>
    record.eventCount === position.eventCount && record.chunkCount === position.chunkCount && (record.firstChunk ?? 0) === position.firstChunk;

  const getRecord = (tx: IDBTransaction, id: string) => requestToPromise(tx.objectStore(CONVERSATIONS).get(id) as IDBRequest<StoredRecord | undefined>);

  /**
   * The first `wanted` events of chunks [from, record's count), in order, read with `codec`
   * (which has taken in the log's events before chunk `from`, and takes in these). With
   * `pause`, the page gets a turn whenever `workSliceMs` of reading have passed (inside one
   * delta's tokens too): the transaction is not used after its one read, so it may end meanwhile.
   */
  const readChunks = async (
    tx: IDBTransaction,
    record: ConversationRecord,
    from: number,
    codec: SharedTextCodec,
    wanted: number,
    pause?: () => Promise<void>,
  ): Promise<LoopEvent[]> => {
    // Chunks past the record's count are left from a save that did not finish: not part of the log.
    if (from >= record.chunkCount || wanted <= 0) return [];
    const request = tx.objectStore(EVENT_CHUNKS).getAll(chunkRange(record.id, from, record.chunkCount - 1)) as IDBRequest<EventChunkRecord[]>;
    const chunks = await requestToPromise(request);
    chunks.sort((a, b) => a.seq - b.seq);
    const events: LoopEvent[] = [];
    const issues: DecodeIssue[] = [];
    const checkpoint = pause ? timeSlices(pause, workSliceMs) : undefined;
    for (const chunk of chunks) {
      // Reading a blob ends the transaction's use: nothing below asks it for more.
      const records = chunk.eventsBlob ? await readJsonBlob(chunk.eventsBlob) : (chunk.events ?? []);
      if (!Array.isArray(records)) throw new Error(`The stored conversation "${record.title}" could not be read: chunk ${chunk.seq} is not a list of events`);
      for (const stored of records) {
        if (events.length >= wanted) return events.slice(0, wanted);
        if (checkpoint) await checkpoint();
        if (chunk.encoding === SHARED_TEXT) {
          const read = checkpoint ? await codec.decodePaced(stored, events.length, issues, checkpoint) : codec.decode(stored, events.length, issues);
          for (const event of read) events.push(event as LoopEvent);
        } else {
          // A chunk stored before the encoding: the codec takes it in as a writer would.
          codec.encode(stored as LoopEvent);
          events.push(stored as LoopEvent);
        }
        if (issues.length > 0) throw new Error(`The stored conversation "${record.title}" could not be read: ${issues[0]!.path.map(String).join(".")}: ${issues[0]!.message}`);
      }
    }
    // A stream record may reach past the events wanted (a record cut short by the count).
    return events.length > wanted ? events.slice(0, wanted) : events;
  };

  /** The whole log, read from its first chunk; the codec it leaves is kept for the next read or save. */
  const readLog = async (tx: IDBTransaction, record: ConversationRecord, pause?: () => Promise<void>): Promise<Conversation> => {
    const codec = newCodec();
    const events = await readChunks(tx, record, record.firstChunk ?? 0, codec, record.eventCount, pause);
    if (codec.count === record.eventCount) keepCodec(record.id, codec);
    else codecs.delete(record.id);
    return { ...metaFromRecord(record), events };
  };

  /** Cuts events into chunk-sized slices; a save with no new events still writes one (empty). */
  const slicesOf = (added: readonly LoopEvent[]): LoopEvent[][] => sliceEvents(added, chunkEvents, chunkTokens);

  /** A chunk's events written with `codec` (each long text once: see shared-text.ts), at once. */
  const encodeChunk = (events: readonly LoopEvent[], codec: SharedTextCodec): Blob => jsonBlob(codec.encodeAll(events));
  /** The same, with a turn for the page whenever `workSliceMs` have passed (inside one delta's tokens too). */
  const encodeChunkPaced = async (events: readonly LoopEvent[], codec: SharedTextCodec): Promise<Blob> =>
    jsonBlob(await codec.encodeAllPaced(events, timeSlices(workTurn, workSliceMs)));
  /** Adds a chunk of encoded records. */
  const addChunk = (tx: IDBTransaction, id: string, seq: number, eventsBlob: Blob) => {
    tx.objectStore(EVENT_CHUNKS).add({ conversationId: id, seq, encoding: SHARED_TEXT, eventsBlob } satisfies EventChunkRecord);
  };

  const recordOf = (meta: ConversationMeta, eventCount: number, chunkCount: number, firstChunk: number): ConversationRecord => ({
    ...toStorable(meta),
    eventCount,
    chunkCount,
    ...(firstChunk ? { firstChunk } : {}),
  });

  /**
   * The write after a refusal (or a rewrite): reads what is stored and compares it with what
   * this tab last saw, in the transaction that writes. Chunks past the record's count (left by
   * a save cut short, or by another tab's large save still under way, which its own final check
   * will then refuse) are dropped.
   */
  const checkedSave = async (database: IDBDatabase, meta: ConversationMeta, events: readonly LoopEvent[], base: Position | undefined): Promise<SaveResult> => {
    const tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readwrite");
    const done = transactionDone(tx);
    const record = await getRecord(tx, meta.id);
    if (record && isTombstone(record)) return finish(tx, done, DELETED);
    if (!record && base) return finish(tx, done, DELETED); // it was there when this tab read it
    if (record && (!base || !samePosition(record, base))) {
      const stored = await readLog(tx, record);
      seen.set(meta.id, positionOf(record));
      return finish(tx, done, { status: "changed", stored, base: { eventCount: base?.eventCount ?? 0, meta: base?.meta ?? null } });
    }
    const at: Position = record ? positionOf(record) : NOTHING_STORED;
    codecs.delete(meta.id);
    const chunks = tx.objectStore(EVENT_CHUNKS);
    chunks.delete(chunkRange(meta.id, at.chunkCount));
    let { chunkCount, firstChunk, eventCount } = at;
    if (events.length < eventCount) {
      // The log never shrinks in the app; if it did, it is rewritten after the old chunks,
      // which stay as empty placeholders so their numbers are never reused.
      for (let seq = firstChunk; seq < chunkCount; seq += 1) chunks.put({ conversationId: meta.id, seq, events: [] } satisfies EventChunkRecord);
      firstChunk = chunkCount;
      eventCount = 0;
    }
    const codec = takeCodec(meta.id, events, eventCount);
    for (const slice of slicesOf(events.slice(eventCount))) {
      addChunk(tx, meta.id, chunkCount, encodeChunk(slice, codec));
      chunkCount += 1;
    }
    tx.objectStore(CONVERSATIONS).put(recordOf(meta, events.length, chunkCount, firstChunk));
    tx.commit?.();
    await done;
    keepCodec(meta.id, codec);
    seen.set(meta.id, { eventCount: events.length, chunkCount, firstChunk, meta: toStorable(meta) });
    return SAVED;
  };

  /** Ends a transaction that wrote nothing, and returns the result. */
  const finish = async (tx: IDBTransaction, done: Promise<void>, result: SaveResult): Promise<SaveResult> => {
    try {
      tx.commit?.();
    } catch (error) {
      // Reading a stored log's blobs let the transaction end on its own (it had nothing to write).
      if ((error as { name?: unknown }).name !== "InvalidStateError") throw error;
    }
    await done;
    return result;
  };

  return {
    async list() {
      const database = await db();
      const tx = database.transaction(CONVERSATIONS, "readonly");
      const records = await requestToPromise(tx.objectStore(CONVERSATIONS).getAll() as IDBRequest<StoredRecord[]>);
      return records
        .filter((record): record is ConversationRecord => !isTombstone(record))
        .map(metaFromRecord)
        .sort((a, b) => b.updatedAt - a.updatedAt);
    },

    async load(id) {
      const database = await db();
      const tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readonly");
      const record = await getRecord(tx, id);
      if (!record || isTombstone(record)) return null;
      const conversation = await readLog(tx, record, turnForThePage);
      seen.set(id, positionOf(record));
      return conversation;
    },

    async loadSince(id, have) {
      const database = await db();
      const tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readonly");
      const record = await getRecord(tx, id);
      const known = seen.get(id);
      if (!record) return known ? "deleted" : null;
      if (isTombstone(record)) return "deleted";
      const codec = codecs.get(id);
      const continues = known && known.eventCount === have && known.firstChunk === (record.firstChunk ?? 0) && record.eventCount >= have && codec?.count === have;
      let update: StoredUpdate;
      if (continues) {
        codecs.delete(id);
        update = { ...metaFromRecord(record), events: await readChunks(tx, record, known.chunkCount, codec, record.eventCount - have, turnForThePage), from: have };
        if (codec.count === record.eventCount) keepCodec(id, codec);
      } else {
        update = { ...(await readLog(tx, record, turnForThePage)), from: 0 };
      }
      seen.set(id, positionOf(record));
      return update;
    },

    async save(meta, events) {
      const database = opened ?? (await db());
      const known = seen.get(meta.id);
      if (known && events.length === known.eventCount && sameData(toStorable(meta), known.meta)) return SAVED; // nothing new
      if (known && events.length < known.eventCount) return checkedSave(database, meta, events, known);
      const base = known ?? NOTHING_STORED;
      const slices = slicesOf(events.slice(base.eventCount));
      let chunkCount = base.chunkCount;
      const codec = takeCodec(meta.id, events, base.eventCount);
      try {
        // A large save (an imported session): every chunk but the last is added in a
        // transaction of its own (the page gets a turn between them), and the record is not
        // touched until the last, so a save cut short leaves the stored conversation as it was
        // (a load reads only the chunks the record counts).
        for (const [index, slice] of slices.slice(0, -1).entries()) {
          // A turn for the page between chunks that does not hang on when IndexedDB reports a
          // transaction complete (a 240,000-event save encodes ~68 MB of JSON in 1,200 chunks).
          if (index > 0) await pause();
          // Encoded before its transaction opens: a transaction left waiting would commit.
          const blob = await encodeChunkPaced(slice, codec);
          const tx = database.transaction(EVENT_CHUNKS, "readwrite");
          const done = transactionDone(tx);
          addChunk(tx, meta.id, chunkCount, blob);
          tx.commit?.();
          await done;
          chunkCount += 1;
        }
        const last = slices[slices.length - 1]!;
        if (slices.length > 1) {
          await pause();
          const blob = await encodeChunkPaced(last, codec);
          // Written over several transactions: the record is checked before it is replaced.
          const tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readwrite");
          const done = transactionDone(tx);
          const record = await getRecord(tx, meta.id);
          if (record ? isTombstone(record) || !samePosition(record, base) : known !== undefined) {
            await finish(tx, done, SAVED);
            return checkedSave(database, meta, events, known);
          }
          addChunk(tx, meta.id, chunkCount, blob);
          tx.objectStore(CONVERSATIONS).put(recordOf(meta, events.length, chunkCount + 1, base.firstChunk));
          tx.commit?.();
          await done;
        } else {
          // A chunk of few tokens is encoded here and now, so its writes are issued in this task.
          const heavy = last.reduce((sum, event) => sum + recordedTokens(event), 0) > TOKENS_ENCODED_AT_ONCE;
          const blob = heavy ? await encodeChunkPaced(last, codec) : encodeChunk(last, codec);
          const tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readwrite");
          const done = transactionDone(tx);
          // The add fails if another tab has written since (the chunk number is taken): the
          // transaction is then rolled back whole, record included.
          addChunk(tx, meta.id, chunkCount, blob);
          tx.objectStore(CONVERSATIONS).put(recordOf(meta, events.length, chunkCount + 1, base.firstChunk));
          // Nothing more will be asked of it: commit now rather than when the page next gets a turn.
          tx.commit?.();
          await done;
        }
      } catch (error) {
        if (!isConstraintError(error)) throw error;
        return checkedSave(database, meta, events, known);
      }
      keepCodec(meta.id, codec);
      seen.set(meta.id, { eventCount: events.length, chunkCount: chunkCount + 1, firstChunk: base.firstChunk, meta: toStorable(meta) });
      return SAVED;
    },

    async delete(id) {
      seen.delete(id);
      codecs.delete(id);
      const database = opened ?? (await db());
      const tx = database.transaction([CONVERSATIONS, EVENT_CHUNKS], "readwrite");
      const done = transactionDone(tx);
      const record = await getRecord(tx, id);
      const keys = await requestToPromise(tx.objectStore(EVENT_CHUNKS).getAllKeys(chunkRange(id)));
      const highest = keys.reduce<number>((top, key) => Math.max(top, (key as [string, number])[1] + 1), record?.chunkCount ?? 0);
      // The events go; every chunk number the conversation used, and the next, stays taken by an
      // empty placeholder, so a tab still writing into it is refused rather than bring it back.
      const chunks = tx.objectStore(EVENT_CHUNKS);
      chunks.delete(chunkRange(id));
      for (let seq = 0; seq <= highest; seq += 1) chunks.put({ conversationId: id, seq, events: [] } satisfies EventChunkRecord);
      tx.objectStore(CONVERSATIONS).put({ id, deletedAt: Date.now(), chunkCount: highest + 1 } satisfies TombstoneRecord);
      tx.commit?.();
      await done;
    },
  };
}
