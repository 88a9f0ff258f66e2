// A long prompt drawn in runs: blocks of whole lines the browser lays out only when they are in
// view (`content-visibility: auto`), each drawn with its control-token chips only once it comes
// near the view. A step whose prompt wrote back a reply of 80,000 unfinished calls held ~80,000
// chips: 160,000 elements laid out and removed at once (0.5–2.6 s tasks). A line longer than
// `longLineChars` (such a written-back reply is one line) is cut into blocks of that length, so
// it too is laid out a block at a time; such a block starts on a row of its own.
import { cutOutsidePair } from "toolcall-middleware/text/surrogate-pairs.ts";
import { LONG_LINE_RUN_CHARS } from "./long-lines.ts";
import type { PromptPiece } from "./prompt-segments.ts";

/** A prompt longer than twice this is drawn in runs of about this many characters (whole lines). */
export const PROMPT_RUN_CHARS = 4_000;

export interface PromptRun {
  /** Offset of the run's first character in the prompt (its key). */
  start: number;
  pieces: PromptPiece[];
  /** Characters in the run. */
  chars: number;
}

function lengthOf(piece: PromptPiece): number {
  return piece.kind === "tools" ? piece.length : piece.text.length;
}

/**
 * `pieces` (a prompt's, in order) grouped into runs that end at the first line end past `chars`
 * characters, or at `longLineChars` characters where no line ends. A text piece is cut where a
 * run ends (never inside a surrogate pair); a control token and the tool block stay whole.
 */
export function promptRuns(pieces: readonly PromptPiece[], chars = PROMPT_RUN_CHARS, longLineChars = LONG_LINE_RUN_CHARS): PromptRun[] {
  const runs: PromptRun[] = [];
  // The run being filled (a holder: the closures below replace it).
  const open: { run: PromptRun | null } = { run: null };
  const add = (piece: PromptPiece): PromptRun => {
    const run = (open.run ??= { start: piece.start, pieces: [], chars: 0 });
    run.pieces.push(piece);
    run.chars += lengthOf(piece);
    return run;
  };
  const close = () => {
    if (open.run) runs.push(open.run);
    open.run = null;
  };
  for (const piece of pieces) {
    if (piece.kind !== "text") {
      if (add(piece).chars >= longLineChars) close();
      continue;
    }
    let at = 0;
    while (at < piece.text.length) {
      const used = open.run?.chars ?? 0;
      const rest = piece.text.length - at;
      const newline = piece.text.indexOf("\n", at + Math.max(0, chars - used - 1));
      let cut = -1;
      if (newline >= 0 && used + (newline + 1 - at) <= longLineChars) cut = newline + 1;
      else if (used + rest >= longLineChars) {
        cut = cutOutsidePair(piece.text, at + Math.max(1, longLineChars - used));
        if (cut <= at) {
          close();
          continue;
        }
      }
      if (cut < 0) {
        add(at === 0 ? piece : { kind: "text", text: piece.text.slice(at), start: piece.start + at });
        break;
      }
      add({ kind: "text", text: piece.text.slice(at, cut), start: piece.start + at });
      close();
      at = cut;
    }
  }
  close();
  return runs;
}

/** The run's characters as plain text (what a run not yet drawn shows). */
export function runText(run: PromptRun): string {
  let text = "";
  for (const piece of run.pieces) if (piece.kind !== "tools") text += piece.text;
  return text;
}
