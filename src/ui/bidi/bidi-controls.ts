// Bidirectional control characters reorder how the text around them is shown: U+202E makes
// "txt.exe" appear as "exe.txt", and can make a tool's arguments or a parse error read as
// something else than what the model wrote. The lab shows each one as a visible mark instead.
// In names (a tool's), invisible characters are marked too: they make look-alike names.
import { hasInvisibleCharacters, INVISIBLE_CHARACTERS, invisibleCharacterName } from "toolcall-middleware/tools/invisible-characters.ts";

/** Embeddings, overrides, isolates and the invisible direction marks (LRM, RLM, ALM). */
export const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** In names, invisible characters too (zero-width spaces and joiners, BOM, tags…): see invisible-characters.ts. */
const NAME_MARKS = new RegExp(`${BIDI_CONTROLS.source}|${INVISIBLE_CHARACTERS.source}`, "g");

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

/**
 * In texts the debugger shows as they are (the prompt, the server's prompt, tokens): besides the
 * bidi controls, characters that draw as nothing or change what follows without a trace —
 * zero-width spaces and joiners, word joiners and invisible operators, the BOM, the Mongolian
 * vowel separator, the soft hyphen, tag characters (text a reader cannot see), and control
 * characters (NUL, ESC and the rest of C0 but tab, line feed and carriage return; DEL; C1).
 * Variation selectors are left alone: emoji carry them.
 */
const TEXT_MARKS = new RegExp(`${BIDI_CONTROLS.source}|[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]|\udb40[\udc00-\udc7f]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]`, "g");

const CONTROL_NAMES: Record<string, string> = { "\u0000": "NULL", "\u001b": "ESCAPE", "\u0007": "BELL", "\u0008": "BACKSPACE", "\u007f": "DELETE" };

/** Whether `text` holds a character visibleText marks. */
export function hasTextMarks(text: string): boolean {
  TEXT_MARKS.lastIndex = 0;
  const found = TEXT_MARKS.test(text);
  TEXT_MARKS.lastIndex = 0;
  return found;
}

/** The text cut at each bidi control, invisible character and control character. */
export function splitText(text: string): BidiPiece[] {
  return splitAt(text, TEXT_MARKS);
}

/** A character's name for a tooltip: a control character's own, else the invisible character's. */
export function markName(ch: string): string {
  const code = ch.charCodeAt(0);
  if (CONTROL_NAMES[ch]) return CONTROL_NAMES[ch];
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return "control character";
  return invisibleCharacterName(ch);
}

export type BidiPiece =
  | { kind: "text"; text: string; start: number }
  | { kind: "control"; code: string; name: string; start: number }
  | { kind: "invisible"; code: string; name: string; start: number; length: number };

export function hasBidiControls(text: string): boolean {
  return BIDI_CONTROL.test(text);
}

/** "U+202E" for a character. */
export function codePointLabel(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The text cut at each bidi control character; `start` is each piece's offset in the text. */
export function splitBidi(text: string): BidiPiece[] {
  return splitAt(text, BIDI_CONTROLS);
}

/** A name (a tool's) cut at each bidi control and each invisible character. */
export function splitName(text: string): BidiPiece[] {
  return splitAt(text, NAME_MARKS);
}

export function hasNameMarks(text: string): boolean {
  return hasBidiControls(text) || hasInvisibleCharacters(text);
}

function splitAt(text: string, marks: RegExp): BidiPiece[] {
  const pieces: BidiPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(marks)) {
    const at = match.index;
    const ch = match[0];
    if (at > last) pieces.push({ kind: "text", text: text.slice(last, at), start: last });
    if (BIDI_CONTROL.test(ch)) pieces.push({ kind: "control", code: codePointLabel(ch), name: NAMES[ch] ?? "direction control", start: at });
    else pieces.push({ kind: "invisible", code: codePointLabel(ch), name: markName(ch), start: at, length: ch.length });
    last = at + ch.length;
  }
  if (last < text.length) pieces.push({ kind: "text", text: text.slice(last), start: last });
  return pieces;
}

/** A name for plain-text places (a tooltip, a title, an option): controls and invisible characters written as ⟨U+200B⟩. */
export function showNameMarks(text: string): string {
  return hasNameMarks(text) ? text.replace(NAME_MARKS, (ch) => `⟨${codePointLabel(ch)}⟩`) : text;
}

/** For plain-text places (a tooltip, a title attribute): each control written as ⟨U+202E⟩. */
export function showBidiControls(text: string): string {
  return hasBidiControls(text) ? text.replace(BIDI_CONTROLS, (ch) => `⟨${codePointLabel(ch)}⟩`) : text;
}
