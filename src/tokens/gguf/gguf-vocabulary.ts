// The vocabulary a GGUF file carries (tokenizer.ggml.*), in the form the tokenizers use: text to
// id, token types as llama.cpp reads them, merges (byte-level BPE) or scores (SentencePiece),
// and the special tokens llama.cpp splits a text by, longest first.
import { ggufBoolean, ggufNumber, ggufNumbers, ggufString, ggufStrings, type GgufMetadata } from "../../gguf/gguf-metadata.ts";

/** `tokenizer.ggml.token_type` values (llama.cpp's llama_token_type). */
export const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, userDefined: 4, unused: 5, byte: 6 } as const;

export type GgufTokenizerKind = "byte-level-bpe" | "sentencepiece";

export interface GgufVocabulary {
  kind: GgufTokenizerKind;
  /** `tokenizer.ggml.pre`: the byte-level pre-tokenizer's name. */
  pre: string;
  tokens: readonly string[];
  types: ArrayLike<number>;
  idOf: ReadonlyMap<string, number>;
  /** SentencePiece scores (higher merges first). */
  scores: ArrayLike<number> | undefined;
  /** Byte-level BPE merge ranks, keyed "left right" as the file writes them. */
  mergeRank: ReadonlyMap<string, number> | undefined;
  /** Control, user-defined and unknown tokens, longest (in bytes) first: what llama.cpp splits a text by. */
  specials: readonly number[];
  bos: number | undefined;
  eos: number | undefined;
  addBos: boolean;
  addEos: boolean;
  addSpacePrefix: boolean;
}

export class GgufVocabularyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GgufVocabularyError";
  }
}

const encoder = new TextEncoder();

function isSpecial(type: number): boolean {
  return type === TOKEN_TYPE.control || type === TOKEN_TYPE.userDefined || type === TOKEN_TYPE.unknown;
}

export function vocabularyFromGguf(metadata: GgufMetadata): GgufVocabulary {
  const model = ggufString(metadata, "tokenizer.ggml.model");
  const tokens = ggufStrings(metadata, "tokenizer.ggml.tokens");
  if (!tokens || tokens.length === 0) throw new GgufVocabularyError("The GGUF file has no vocabulary (tokenizer.ggml.tokens).");
  let kind: GgufTokenizerKind;
  if (model === "gpt2") kind = "byte-level-bpe";
  else if (model === "llama") kind = "sentencepiece";
  else throw new GgufVocabularyError(`The lab's own tokenizer reads "gpt2" (byte-level BPE) and "llama" (SentencePiece) vocabularies; this file's is "${model ?? "not named"}".`);
  const pre = ggufString(metadata, "tokenizer.ggml.pre") ?? "default";
  if (kind === "byte-level-bpe" && !BYTE_LEVEL_PRE_TOKENIZERS.has(pre)) {
    throw new GgufVocabularyError(`The lab's byte-level tokenizer knows the pre-tokenizers ${[...BYTE_LEVEL_PRE_TOKENIZERS].join(", ")}; this file's is "${pre}".`);
  }
  const types = ggufNumbers(metadata, "tokenizer.ggml.token_type") ?? new Int32Array(tokens.length).fill(TOKEN_TYPE.normal);
  if (types.length < tokens.length) throw new GgufVocabularyError(`The GGUF file has ${types.length} token types for ${tokens.length} tokens.`);
  const idOf = new Map<string, number>();
  // llama.cpp keeps the last id of a repeated text.
  tokens.forEach((token, id) => idOf.set(token === "" ? `[EMPTY_${id}]` : token, id));
  const scores = ggufNumbers(metadata, "tokenizer.ggml.scores");
  if (kind === "sentencepiece" && (!scores || scores.length < tokens.length)) throw new GgufVocabularyError("The SentencePiece vocabulary has no scores for its tokens (tokenizer.ggml.scores).");
  let mergeRank: Map<string, number> | undefined;
  if (kind === "byte-level-bpe") {
    const merges = ggufStrings(metadata, "tokenizer.ggml.merges");
    if (!merges) throw new GgufVocabularyError("The byte-level BPE vocabulary has no merges (tokenizer.ggml.merges).");
    mergeRank = new Map();
    merges.forEach((merge, rank) => {
      if (!mergeRank!.has(merge)) mergeRank!.set(merge, rank);
    });
  }
  const specials = tokens
    .map((_, id) => id)
    .filter((id) => isSpecial(types[id]!) && tokens[id] !== "")
    .map((id) => ({ id, bytes: encoder.encode(tokens[id]!).length }))
    .sort((a, b) => b.bytes - a.bytes || a.id - b.id)
    .map(({ id }) => id);
  return {
    kind,
    pre,
    tokens,
    types,
    idOf,
    scores,
    mergeRank,
    specials,
    bos: ggufNumber(metadata, "tokenizer.ggml.bos_token_id"),
    eos: ggufNumber(metadata, "tokenizer.ggml.eos_token_id"),
    addBos: ggufBoolean(metadata, "tokenizer.ggml.add_bos_token") ?? kind === "sentencepiece",
    addEos: ggufBoolean(metadata, "tokenizer.ggml.add_eos_token") ?? false,
    addSpacePrefix: ggufBoolean(metadata, "tokenizer.ggml.add_space_prefix") ?? kind === "sentencepiece",
  };
}

/** Pre-tokenizers that split every digit off, then split as GPT-2 (llama.cpp's SMOLLM group). */
export const DIGIT_SPLITTING_PRE_TOKENIZERS: ReadonlySet<string> = new Set(["smollm", "starcoder", "refact", "command-r", "codeshell", "exaone", "minerva-7b"]);
/** Pre-tokenizers that split as GPT-2 only (llama.cpp's GPT2 group). */
export const GPT2_PRE_TOKENIZERS: ReadonlySet<string> = new Set(["gpt-2", "phi-2", "mpt", "olmo"]);
/** Byte-level pre-tokenizers this tokenizer writes; only "smollm" is checked against llama.cpp. */
export const BYTE_LEVEL_PRE_TOKENIZERS: ReadonlySet<string> = new Set([...DIGIT_SPLITTING_PRE_TOKENIZERS, ...GPT2_PRE_TOKENIZERS]);
