// A small key → text store in IndexedDB, so that what the model remembers survives reloads.
// Every failure of the storage (no IndexedDB, a private window's quota, a blocked upgrade)
// becomes a NoteStoreError that says what happened.

export class NoteStoreError extends Error {
  override name = "NoteStoreError";
}

export interface Note {
  key: string;
  value: string;
  /** Milliseconds since the epoch. */
  updatedAt: number;
}

export interface NoteStore {
  put: (key: string, value: string) => Promise<Note>;
  get: (key: string) => Promise<Note | undefined>;
  list: () => Promise<Note[]>;
}

export const NOTES_DB_NAME = "toolcall-lab-notes";
const STORE = "notes";

export interface IndexedDbNoteStoreOptions {
  /** Defaults to the global indexedDB. */
  indexedDB?: IDBFactory;
  dbName?: string;
  now?: () => number;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}

function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("the request failed"));
  });
}

export function createIndexedDbNoteStore(options: IndexedDbNoteStoreOptions = {}): NoteStore {
  const dbName = options.dbName ?? NOTES_DB_NAME;
  const now = options.now ?? Date.now;
  let opening: Promise<IDBDatabase> | undefined;

  const open = (): Promise<IDBDatabase> => {
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
      if (!factory) {
        reject(new NoteStoreError("The note store is unavailable: this browser offers no IndexedDB."));
        return;
      }
      let request: IDBOpenDBRequest;
      try {
        request = factory.open(dbName, 1);
      } catch (error) {
        reject(new NoteStoreError(`The note store could not be opened: ${describe(error)}`));
        return;
      }
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: "key" });
      };
      request.onsuccess = () => {
        const db = request.result;
        // Another tab upgrading the database: let it, and reopen next time.
        db.onversionchange = () => {
          db.close();
          opening = undefined;
        };
        resolve(db);
      };
      request.onerror = () =>
        reject(new NoteStoreError(`The note store could not be opened (${describe(request.error)}). Private windows may block storage.`));
      request.onblocked = () => reject(new NoteStoreError("The note store is blocked by another open tab of this app; close it and retry."));
    }).catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };

  const withStore = async <T>(mode: IDBTransactionMode, action: string, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const db = await open();
    try {
      const transaction = db.transaction(STORE, mode);
      const done = new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error ?? new Error("the transaction failed"));
        transaction.onabort = () => reject(transaction.error ?? new Error("the transaction was aborted"));
      });
      const result = await requestResult(work(transaction.objectStore(STORE)));
      await done;
      return result;
    } catch (error) {
      const quota = error instanceof Error && error.name === "QuotaExceededError" ? " The browser's storage is full." : "";
      throw new NoteStoreError(`Could not ${action}: ${describe(error)}.${quota}`);
    }
  };

  return {
    put: async (key, value) => {
      const note: Note = { key, value, updatedAt: now() };
      await withStore("readwrite", `save the note '${key}'`, (store) => store.put(note));
      return note;
    },
    get: async (key) => withStore("readonly", `read the note '${key}'`, (store) => store.get(key) as IDBRequest<Note | undefined>),
    list: async () => {
      const notes = await withStore("readonly", "list the notes", (store) => store.getAll() as IDBRequest<Note[]>);
      return notes.sort((a, b) => a.key.localeCompare(b.key));
    },
  };
}
