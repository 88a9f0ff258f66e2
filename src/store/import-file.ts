// Opens an exported conversation file as a new conversation, reading it in a worker where the
// page has workers (see import.worker.ts), else on the page, a slice at a time.
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { SharedTextCodec, type DecodeIssue } from "../log-encoding/shared-text.ts";
import type { Conversation } from "../domain/conversation.ts";
import { ImportError, importConversation } from "./conversation-export.ts";
import type { ImportReply, ImportRequest } from "./import-protocol.ts";

/** Events per message from the worker: taking in this many is a task of a few milliseconds. */
const EVENTS_PER_MESSAGE = 250;

export async function importConversationFile(file: Blob, now = Date.now()): Promise<Conversation> {
  if (typeof Worker === "undefined") return importConversation(await file.text(), now);
  const worker = new Worker(new URL("./import.worker.ts", import.meta.url), { type: "module", name: "conversation import" });
  try {
    return await new Promise<Conversation>((resolve, reject) => {
      let head: Omit<Conversation, "events"> | null = null;
      let expected = 0;
      const events: LoopEvent[] = [];
      // The worker has checked the events and sends them with each long text once: read here,
      // a text repeated in several events is one string on the page.
      const codec = new SharedTextCodec();
      const issues: DecodeIssue[] = [];
      const finish = () => {
        if (head && events.length >= expected) resolve({ ...head, events });
      };
      worker.onmessage = (event: MessageEvent<ImportReply>) => {
        const message = event.data;
        if (message.type === "error") {
          reject(message.name === "ImportError" ? new ImportError(message.message) : new Error(message.message));
        } else if (message.type === "conversation") {
          head = message.conversation;
          expected = message.eventCount;
          finish();
        } else {
          for (const record of message.events) for (const e of codec.decode(record, events.length, issues)) events.push(e as LoopEvent);
          if (issues.length > 0) reject(new Error(`The file could not be read: record ${issues[0]!.index}: ${issues[0]!.message}`));
          else finish();
        }
      };
      worker.onerror = (event) => reject(new Error(`The file could not be read: ${event.message || "the reading worker failed"}`));
      worker.postMessage({ file, now, eventsPerMessage: EVENTS_PER_MESSAGE } satisfies ImportRequest);
    });
  } finally {
    worker.terminate();
  }
}
