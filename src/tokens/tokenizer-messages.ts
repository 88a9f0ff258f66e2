// The messages between the page and the lab's tokenizer worker (tokenizer.worker.ts).
import type { TokenizedText } from "./token-spans.ts";

export interface TokenizeRequest {
  requestId: number;
  /** Where the tokenizer.json is served (fetched once per worker). */
  tokenizerUrl: string;
  text: string;
  /** Strings to mark as control tokens besides the tokenizer's added tokens (a template's). */
  controlTokens: readonly string[];
}

export type TokenizeReply = { requestId: number; result: TokenizedText } | { requestId: number; error: string };
