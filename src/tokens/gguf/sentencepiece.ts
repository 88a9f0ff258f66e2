// SentencePiece-style BPE as llama.cpp runs it for "llama" vocabularies (llm_tokenizer_spm):
// spaces written as "▁", the text split into characters, and adjacent symbols merged while their
// joined text is a token, highest score first (leftmost on a tie). A character that is no token
// is written as its UTF-8 bytes' <0xNN> tokens.
import { MinHeap } from "./min-heap.ts";
import type { GgufVocabulary } from "./gguf-vocabulary.ts";

interface Pair {
  left: number;
  right: number;
  score: number;
  length: number;
}

const encoder = new TextEncoder();

/** The <0xNN> token of a byte. */
function byteToken(vocabulary: GgufVocabulary, byte: number): number {
  const id = vocabulary.idOf.get(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
  if (id === undefined) throw new Error(`The vocabulary has no byte token for 0x${byte.toString(16)} to spell an unknown character with.`);
  return id;
}

/** Tokenizes one fragment (no special tokens in it) and appends the ids. */
export function encodeSentencePiece(fragment: string, vocabulary: GgufVocabulary, out: number[]): void {
  const text = fragment.replaceAll(" ", "\u2581");
  const symbols = Array.from(text);
  const next = symbols.map((_, i) => (i + 1 < symbols.length ? i + 1 : -1));
  const prev = symbols.map((_, i) => i - 1);
  const scores = vocabulary.scores!;
  const queue = new MinHeap<Pair>((a, b) => a.score > b.score || (a.score === b.score && a.left < b.left));
  const consider = (left: number, right: number) => {
    if (left < 0 || right < 0) return;
    const joined = symbols[left]! + symbols[right]!;
    const id = vocabulary.idOf.get(joined);
    if (id === undefined || id >= vocabulary.tokens.length) return;
    queue.push({ left, right, score: scores[id]!, length: joined.length });
  };
  for (let i = 1; i < symbols.length; i++) consider(i - 1, i);
  while (queue.size > 0) {
    const pair = queue.pop()!;
    const left = symbols[pair.left]!;
    const right = symbols[pair.right]!;
    // A pair whose sides changed since it was queued is stale (llama.cpp checks the joined length).
    if (left.length === 0 || right.length === 0 || left.length + right.length !== pair.length) continue;
    symbols[pair.left] = left + right;
    symbols[pair.right] = "";
    next[pair.left] = next[pair.right]!;
    if (next[pair.right]! >= 0) prev[next[pair.right]!] = pair.left;
    consider(prev[pair.left]!, pair.left);
    consider(pair.left, next[pair.left]!);
  }
  for (let i = 0; i >= 0 && i < symbols.length; i = next[i]!) {
    const symbol = symbols[i]!;
    const id = vocabulary.idOf.get(symbol);
    if (id !== undefined) out.push(id);
    else for (const byte of encoder.encode(symbol)) out.push(byteToken(vocabulary, byte));
  }
}
