// A tokenizer built from a GGUF file's own vocabulary that gives the ids llama.cpp gives (checked
// against llama-server's /tokenize in gguf-tokenizer.llama-server.test.ts): byte-level BPE for
// "gpt2" vocabularies (SmolLM2), SentencePiece-style merges for "llama" ones (Gemma 3). Pure: it
// runs in the lab's tokenizer worker, in Node, and wherever an engine needs a count.
import type { GgufMetadata } from "../../gguf/gguf-metadata.ts";
import { markAdded, placeTokens, type TokenizedText } from "../token-spans.ts";
import { encodeByteLevel } from "./byte-level-bpe.ts";
import { vocabularyFromGguf, type GgufVocabulary } from "./gguf-vocabulary.ts";
import { encodeSentencePiece } from "./sentencepiece.ts";
import { SpecialTokenSplitter } from "./special-token-split.ts";

export interface EncodeOptions {
  /** Add BOS/EOS where the vocabulary says to (llama.cpp's add_special); default false. */
  addSpecial?: boolean;
  /** Read special tokens' texts as those tokens (llama.cpp's parse_special); default true. */
  parseSpecial?: boolean;
}

export class GgufTokenizer {
  readonly vocabulary: GgufVocabulary;
  private readonly splitter: SpecialTokenSplitter;
  private readonly wordCache = new Map<string, number[]>();

  constructor(vocabulary: GgufVocabulary) {
    this.vocabulary = vocabulary;
    this.splitter = new SpecialTokenSplitter(vocabulary);
  }

  static fromMetadata(metadata: GgufMetadata): GgufTokenizer {
    return new GgufTokenizer(vocabularyFromGguf(metadata));
  }

  /** The token ids of a text, as llama.cpp's llama_tokenize gives them. */
  encode(text: string, { addSpecial = false, parseSpecial = true }: EncodeOptions = {}): Int32Array {
    const vocabulary = this.vocabulary;
    const out: number[] = [];
    if (addSpecial && vocabulary.addBos && vocabulary.bos !== undefined) out.push(vocabulary.bos);
    let previousSpecial = true;
    for (const fragment of this.splitter.split(text, parseSpecial)) {
      if (fragment.kind === "special") {
        out.push(fragment.id);
        previousSpecial = true;
        continue;
      }
      if (vocabulary.kind === "sentencepiece") {
        encodeSentencePiece(vocabulary.addSpacePrefix && previousSpecial ? ` ${fragment.text}` : fragment.text, vocabulary, out);
      } else {
        encodeByteLevel(fragment.text, vocabulary, out, this.wordCache);
      }
      previousSpecial = false;
    }
    if (addSpecial && vocabulary.addEos && vocabulary.eos !== undefined) out.push(vocabulary.eos);
    return Int32Array.from(out);
  }

  countTokens(text: string, options?: EncodeOptions): number {
    return this.encode(text, options).length;
  }

  /** The text a token stands for in the vocabulary (byte-level or ▁ spelling). */
  tokenText(id: number): string {
    return this.vocabulary.tokens[id] ?? "";
  }

  /** The ids with where each sits in the text, for the token view (special tokens parsed, nothing added). */
  tokenize(text: string): TokenizedText {
    const ids = this.encode(text);
    const tokens = Array.from(ids, (id) => this.tokenText(id));
    const specials = new Set(this.vocabulary.specials.map((id) => this.vocabulary.tokens[id]!));
    const kind = this.vocabulary.kind === "byte-level-bpe" ? "byte-level" : "sentencepiece";
    return { ids, control: markAdded(tokens, specials), spans: placeTokens(text, tokens, specials, kind) };
  }
}
