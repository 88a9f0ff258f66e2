// Keeps evaluation runs in IndexedDB so that they survive a reload: the run (its settings and
// state) and each finished case (its verdicts and its event log, which the debugger opens). A
// database of its own, apart from the conversations. A case's events are stored with each long
// text once (shared-text.ts), as a conversation's are; cases stored before that hold them plain.
import type { EvalResult } from "../eval/run-case.ts";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { openDatabase, requestToPromise, transactionDone } from "./idb.ts";
import { encodeInBlobs, readJsonBlob } from "./json-blob.ts";
import { decodeEventLog, SharedTextCodec, type DecodeIssue } from "../log-encoding/shared-text.ts";

const DB_NAME = "toolcall-lab-eval";
const DB_VERSION = 2;
const RUNS = "runs";
const CASES = "cases";
/** Cases saved from conversation turns, as BFCL lines (version 2). */
const SAVED = "saved";

export interface StoredEvalRun<Config = unknown> {
  id: string;
  config: Config;
  /** Jobs planned. */
  total: number;
  /** "running" found at load means the page went away mid-run: it can be resumed. */
  status: "running" | "stopped" | "done";
  startedAt: number;
  label: string;
}

interface StoredCase {
  key: string;
  runId: string;
  jobKey: string;
  result: EvalResult;
  /** Absent in cases stored before the encoding: their events are plain. */
  encoding?: typeof SHARED_TEXT;
  /** The encoded records (older cases), or… */
  events?: unknown[];
  /**
   * …the encoded records as JSON text, a slice of them per string (cases stored before the
   * slices became blobs), or…
   */
  eventsJson?: string[];
  /**
   * …the same slices, each a Blob of its JSON text. A case of 250,000 parse events (a megabyte
   * of unfinished calls) stored as objects was cloned by IndexedDB in one 4 s task; as strings,
   * its 80 MB of JSON were still copied in one put (a 1.2 s task). A Blob is stored by
   * reference: its UTF-8 bytes are made slice by slice, with turns for the page between them.
   */
  eventBlobs?: Blob[];
}

/**
 * Events encoded into one JSON slice, between two chances of a turn for the page. 2,000 events of
 * unfinished calls (~640 KB of JSON) took 50–170 ms to stringify and put in a Blob in the page;
 * 250 take a few milliseconds, and the yield point sums them into turns of ~16 ms.
 */
export const EVENTS_PER_SLICE = 250;

const SHARED_TEXT = "shared-text-1";

export interface EvalRepository {
  saveRun: (run: StoredEvalRun) => Promise<void>;
  /** The most recent run and its results (events are read per case, when asked for). */
  latest: () => Promise<{ run: StoredEvalRun; results: Array<{ jobKey: string; result: EvalResult }> } | undefined>;
  /** `pause` is awaited between slices of the encoding (a turn for the page). */
  saveCase: (runId: string, jobKey: string, result: EvalResult, events: LoopEvent[], pause?: () => Promise<void>) => Promise<void>;
  events: (runId: string, jobKey: string) => Promise<LoopEvent[] | undefined>;
  /** Removes every run but this one (a new run replaces the old one's cases). */
  keepOnly: (runId: string) => Promise<void>;
  /** Cases saved from conversation turns, oldest first. */
  savedCases: () => Promise<StoredSavedCase[]>;
  addSavedCase: (saved: StoredSavedCase) => Promise<void>;
  removeSavedCase: (id: string) => Promise<void>;
}

export interface StoredSavedCase {
  id: string;
  /** Its line in a BFCL questions file, and in a possible-answers file (none for irrelevance). */
  question: string;
  answer?: string;
  savedAt: number;
}

