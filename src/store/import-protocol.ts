// Messages between the page and the worker that reads an imported conversation file.
import type { Conversation } from "../domain/conversation.ts";

export interface ImportRequest {
  file: Blob;
  now: number;
  eventsPerMessage: number;
}

export type ImportReply =
  | { type: "conversation"; conversation: Omit<Conversation, "events">; eventCount: number }
  /** Checked events, in the shared-text encoding (log-encoding/shared-text.ts), in order. */
  | { type: "events"; events: unknown[] }
  | { type: "error"; name: string; message: string };
