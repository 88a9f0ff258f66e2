// What an engine needs to know about a GGUF model besides its tokenizer, read from its metadata:
// the context window it was trained for, its BOS/EOS tokens and whether llama.cpp adds BOS.
import { ggufBoolean, ggufNumber, ggufString, ggufStrings, type GgufMetadata } from "./gguf-metadata.ts";

export interface GgufModelFacts {
  architecture: string | undefined;
  name: string | undefined;
  /** `<architecture>.context_length`: the window the model was trained for. */
  contextLength: number | undefined;
  bosToken: string | undefined;
  eosToken: string | undefined;
  /** Whether llama.cpp puts BOS before a prompt it tokenizes with add_special (llama.cpp's default: SentencePiece vocabularies do). */
  addsBos: boolean;
  chatTemplate: string | undefined;
}

function tokenAt(tokens: string[] | undefined, id: number | undefined): string | undefined {
  return tokens !== undefined && id !== undefined ? tokens[id] : undefined;
}

export function ggufModelFacts(metadata: GgufMetadata): GgufModelFacts {
  const architecture = ggufString(metadata, "general.architecture");
  const tokens = ggufStrings(metadata, "tokenizer.ggml.tokens");
  const model = ggufString(metadata, "tokenizer.ggml.model");
  return {
    architecture,
    name: ggufString(metadata, "general.name"),
    contextLength: architecture !== undefined ? ggufNumber(metadata, `${architecture}.context_length`) : undefined,
    bosToken: tokenAt(tokens, ggufNumber(metadata, "tokenizer.ggml.bos_token_id")),
    eosToken: tokenAt(tokens, ggufNumber(metadata, "tokenizer.ggml.eos_token_id")),
    addsBos: ggufBoolean(metadata, "tokenizer.ggml.add_bos_token") ?? model === "llama",
    chatTemplate: ggufString(metadata, "tokenizer.chat_template"),
  };
}
