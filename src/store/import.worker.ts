// Reads an exported conversation file off the page's thread: parsing megabytes of JSON and
// checking every event would otherwise hold the page for a tenth of a second or more. The
// events come back in slices, each a message of its own, so taking them in is small tasks too.
import { importConversation } from "./conversation-export.ts";
import type { ImportReply, ImportRequest } from "./import-protocol.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const reply = (message: ImportReply) => scope.postMessage(message);

scope.onmessage = async (event: MessageEvent<ImportRequest>) => {
  try {
    const { events, ...conversation } = await importConversation(await event.data.file.text(), event.data.now, async () => {});
    reply({ type: "conversation", conversation, eventCount: events.length });
    for (let at = 0; at < events.length; at += event.data.eventsPerMessage) reply({ type: "events", events: events.slice(at, at + event.data.eventsPerMessage) });
  } catch (error) {
    reply({ type: "error", name: error instanceof Error ? error.name : "Error", message: error instanceof Error ? error.message : String(error) });
  }
};
