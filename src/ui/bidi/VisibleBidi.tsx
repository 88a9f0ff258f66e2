// Text with every bidi control character shown as a marked chip (⟨U+202E⟩, its name on hover)
// instead of silently reordering what follows. Text without one renders as the plain string.
import "./bidi.css";
import type { ReactNode } from "react";
import { hasBidiControls, splitBidi } from "./bidi-controls.ts";

export function visibleBidi(text: string): ReactNode {
  if (!hasBidiControls(text)) return text;
  return splitBidi(text).map((piece) =>
    piece.kind === "text" ? (
      // Each piece says where it starts, so a click in it maps back to an offset in the text.
      <span key={piece.start} data-piece-start={piece.start}>
        {piece.text}
      </span>
    ) : (
      <span key={piece.start} className="bidi-mark" data-piece-start={piece.start} data-testid="bidi-mark" title={`${piece.name}: a direction control in the text, shown instead of applied`}>
        ⟨{piece.code}⟩
      </span>
    ),
  );
}

export function VisibleBidi({ text }: { text: string }) {
  return <>{visibleBidi(text)}</>;
}
