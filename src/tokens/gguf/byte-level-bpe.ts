// Byte-level BPE as llama.cpp runs it for "gpt2" vocabularies: split the text into words
// (the SMOLLM pre-tokenizer: every digit alone, then GPT-2's rule 's|'t|…| ?\p{L}+| ?\p{N}+|
// ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+ within each piece), write each word's UTF-8 bytes in GPT-2's
// byte alphabet, and merge adjacent symbols lowest merge rank first (leftmost on a tie).
// Letters and numbers are Unicode's \p{L} and \p{N}; whitespace is llama.cpp's own list (not
// JavaScript's \s: it has U+0085 and lacks U+FEFF).
import { MinHeap } from "./min-heap.ts";
import { DIGIT_SPLITTING_PRE_TOKENIZERS, type GgufVocabulary } from "./gguf-vocabulary.ts";

const WHITESPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);
const LETTER = /\p{L}/u;
const NUMBER = /\p{N}/u;

const enum CharClass {
  Whitespace = 1,
  Letter = 2,
  Number = 3,
  Other = 4,
}

const ASCII_CLASSES = Array.from({ length: 128 }, (_, code) => classify(code));

function classify(code: number): CharClass {
  if (WHITESPACE.has(code)) return CharClass.Whitespace;
  const char = String.fromCodePoint(code);
  if (LETTER.test(char)) return CharClass.Letter;
  if (NUMBER.test(char)) return CharClass.Number;
  return CharClass.Other;
}

function classOf(code: number): CharClass {
  return code < 128 ? ASCII_CLASSES[code]! : classify(code);
}

/** GPT-2's byte alphabet: the character each byte is written as. */
const BYTE_CHARS: readonly string[] = (() => {
  const chars = new Array<string>(256);
  let next = 256;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
    chars[byte] = String.fromCodePoint(printable ? byte : next++);
  }
  return chars;
})();

const APOSTROPHE = 0x27;

/**
 * GPT-2's split of one piece (code points `from`..`to`), as llama.cpp's hand-written version of
 * the regex does it; pushes each word's end.
 */
function splitGpt2(codes: readonly number[], from: number, to: number, ends: number[]): void {
  const classAt = (at: number): CharClass | 0 => (at < to ? classOf(codes[at]!) : 0);
  let at = from;
  while (at < to) {
    const code = codes[at]!;
    if (code === APOSTROPHE && at + 1 < to) {
      const next = codes[at + 1]!;
      if (next === 0x73 || next === 0x74 || next === 0x6d || next === 0x64) {
        at += 2;
        ends.push(at);
        continue;
      }
      if (at + 2 < to) {
        const after = codes[at + 2]!;
        if ((next === 0x72 && after === 0x65) || (next === 0x76 && after === 0x65) || (next === 0x6c && after === 0x6c)) {
          at += 3;
          ends.push(at);
          continue;
        }
      }
    }
    const leading = code === 0x20 ? classAt(at + 1) : classAt(at);
    if (leading === CharClass.Letter || leading === CharClass.Number || leading === CharClass.Other) {
      if (code === 0x20) at++;
      while (classAt(at) === leading) at++;
      ends.push(at);
      continue;
    }
    let spaces = 0;
    while (classAt(at + spaces) === CharClass.Whitespace) spaces++;
    if (spaces > 1 && at + spaces < to) {
      // \s+(?!\S): the last whitespace goes with the word after it.
      at += spaces - 1;
      ends.push(at);
      continue;
    }
    at += Math.max(spaces, 1);
    ends.push(at);
  }
}

