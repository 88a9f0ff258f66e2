// Tokenizes a text with a tokenizer of `@mlc-ai/web-tokenizers` (the library WebLLM reads its
// models' tokenizers with) and places each token in the text. Used in workers only: the lab's
// tokenizer worker and WebLLM's model worker.
import { markAdded, placeTokens, type TokenizedText, type VocabularyKind } from "./token-spans.ts";

/** The part of web-tokenizers' Tokenizer that we use. */
export interface WebTokenizer {
  encode: (text: string) => ArrayLike<number>;
  idToToken: (id: number) => string;
}

export function tokenizeWith(tokenizer: WebTokenizer, text: string, added: ReadonlySet<string>, kind: VocabularyKind): TokenizedText {
  const ids = Int32Array.from(tokenizer.encode(text));
  const tokens = Array.from(ids, (id) => tokenizer.idToToken(id));
  return { ids, control: markAdded(tokens, added), spans: placeTokens(text, tokens, added, kind) };
}

/** What a tokenizer.json says about its vocabulary: its added tokens and how tokens spell bytes. */
export function describeVocabulary(tokenizerJson: { added_tokens?: Array<{ content?: unknown }>; decoder?: unknown }): { added: Set<string>; kind: VocabularyKind } {
  const added = new Set((tokenizerJson.added_tokens ?? []).flatMap((token) => (typeof token.content === "string" ? [token.content] : [])));
  const decoder = JSON.stringify(tokenizerJson.decoder ?? null);
  return { added, kind: decoder.includes("ByteLevel") ? "byte-level" : "sentencepiece" };
}

/**
 * Tokenizes with a tokenizer whose vocabulary kind is not known (a loaded WebLLM model's, read
 * from WebLLM's pipeline): byte-level first, then SentencePiece; the wrong kind cannot spell the text.
 */
export function tokenizeDetectingKind(tokenizer: WebTokenizer, text: string, added: ReadonlySet<string>): TokenizedText {
  const ids = Int32Array.from(tokenizer.encode(text));
  const tokens = Array.from(ids, (id) => tokenizer.idToToken(id));
  const spans = placeTokens(text, tokens, added, "byte-level") ?? placeTokens(text, tokens, added, "sentencepiece");
  return { ids, control: markAdded(tokens, added), spans };
}
