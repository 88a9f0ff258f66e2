// Cuts a tokenized text into display rows for the virtualised token view: a row ends after a
// token holding a line break, or once it is wide enough. Linear in the number of tokens.
import type { TokenizedText } from "../../tokens/token-spans.ts";

export const ROW_CHARS = 44;
/** Rows of ids alone (when the tokens could not be placed in the text). */
const IDS_PER_ROW = 12;

/** Each row's first token; the last row ends at the token count. */
export function tokenRows(text: string, tokens: TokenizedText): Int32Array {
  const count = tokens.ids.length;
  const starts: number[] = [];
  if (!tokens.spans) {
    for (let i = 0; i < count; i += IDS_PER_ROW) starts.push(i);
    return Int32Array.from(starts);
  }
  const { starts: from, ends: to } = tokens.spans;
  let width = 0;
  for (let i = 0; i < count; i++) {
    if (width === 0) starts.push(i);
    const piece = text.slice(from[i], to[i]);
    width += Math.max(1, piece.length) + 1;
    if (piece.includes("\n") || width >= ROW_CHARS) width = 0;
  }
  return Int32Array.from(starts);
}

/** A token's text as drawn: line breaks and tabs made visible, an empty piece marked. */
export function tokenLabel(piece: string): string {
  if (piece === "") return "◌";
  return piece.replaceAll("\n", "↵").replaceAll("\t", "⇥").replaceAll("\r", "␍");
}
