// Text with every bidi control character shown as a marked chip (⟨U+202E⟩, its name on hover)
// instead of silently reordering what follows. Text without one renders as the plain string.
import "./bidi.css";
import type { ReactNode } from "react";
import { hasBidiControls, hasNameMarks, hasTextMarks, splitBidi, splitName, splitText, type BidiPiece } from "./bidi-controls.ts";

function renderPieces(pieces: BidiPiece[], invisibleIn = "the name"): ReactNode {
  return pieces.map((piece) =>
    piece.kind === "text" ? (
      // Each piece says where it starts, so a click in it maps back to an offset in the text.
      <span key={piece.start} data-piece-start={piece.start}>
        {piece.text}
      </span>
    ) : piece.kind === "control" ? (
      <span key={piece.start} className="bidi-mark" data-piece-start={piece.start} data-testid="bidi-mark" title={`${piece.name}: a direction control in the text, shown instead of applied`}>
        ⟨{piece.code}⟩
      </span>
    ) : (
      <span key={piece.start} className="bidi-mark" data-piece-start={piece.start} data-testid="invisible-mark" title={`${piece.name}: an invisible character in ${invisibleIn}, shown so that ${invisibleIn === "the name" ? "look-alike names can be told apart" : "it cannot hide"}`}>
        ⟨{piece.code}⟩
      </span>
    ),
  );
}

export function visibleBidi(text: string): ReactNode {
  if (!hasBidiControls(text)) return text;
  return renderPieces(splitBidi(text));
}

/**
 * A text the debugger shows exactly (a prompt, the server's prompt, a token): bidi controls,
 * invisible characters and control characters (NUL, ESC…) shown as marks.
 */
export function visibleText(text: string): ReactNode {
  if (!hasTextMarks(text)) return text;
  return renderPieces(splitText(text), "the text");
}

/** A name (a tool's) with bidi controls and invisible characters shown as marks. */
export function visibleName(text: string): ReactNode {
  if (!hasNameMarks(text)) return text;
  return renderPieces(splitName(text));
}

export function VisibleBidi({ text }: { text: string }) {
  return <>{visibleBidi(text)}</>;
}