/** The words of a text, as llama.cpp's pre-tokenizer gives them. */
export function preTokenize(text: string, pre: string): string[] {
  const codes: number[] = [];
  const offsets: number[] = []; // UTF-16 offset of each code point
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    codes.push(code);
    offsets.push(i);
    i += code > 0xffff ? 2 : 1;
  }
  offsets.push(text.length);
  const pieces: Array<[number, number]> = [];
  if (DIGIT_SPLITTING_PRE_TOKENIZERS.has(pre)) {
    let start = 0;
    for (let i = 0; i < codes.length; i++) {
      if (classOf(codes[i]!) !== CharClass.Number) continue;
      if (i > start) pieces.push([start, i]);
      pieces.push([i, i + 1]);
      start = i + 1;
    }
    if (start < codes.length) pieces.push([start, codes.length]);
  } else {
    pieces.push([0, codes.length]);
  }
  const ends: number[] = [];
  for (const [from, to] of pieces) splitGpt2(codes, from, to, ends);
  const words: string[] = [];
  let start = 0;
  for (const end of ends) {
    words.push(text.slice(offsets[start], offsets[end]));
    start = end;
  }
  return words;
}

const encoder = new TextEncoder();

/** A word's UTF-8 bytes, each written as its byte-alphabet character. */
export function byteLevelSymbols(word: string): string[] {
  return Array.from(encoder.encode(word), (byte) => BYTE_CHARS[byte]!);
}

interface Pair {
  left: number;
  right: number;
  rank: number;
  leftLength: number;
  rightLength: number;
}

/** Merges one word's symbols by rank and appends their ids. */
export function mergeWord(symbols: string[], vocabulary: GgufVocabulary, out: number[]): void {
  const ranks = vocabulary.mergeRank!;
  const text = symbols.slice();
  const next = symbols.map((_, i) => (i + 1 < symbols.length ? i + 1 : -1));
  const prev = symbols.map((_, i) => i - 1);
  const queue = new MinHeap<Pair>((a, b) => a.rank < b.rank || (a.rank === b.rank && a.left < b.left));
  const consider = (left: number, right: number) => {
    if (left < 0 || right < 0) return;
    const rank = ranks.get(`${text[left]} ${text[right]}`);
    if (rank !== undefined) queue.push({ left, right, rank, leftLength: text[left]!.length, rightLength: text[right]!.length });
  };
  for (let i = 1; i < symbols.length; i++) consider(i - 1, i);
  while (queue.size > 0) {
    const pair = queue.pop()!;
    const left = text[pair.left]!;
    const right = text[pair.right]!;
    // A pair whose sides changed since it was queued is stale.
    if (left.length === 0 || right.length === 0 || left.length !== pair.leftLength || right.length !== pair.rightLength || next[pair.left] !== pair.right) continue;
    text[pair.left] = left + right;
    text[pair.right] = "";
    next[pair.left] = next[pair.right]!;
    if (next[pair.right]! >= 0) prev[next[pair.right]!] = pair.left;
    consider(prev[pair.left]!, pair.left);
    consider(pair.left, next[pair.left]!);
  }
  for (let i = 0; i >= 0 && i < text.length; i = next[i]!) {
    const symbol = text[i]!;
    const id = vocabulary.idOf.get(symbol);
    if (id !== undefined) {
      out.push(id);
      continue;
    }
    // llama.cpp looks each byte of the symbol up alone; what it cannot find it leaves out.
    for (const byte of encoder.encode(symbol)) {
      const single = byte < 0x80 ? vocabulary.idOf.get(String.fromCharCode(byte)) : undefined;
      if (single !== undefined) out.push(single);
    }
  }
}

/** Tokenizes a text without special tokens (one fragment between them). */
export function encodeByteLevel(text: string, vocabulary: GgufVocabulary, out: number[], cache: Map<string, number[]>): void {
  for (const word of preTokenize(text, vocabulary.pre)) {
    let ids = cache.get(word);
    if (!ids) {
      ids = [];
      mergeWord(byteLevelSymbols(word), vocabulary, ids);
      if (cache.size >= 65_536) cache.clear();
      cache.set(word, ids);
    }
    for (const id of ids) out.push(id);
  }
}
