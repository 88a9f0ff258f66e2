// Notices that the sandbox's process died. When a cross-process frame crashes (a memory
// blow-up ends its renderer process) the page gets no event at all, so the page pings the frame
// and counts the silence. The frame's main thread only relays messages (the user's code runs in
// its worker), so it answers at once while it lives.

export interface HeartbeatOptions {
  /** How often the page pings. */
  intervalMs: number;
  /** How long one ping may go unanswered before the frame counts as dead. */
  silentAfterMs: number;
  now?: () => number;
}

export interface Heartbeat {
  /** Call when the frame answers a ping. */
  answered: () => void;
  stop: () => void;
}

/**
 * Silence is judged by one unanswered ping's age and by ticks since it was sent: a page whose
 * own thread was blocked (or whose timers a background tab throttles) checks late, and must let
 * an answer that is already queued arrive before it concludes anything.
 */
export function startHeartbeat(ping: () => void, onSilent: () => void, options: HeartbeatOptions): Heartbeat {
  const now = options.now ?? (() => performance.now());
  let sentAt: number | undefined;
  let ticksSinceSent = 0;
  const timer = setInterval(() => {
    if (sentAt === undefined) {
      sentAt = now();
      ticksSinceSent = 0;
      ping();
      return;
    }
    ticksSinceSent++;
    if (ticksSinceSent >= 3 && now() - sentAt >= options.silentAfterMs) {
      clearInterval(timer);
      onSilent();
    }
  }, options.intervalMs);
  return {
    answered: () => {
      sentAt = undefined;
    },
    stop: () => clearInterval(timer),
  };
}
