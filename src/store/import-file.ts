// Opens an exported conversation file as a new conversation, reading it in a worker where the
// page has workers (see import.worker.ts), else on the page, a slice at a time.
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { SharedTextCodec, type DecodeIssue } from "../log-encoding/shared-text.ts";
import type { Conversation } from "../domain/conversation.ts";
import { ImportError, importConversation } from "./conversation-export.ts";
import type { ImportReply, ImportRequest } from "./import-protocol.ts";
import { createYieldPoint } from "./yield-to-page.ts";

/** Events per message from the worker (read here a slice at a time: see RECORD_SLICE_MS). */
const EVENTS_PER_MESSAGE = 250;
/** Reading records on the page for this long gives it a turn. */
const RECORD_SLICE_MS = 12;

export async function importConversationFile(file: Blob, now = Date.now()): Promise<Conversation> {
  if (typeof Worker === "undefined") return importConversation(await file.text(), now);
  const worker = new Worker(new URL("./import.worker.ts", import.meta.url), { type: "module", name: "conversation import" });
  try {
    return await new Promise<Conversation>((resolve, reject) => {
      let head: Omit<Conversation, "events"> | null = null;
      let expected = 0;
      let failed = false;
      const events: LoopEvent[] = [];
      // The worker has checked the events and sends them with each long text once: read here,
      // a text repeated in several events is one string on the page.
      const codec = new SharedTextCodec();
      const issues: DecodeIssue[] = [];
      // Records wait here and are read a few at a time with turns for the page between them: a
      // record of a step's tokens (10,000 with alternatives) takes tens of milliseconds to read,
      // and one message of 250 such records held the page for over a second. A record is read
      // in pieces itself (decodePaced), as one delta may hold far more tokens than that.
      const waiting: unknown[][] = [];
      let reading = false;
      const fail = (error: Error) => {
        failed = true;
        reject(error);
      };
      const finish = () => {
        if (!failed && head && !reading && waiting.length === 0 && events.length >= expected) resolve({ ...head, events });
      };
      const readWaiting = async () => {
        reading = true;
        const checkpoint = createYieldPoint(RECORD_SLICE_MS);
        while (waiting.length > 0 && !failed) {
          const records = waiting.shift()!;
          for (const record of records) {
            await checkpoint();
            if (failed) return;
            // Paced inside a record too: one delta's tokens (never cut) are read in pieces.
            for (const e of await codec.decodePaced(record, events.length, issues, checkpoint)) events.push(e as LoopEvent);
            if (issues.length > 0) return fail(new Error(`The file could not be read: record ${issues[0]!.index}: ${issues[0]!.message}`));
          }
        }
        reading = false;
        finish();
      };
      worker.onmessage = (event: MessageEvent<ImportReply>) => {
        const message = event.data;
        if (message.type === "error") {
          fail(message.name === "ImportError" ? new ImportError(message.message) : new Error(message.message));
        } else if (message.type === "conversation") {
          head = message.conversation;
          expected = message.eventCount;
          finish();
        } else {
          waiting.push(message.events);
          if (!reading) void readWaiting();
        }
      };
      worker.onerror = (event) => fail(new Error(`The file could not be read: ${event.message || "the reading worker failed"}`));
      worker.postMessage({ file, now, eventsPerMessage: EVENTS_PER_MESSAGE } satisfies ImportRequest);
    });
  } finally {
    worker.terminate();
  }
}
