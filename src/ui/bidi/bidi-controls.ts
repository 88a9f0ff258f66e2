// Bidirectional control characters reorder how the text around them is shown: U+202E makes
// "txt.exe" appear as "exe.txt", and can make a tool's arguments or a parse error read as
// something else than what the model wrote. The lab shows each one as a visible mark instead.

/** Embeddings, overrides, isolates and the invisible direction marks (LRM, RLM, ALM). */
export const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMES: Record<string, string> = {
  "\u061c": "ARABIC LETTER MARK",
  "\u200e": "LEFT-TO-RIGHT MARK",
  "\u200f": "RIGHT-TO-LEFT MARK",
  "\u202a": "LEFT-TO-RIGHT EMBEDDING",
  "\u202b": "RIGHT-TO-LEFT EMBEDDING",
  "\u202c": "POP DIRECTIONAL FORMATTING",
  "\u202d": "LEFT-TO-RIGHT OVERRIDE",
  "\u202e": "RIGHT-TO-LEFT OVERRIDE",
  "\u2066": "LEFT-TO-RIGHT ISOLATE",
  "\u2067": "RIGHT-TO-LEFT ISOLATE",
  "\u2068": "FIRST STRONG ISOLATE",
  "\u2069": "POP DIRECTIONAL ISOLATE",
};

export type BidiPiece = { kind: "text"; text: string; start: number } | { kind: "control"; code: string; name: string; start: number };

export function hasBidiControls(text: string): boolean {
  return BIDI_CONTROL.test(text);
}

/** "U+202E" for a character. */
export function codePointLabel(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The text cut at each bidi control character; `start` is each piece's offset in the text. */
export function splitBidi(text: string): BidiPiece[] {
  const pieces: BidiPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(BIDI_CONTROLS)) {
    const at = match.index;
    if (at > last) pieces.push({ kind: "text", text: text.slice(last, at), start: last });
    pieces.push({ kind: "control", code: codePointLabel(match[0]), name: NAMES[match[0]] ?? "direction control", start: at });
    last = at + 1;
  }
  if (last < text.length) pieces.push({ kind: "text", text: text.slice(last), start: last });
  return pieces;
}

/** For plain-text places (a tooltip, a title attribute): each control written as ⟨U+202E⟩. */
export function showBidiControls(text: string): string {
  return hasBidiControls(text) ? text.replace(BIDI_CONTROLS, (ch) => `⟨${codePointLabel(ch)}⟩`) : text;
}
