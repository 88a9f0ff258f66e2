// Where each token of a tokenized text sits in that text (UTF-16 offsets), from the tokens'
// vocabulary strings: a byte-level BPE token (Qwen, Llama 3, GPT-2 style) writes each byte as
// one character of GPT-2's byte alphabet, a SentencePiece token writes a space as "▁" and a
// raw byte as "<0xNN>", and an added token (a control token such as <|im_start|>) is its own
// text. Linear in the text. When the tokens' bytes do not add up to the text's, the boundaries
// are unknown and the caller says so rather than draw wrong ones.

export type VocabularyKind = "byte-level" | "sentencepiece";

export interface TokenSpans {
  /** Start and end (UTF-16 offsets into the text) of each token; a token holding only part of a character is empty. */
  starts: Int32Array;
  ends: Int32Array;
}

export interface TokenizedText {
  ids: Int32Array;
  /** 1 where the token is an added token (a control token): one id that the text's characters spell. */
  control: Uint8Array;
  /** Where each token sits in the text; null when the tokens' bytes do not spell the text. */
  spans: TokenSpans | null;
}

/** GPT-2's byte alphabet, reversed: the byte each character of a byte-level token stands for. */
function byteLevelDecoder(): Map<number, number> {
  const decoder = new Map<number, number>();
  let next = 256;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || (byte >= 174 && byte <= 255);
    decoder.set(printable ? byte : next++, byte);
  }
  return decoder;
}
const BYTE_LEVEL = byteLevelDecoder();
const encoder = new TextEncoder();

function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** How many bytes of the text a token's vocabulary string stands for, or -1 if it cannot say. */
export function tokenByteLength(token: string, kind: VocabularyKind, added: boolean): number {
  if (added) return utf8Length(token);
  if (kind === "sentencepiece") {
    if (/^<0x[0-9A-Fa-f]{2}>$/.test(token)) return 1;
    return utf8Length(token.replaceAll("\u2581", " "));
  }
  let bytes = 0;
  for (const char of token) {
    if (!BYTE_LEVEL.has(char.codePointAt(0)!)) return -1;
    bytes++;
  }
  return bytes;
}

/** Whether each token is an added token (a control token). */
export function markAdded(tokens: readonly string[], added: ReadonlySet<string>): Uint8Array {
  return Uint8Array.from(tokens, (token) => (added.has(token) ? 1 : 0));
}

/**
 * Places the tokens in the text. `tokens` are the vocabulary strings of `ids`; `added` the
 * tokenizer's added tokens (their strings). Returns null when the tokens do not spell the text.
 */
export function placeTokens(text: string, tokens: readonly string[], added: ReadonlySet<string>, kind: VocabularyKind): TokenSpans | null {
  const count = tokens.length;
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  let char = 0; // UTF-16 offset of the next character not yet placed
  let charByte = 0; // byte offset where that character starts
  let byte = 0; // byte offset where the current token starts
  for (let i = 0; i < count; i++) {
    const isAdded = added.has(tokens[i]!);
    const length = tokenByteLength(tokens[i]!, kind, isAdded);
    if (length < 0) return null;
    byte += length;
    starts[i] = char;
    // A character belongs to the token that holds its last byte.
    while (char < text.length) {
      const code = text.codePointAt(char)!;
      const width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      if (charByte + width > byte) break;
      charByte += width;
      char += code >= 0x10000 ? 2 : 1;
    }
    ends[i] = char;
  }
  if (char !== text.length || charByte !== byte) return null;
  return { starts, ends };
}
