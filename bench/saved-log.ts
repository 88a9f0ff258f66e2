// What a run with a 1,000,000-character reply takes when it is saved (IndexedDB, here
// fake-indexeddb in Node) and exported, before (every event as it is: version-1 files, plain
// chunks) and with each long text once (the shared-text encoding), and how long the page's
// work on it takes: encoding, decoding, saving, loading, importing. Figures only.
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { createIndexedDbRepository } from "../src/persistence/conversation-db.ts";
import { bigCallLog, bigReplyLog } from "../src/persistence/recorded-logs.test-helper.ts";
import { decodeEventLog, encodeEventLog, type DecodeIssue } from "../src/log-encoding/shared-text.ts";
import { exportConversation, importConversation } from "../src/store/conversation-export.ts";
import { createConversation, metaOf } from "../src/domain/conversation.ts";

const time = async <T>(run: () => T | Promise<T>): Promise<{ value: T; ms: number }> => {
  const t0 = performance.now();
  const value = await run();
  return { value, ms: performance.now() - t0 };
};
const mb = (chars: number) => `${(chars / 1e6).toFixed(2)} M chars`;

async function storedSize(factory: IDBFactory): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open("toolcall-lab"); // at its current version, whatever it is
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const chunks = await new Promise<unknown[]>((resolve, reject) => {
    const request = db.transaction("eventChunks", "readonly").objectStore("eventChunks").getAll();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  db.close();
  // A chunk's records are stored as a Blob of their JSON: counted by its text.
  const read = await Promise.all(
    (chunks as { eventsBlob?: Blob }[]).map(async ({ eventsBlob, ...chunk }) => (eventsBlob ? { ...chunk, events: JSON.parse(await eventsBlob.text()) as unknown } : chunk)),
  );
  return JSON.stringify(read).length;
}

export async function runSavedLogBenchmark(): Promise<void> {
  console.log("\n== A 1,000,000-character reply: saved and exported ==");
  for (const deltaChars of [4_000, 16]) {
    const { events, reply } = await bigReplyLog(1_000_000, deltaChars);
    const conversation = { ...createConversation(1), title: "Big", events };
    const plain = JSON.stringify(events).length;
    const encoded = await time(() => encodeEventLog(events));
    const encodedSize = JSON.stringify(encoded.value).length;
    const parsed = JSON.parse(JSON.stringify(encoded.value)) as unknown[];
    const decoded = await time(() => decodeEventLog(parsed, [] as DecodeIssue[]));
    console.log(`Deltas of ${deltaChars} characters (${events.length.toLocaleString("en-US")} events):`);
    console.log(`  events as they are (before): ${mb(plain)} = ${(plain / reply.length).toFixed(2)}x the reply`);
    console.log(`  shared-text encoding (now):  ${mb(encodedSize)} = ${(encodedSize / reply.length).toFixed(2)}x — encode ${encoded.ms.toFixed(0)} ms, decode ${decoded.ms.toFixed(0)} ms`);
    const versionOne = JSON.stringify({ ...exportConversation(conversation), version: 1, events });
    const exported = await time(() => JSON.stringify(exportConversation(conversation)));
    const importedOne = await time(() => importConversation(versionOne, 1, async () => {}));
    const importedTwo = await time(() => importConversation(exported.value, 1, async () => {}));
    console.log(`  export file: version 1 ${mb(versionOne.length)}, version 2 ${mb(exported.value.length)} (made in ${exported.ms.toFixed(0)} ms); import: version 1 ${importedOne.ms.toFixed(0)} ms, version 2 ${importedTwo.ms.toFixed(0)} ms`);
    const factory = new IDBFactory();
    const repo = createIndexedDbRepository(factory);
    const saved = await time(() => repo.save(metaOf(conversation), events));
    const loaded = await time(() => createIndexedDbRepository(factory).load(conversation.id));
    const stored = await storedSize(factory);
    console.log(`  IndexedDB (fake-indexeddb): stored ${mb(stored)} = ${(stored / reply.length).toFixed(2)}x; save ${saved.ms.toFixed(0)} ms, load ${loaded.ms.toFixed(0)} ms (before: ${(plain / reply.length).toFixed(2)}x, the events as they are)`);
  }
  for (const deltaChars of [2_000, 16]) {
    const { events, argument } = await bigCallLog(200_000, deltaChars);
    const plain = JSON.stringify(events).length;
    const encoded = JSON.stringify(encodeEventLog(events)).length;
    console.log(
      `A reply that is one call with a 200,000-character argument, deltas of ${deltaChars} characters: before ${(plain / argument.length).toFixed(2)}x, now ${(encoded / argument.length).toFixed(2)}x (output, call, the turn as the template writes it)`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runSavedLogBenchmark();
