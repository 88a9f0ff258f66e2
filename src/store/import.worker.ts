// Reads an exported conversation file off the page's thread: parsing megabytes of JSON and
// checking every event would otherwise hold the page for a tenth of a second or more. The
// events come back in slices, each a message of its own, so taking them in is small tasks too.
// They are sent in the shared-text encoding (each long text once): a message's copy of a reply
// would otherwise be cloned apart from the run-end's, and the page would hold both.
import { encodeEventLog } from "../log-encoding/shared-text.ts";
import { importConversation } from "./conversation-export.ts";
import type { ImportReply, ImportRequest } from "./import-protocol.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const reply = (message: ImportReply) => scope.postMessage(message);

scope.onmessage = async (event: MessageEvent<ImportRequest>) => {
  try {
    const { events, ...conversation } = await importConversation(await event.data.file.text(), event.data.now, async () => {});
    reply({ type: "conversation", conversation, eventCount: events.length });
    const encoded = encodeEventLog(events);
    for (let at = 0; at < encoded.length; at += event.data.eventsPerMessage) reply({ type: "events", events: encoded.slice(at, at + event.data.eventsPerMessage) });
  } catch (error) {
    reply({ type: "error", name: error instanceof Error ? error.name : "Error", message: error instanceof Error ? error.message : String(error) });
  }
};
