// Where a drawn run of text ends when no line end comes: the debugger's long texts (a prompt, a
// raw output) are drawn in blocks the browser lays out only when in view, and a line of a
// million characters (a reply of 80,000 unfinished calls) must not be one block: laying it out
// (a click's scrollIntoView, a list reading its height) took 0.4–2.6 s at once.

/** A run with no line end in this many characters ends there (the next starts on a row of its own). */
export const LONG_LINE_RUN_CHARS = 16_000;

