// The message box's text, kept for this tab (sessionStorage) so a reload loses nothing: what was
// typed and not sent, and a message sent just before the reload whose start had not reached the
// conversation's storage yet. On the next start the text comes back into the box, unless the
// conversation already holds it as its last message (it was sent and stored).
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { deriveHistory } from "./derive-history.ts";

const KEY = "toolcall-lab:chat-draft";

export interface ChatDraft {
  conversationId: string;
  text: string;
}

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function readChatDraft(): ChatDraft | null {
  try {
    const value: unknown = JSON.parse(storage()?.getItem(KEY) ?? "null");
    if (value && typeof value === "object" && typeof (value as ChatDraft).conversationId === "string" && typeof (value as ChatDraft).text === "string") return value as ChatDraft;
  } catch {
    // A draft that cannot be read is no draft.
  }
  return null;
}

/** Keeps the box's text for a conversation (an empty text forgets it). */
export function keepChatDraft(conversationId: string, text: string): void {
  try {
    if (text.trim() === "") storage()?.removeItem(KEY);
    else storage()?.setItem(KEY, JSON.stringify({ conversationId, text } satisfies ChatDraft));
  } catch {
    // A convenience: the text is still in the box.
  }
}

/** The kept text to put back in the box of this conversation, or null (none, another conversation's, or already its last message). */
export function draftToRestore(draft: ChatDraft | null, conversationId: string, events: readonly LoopEvent[]): string | null {
  if (!draft || draft.conversationId !== conversationId || draft.text.trim() === "") return null;
  const lastUser = deriveHistory(events).filter((message) => message.role === "user").at(-1);
  const lastText = typeof lastUser?.content === "string" ? lastUser.content : null;
  return lastText !== null && lastText.trim() === draft.text.trim() ? null : draft.text;
}
