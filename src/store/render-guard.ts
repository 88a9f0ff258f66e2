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

// The same for the debugger's step: it follows the latest step by itself, so a step that kills the
// page while it is drawn (a server's prompt of millions of direction controls did) would be drawn
// again at every load. The mark is set before a step's views are drawn and cleared once the
// browser has painted them; a step whose mark is still there at start, or whose views failed to
// draw, is not drawn by itself: the debugger says so and offers to draw it.
const DRAWING_STEP_KEY = "toolcall-lab:drawing-step";

/** Called as a step's views are about to be drawn. */
export function markDrawingStep(stepKey: string): void {
  try {
    if (localStorage.getItem(DRAWING_STEP_KEY) !== stepKey) localStorage.setItem(DRAWING_STEP_KEY, stepKey);
  } catch {
    // See markOpening.
  }
}

/** Called once the browser has painted the step's views. */
export function markStepDrawn(stepKey: string): void {
  try {
    if (localStorage.getItem(DRAWING_STEP_KEY) === stepKey) localStorage.removeItem(DRAWING_STEP_KEY);
  } catch {
    // See markOpening.
  }
}

/** At start: the step whose drawing never finished (or failed) last time, if any. */
export function unfinishedStepDraw(): string | null {
  try {
    return localStorage.getItem(DRAWING_STEP_KEY);
  } catch {
    return null;
  }
}
