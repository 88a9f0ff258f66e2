// Remembers, across reloads, which conversation the page was about to show until the chat has
// shown it. If the page dies while showing it (a render crash past every error boundary, a hung
// or killed tab), the mark is still there at the next start, and the lab opens an empty
// conversation instead of the same one again — so one bad conversation cannot lock the lab.
const OPENING_KEY = "toolcall-lab:opening-conversation";

/** Called before a conversation becomes the open one. */
export function markOpening(id: string): void {
  try {
    localStorage.setItem(OPENING_KEY, id);
  } catch {
    // Without localStorage there is nothing to reopen blindly either: the guard is a convenience.
  }
}

/** Called once the chat has rendered this conversation. */
export function markShown(id: string): void {
  try {
    if (localStorage.getItem(OPENING_KEY) === id) localStorage.removeItem(OPENING_KEY);
  } catch {
    // See markOpening.
  }
}

/** At start: the conversation whose showing never finished last time, if any (the mark stays until shown). */
export function unfinishedOpening(): string | null {
  try {
    return localStorage.getItem(OPENING_KEY);
  } catch {
    return null;
  }
}
