// When another tab wrote a conversation since this tab last saw it: one log that keeps both
// tabs' events (nothing is dropped: the stored log, then what this tab added on top of what it
// had seen) and, field by field, the title and settings each tab changed.
import type { LoopEvent } from "toolcall-middleware/types.ts";
import type { Conversation, ConversationMeta } from "../domain/conversation.ts";

export interface Reconciled {
  conversation: Conversation;
  /** Events the other tab had stored that this tab did not have. */
  fromElsewhere: number;
  /** Events of this tab that were not stored yet. */
  fromHere: number;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Takes the other side's value of each field it changed since `base`, else ours. */
function mergeFields<T extends object>(base: T | undefined, ours: T, theirs: T): T {
  const merged = { ...ours } as Record<string, unknown>;
  const keys = new Set([...Object.keys(ours), ...Object.keys(theirs)]);
  for (const key of keys) {
    const theirValue = (theirs as Record<string, unknown>)[key];
    const baseValue = base ? (base as Record<string, unknown>)[key] : undefined;
    if (!base || !same(theirValue, baseValue)) merged[key] = theirValue;
  }
  return merged as T;
}

/**
 * `ours` is this tab's conversation; `base` what it last read or wrote of it (the first
 * `base.eventCount` events of both logs are the same); `stored` what is stored now.
 */
export function reconcileConversation(
  ours: Conversation,
  base: { eventCount: number; meta: ConversationMeta | null },
  stored: Conversation,
): Reconciled {
  const fromHere: LoopEvent[] = ours.events.slice(base.eventCount);
  const fromElsewhere = Math.max(0, stored.events.length - base.eventCount);
  const baseMeta = base.meta ?? undefined;
  const { events: _ours, ...ourMeta } = ours;
  const { events: _stored, ...storedMeta } = stored;
  const meta: ConversationMeta = {
    ...mergeFields<ConversationMeta>(baseMeta, ourMeta, storedMeta),
    settings: mergeFields(baseMeta?.settings, ourMeta.settings, storedMeta.settings),
    id: ours.id,
    updatedAt: Math.max(ours.updatedAt, stored.updatedAt),
  };
  return { conversation: { ...meta, events: stored.events.concat(fromHere) }, fromElsewhere, fromHere: fromHere.length };
}
