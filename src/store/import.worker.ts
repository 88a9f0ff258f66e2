// Reads an exported conversation file off the page's thread: parsing megabytes of JSON and
// checking every event would otherwise hold the page for a tenth of a second or more. The
// events come back in slices, each a message of its own, so taking them in is small tasks too.
// They are sent in the shared-text encoding (each long text once): a message's copy of a reply
// would otherwise be cloned apart from the run-end's, and the page would hold both.
import { sliceEvents } from "../log-encoding/event-slices.ts";
import { SharedTextCodec } from "../log-encoding/shared-text.ts";
import { importConversation } from "./conversation-export.ts";
import type { ImportReply, ImportRequest } from "./import-protocol.ts";

/** Recorded tokens one record of the encoding stands for at most (but one event's, never cut). */
const TOKENS_PER_RECORD = 5_000;

const scope = self as unknown as DedicatedWorkerGlobalScope;
const reply = (message: ImportReply) => scope.postMessage(message);

scope.onmessage = async (event: MessageEvent<ImportRequest>) => {
  try {
    const { events, ...conversation } = await importConversation(await event.data.file.text(), event.data.now, async () => {});
    reply({ type: "conversation", conversation, eventCount: events.length });
    // Encoded a slice at a time with one codec, so no record stands for more than a slice's
    // tokens: the page reads a record in one go (25 deltas of 10,000 tokens made one record
    // that held it 0.9 s), and gets a turn between records.
    const codec = new SharedTextCodec();
    const encoded = sliceEvents(events, Number.POSITIVE_INFINITY, TOKENS_PER_RECORD).flatMap((slice) => codec.encodeAll(slice));
    for (let at = 0; at < encoded.length; at += event.data.eventsPerMessage) reply({ type: "events", events: encoded.slice(at, at + event.data.eventsPerMessage) });
  } catch (error) {
    reply({ type: "error", name: error instanceof Error ? error.name : "Error", message: error instanceof Error ? error.message : String(error) });
  }
};
