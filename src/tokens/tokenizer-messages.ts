// The messages between the page and the lab's tokenizer worker (tokenizer.worker.ts).
import type { TokenizedText } from "./token-spans.ts";

/**
 * Where the worker reads a tokenizer from: a tokenizer.json served at a URL (read with
 * web-tokenizers), or a GGUF model file whose vocabulary it reads (only the metadata part: by
 * HTTP Range requests from a URL, by slices from a dropped or picked file).
 */
export type TokenizerFile =
  | { kind: "tokenizer-json"; url: string }
  | { kind: "gguf-url"; url: string }
  | { kind: "gguf-blob"; blob: Blob; key: string };

export interface TokenizeRequest {
  requestId: number;
  file: TokenizerFile;
  text: string;
  /** Strings to mark as control tokens besides the tokenizer's added tokens (a template's). */
  controlTokens: readonly string[];
}

export type TokenizeReply = { requestId: number; result: TokenizedText } | { requestId: number; error: string };

/** The key the worker caches a loaded tokenizer under. */
export function tokenizerFileKey(file: TokenizerFile): string {
  return file.kind === "gguf-blob" ? `gguf-blob:${file.key}` : `${file.kind}:${file.url}`;
}
