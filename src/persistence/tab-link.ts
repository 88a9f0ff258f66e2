// How the lab's tabs (same origin, same browser profile) agree on who writes a conversation:
// a tab runs a turn only while it holds that conversation's Web Lock, and tells the others on
// a BroadcastChannel when a turn starts and ends, after each save it commits, and when it
// deletes a conversation. Tabs showing a conversation another tab is writing follow its saves.
// The lock is advisory: storage itself refuses a write made from an outdated view (see
// conversation-db.ts), so a browser without Web Locks or BroadcastChannel loses nothing either.
import { z } from "zod";

const CHANNEL = "toolcall-lab:conversations";

/** The Web Lock a tab holds while it runs a turn in a conversation. */
export function writeLockName(conversationId: string): string {
  return `toolcall-lab:write:${conversationId}`;
}

const messageSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("saved"), conversationId: z.string(), eventCount: z.number() }),
  z.object({ kind: z.literal("deleted"), conversationId: z.string() }),
  z.object({ kind: z.literal("turn-started"), conversationId: z.string() }),
  z.object({ kind: z.literal("turn-ended"), conversationId: z.string() }),
]);

export type TabMessage = z.infer<typeof messageSchema>;

export interface WriteClaim {
  release: () => void;
}

export interface TabLink {
  /** Tells the other tabs; never the sender. */
  announce: (message: TabMessage) => void;
  /** Messages from the other tabs. Returns an unsubscribe function. */
  subscribe: (listener: (message: TabMessage) => void) => () => void;
  /** Takes the conversation's write lock, or null when another tab holds it. */
  claim: (conversationId: string) => Promise<WriteClaim | null>;
  /** Whether another tab holds the conversation's write lock now. */
  heldElsewhere: (conversationId: string) => Promise<boolean>;
  close: () => void;
}

/** A tab on its own: no other tab to tell or to wait for. */
export const soloTabLink: TabLink = {
  announce: () => undefined,
  subscribe: () => () => undefined,
  claim: () => Promise.resolve({ release: () => undefined }),
  heldElsewhere: () => Promise.resolve(false),
  close: () => undefined,
};

export interface TabLinkOptions {
  channel?: BroadcastChannel | null;
  locks?: LockManager | null;
}

function defaultChannel(): BroadcastChannel | null {
  try {
    return typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  } catch {
    return null;
  }
}

export function createTabLink({
  channel = defaultChannel(),
  locks = (globalThis.navigator as Navigator | undefined)?.locks ?? null,
}: TabLinkOptions = {}): TabLink {
  const listeners = new Set<(message: TabMessage) => void>();
  const heldHere = new Set<string>();
  if (channel) {
    channel.onmessage = (event: MessageEvent<unknown>) => {
      // Another version of the lab may be open in another tab: what it says is checked.
      const parsed = messageSchema.safeParse(event.data);
      if (parsed.success) for (const listener of [...listeners]) listener(parsed.data);
    };
  }

  return {
    announce(message) {
      try {
        channel?.postMessage(message);
      } catch {
        // A closed channel (the page is going): the other tabs catch up from storage.
      }
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    claim(conversationId) {
      if (!locks) return soloTabLink.claim(conversationId);
      return new Promise<WriteClaim | null>((resolve) => {
        locks
          .request(writeLockName(conversationId), { ifAvailable: true }, (lock) => {
            if (!lock) {
              resolve(null);
              return undefined;
            }
            heldHere.add(conversationId);
            // Held until released: the lock goes with the promise this callback returns.
            return new Promise<void>((release) =>
              resolve({
                release: () => {
                  heldHere.delete(conversationId);
                  release();
                },
              }),
            );
          })
          // Web Locks refused (an opaque origin, say): go on as a tab on its own would; the
          // write check in storage still keeps another tab's writes.
          .catch(() => resolve(soloTabLink.claim(conversationId)));
      });
    },

    async heldElsewhere(conversationId) {
      if (!locks || heldHere.has(conversationId)) return false;
      const snapshot = await locks.query();
      return (snapshot.held ?? []).some((lock) => lock.name === writeLockName(conversationId));
    },

    close() {
      listeners.clear();
      channel?.close();
    },
  };
}
