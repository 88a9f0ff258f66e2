// Remembers, across reloads, what the page was about to show until it has shown it. If the page
// dies while showing it (a render crash past every error boundary, a hung or killed tab), the mark
// is still there at the next start, and the lab does not show the same thing again by itself — so
// one bad conversation or step cannot lock the lab. Without localStorage there is nothing to
// reopen blindly either: the guard is a convenience.

/** A mark kept under `key`: set before showing, cleared once shown, read at start. */
function pendingMark(key: string) {
  return {
    set(value: string): void {
      try {
        if (localStorage.getItem(key) !== value) localStorage.setItem(key, value);
      } catch {
        // See the file's note.
      }
    },
    clear(value: string): void {
      try {
        if (localStorage.getItem(key) === value) localStorage.removeItem(key);
      } catch {
        // See the file's note.
      }
    },
    pending(): string | null {
      try {
        return localStorage.getItem(key);
      } catch {
        return null;
      }
    },
  };
}

// The conversation about to be opened: a mark still there at start opens an empty conversation instead.
const opening = pendingMark("toolcall-lab:opening-conversation");

/** Called before a conversation becomes the open one. */
export const markOpening = (id: string): void => opening.set(id);

/** Called once the chat has rendered this conversation. */
export const markShown = (id: string): void => opening.clear(id);

/** At start: the conversation whose showing never finished last time, if any (the mark stays until shown). */
export const unfinishedOpening = (): string | null => opening.pending();

// The debugger's step: it follows the latest step by itself, so a step that kills the page while it
// is drawn (a server's prompt of millions of direction controls did) would be drawn again at every
// load. The mark is set before a step's views are drawn and cleared once the browser has painted
// them; a step whose mark is still there at start, or whose views failed to draw, is not drawn by
// itself: the debugger says so and offers to draw it.
const drawingStep = pendingMark("toolcall-lab:drawing-step");

/** Called as a step's views are about to be drawn. */
export const markDrawingStep = (stepKey: string): void => drawingStep.set(stepKey);

/** Called once the browser has painted the step's views. */
export const markStepDrawn = (stepKey: string): void => drawingStep.clear(stepKey);

/** At start: the step whose drawing never finished (or failed) last time, if any. */
export const unfinishedStepDraw = (): string | null => drawingStep.pending();
