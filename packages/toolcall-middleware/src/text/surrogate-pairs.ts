// Text is cut in many places (a bound on what is recorded, pieces of a stream, runs drawn apart).
// A JavaScript string counts UTF-16 code units, and a cut between the two halves of a surrogate
// pair leaves a lone half on each side: drawn as U+FFFD, and refused by strict JSON writers
// (llama.cpp's threw on one). Every cut goes through here.

/** `at`, or one less where a cut at `at` would split a surrogate pair of `text`. */
export function cutOutsidePair(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const before = text.charCodeAt(at - 1);
  return before >= 0xd800 && before <= 0xdbff ? at - 1 : at;
}

/** The first `maxChars` code units of `text`, one fewer where the last would be a pair's first half. */
export function sliceOutsidePair(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : text.slice(0, cutOutsidePair(text, Math.max(0, maxChars)));
}

/** `text` in pieces of at most `pieceChars` code units (at least one character each), never splitting a pair. */
export function* piecesOutsidePairs(text: string, pieceChars: number): Generator<string> {
  for (let at = 0; at < text.length; ) {
    let end = cutOutsidePair(text, Math.min(text.length, at + pieceChars));
    // A piece of one code unit that is a pair's first half takes its second half along.
    if (end <= at) end = Math.min(text.length, at + 2);
    yield text.slice(at, end);
    at = end;
  }
}