export function createEvalRepository(factory: IDBFactory | null = globalThis.indexedDB ?? null): EvalRepository {
  let dbPromise: Promise<IDBDatabase> | null = null;
  const db = () => {
    dbPromise ??= openDatabase(factory, DB_NAME, DB_VERSION, (database) => {
      if (!database.objectStoreNames.contains(RUNS)) database.createObjectStore(RUNS, { keyPath: "id" });
      if (!database.objectStoreNames.contains(CASES)) database.createObjectStore(CASES, { keyPath: "key" }).createIndex("runId", "runId");
      if (!database.objectStoreNames.contains(SAVED)) database.createObjectStore(SAVED, { keyPath: "id" });
    }).catch((error: unknown) => {
      dbPromise = null;
      throw error;
    });
    return dbPromise;
  };
  return {
    async saveRun(run) {
      const tx = (await db()).transaction(RUNS, "readwrite");
      tx.objectStore(RUNS).put(run);
      await transactionDone(tx);
    },
    async latest() {
      const tx = (await db()).transaction([RUNS, CASES], "readonly");
      const runs = (await requestToPromise(tx.objectStore(RUNS).getAll())) as StoredEvalRun[];
      const run = runs.sort((a, b) => b.startedAt - a.startedAt)[0];
      if (!run) return undefined;
      const cases = (await requestToPromise(tx.objectStore(CASES).index("runId").getAll(run.id))) as StoredCase[];
      return { run, results: cases.map(({ jobKey, result }) => ({ jobKey, result })) };
    },
    async saveCase(runId, jobKey, result, events, pause = async () => {}) {
      const eventBlobs = await encodeInBlobs(new SharedTextCodec(), events, EVENTS_PER_SLICE, pause);
      const tx = (await db()).transaction(CASES, "readwrite");
      const stored: StoredCase = { key: `${runId}|${jobKey}`, runId, jobKey, result, encoding: SHARED_TEXT, eventBlobs };
      tx.objectStore(CASES).put(stored);
      await transactionDone(tx);
    },
    async events(runId, jobKey) {
      const tx = (await db()).transaction(CASES, "readonly");
      const stored = (await requestToPromise(tx.objectStore(CASES).get(`${runId}|${jobKey}`))) as StoredCase | undefined;
      if (!stored || stored.encoding !== SHARED_TEXT) return stored?.events as LoopEvent[] | undefined;
      const issues: DecodeIssue[] = [];
      const slices = stored.eventBlobs
        ? ((await Promise.all(stored.eventBlobs.map(readJsonBlob))) as unknown[][])
        : stored.eventsJson?.map((slice) => JSON.parse(slice) as unknown[]);
      const records = slices ? slices.flat() : (stored.events ?? []);
      const events = decodeEventLog(records, issues) as LoopEvent[];
      if (issues.length > 0) throw new Error(`The stored case ${jobKey} could not be read: event ${issues[0]!.index}: ${issues[0]!.message}`);
      return events;
    },
    async savedCases() {
      const tx = (await db()).transaction(SAVED, "readonly");
      const all = (await requestToPromise(tx.objectStore(SAVED).getAll())) as StoredSavedCase[];
      return all.sort((a, b) => a.savedAt - b.savedAt);
    },
    async addSavedCase(saved) {
      const tx = (await db()).transaction(SAVED, "readwrite");
      tx.objectStore(SAVED).put(saved);
      await transactionDone(tx);
    },
    async removeSavedCase(id) {
      const tx = (await db()).transaction(SAVED, "readwrite");
      tx.objectStore(SAVED).delete(id);
      await transactionDone(tx);
    },
    async keepOnly(runId) {
      const tx = (await db()).transaction([RUNS, CASES], "readwrite");
      const runs = (await requestToPromise(tx.objectStore(RUNS).getAllKeys())) as string[];
      for (const id of runs) {
        if (id === runId) continue;
        tx.objectStore(RUNS).delete(id);
        const keys = (await requestToPromise(tx.objectStore(CASES).index("runId").getAllKeys(id))) as string[];
        for (const key of keys) tx.objectStore(CASES).delete(key);
      }
      await transactionDone(tx);
    },
  };
}
