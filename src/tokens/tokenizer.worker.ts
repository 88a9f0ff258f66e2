// The lab's tokenizer worker: reads a tokenizer.json (the Qwen3 one the app serves for the
// replay engine and for before a model is loaded) with web-tokenizers, WebLLM's own tokenizer
// library, and tokenizes off the main thread. The 11 MB file and the wasm load only when a
// token view or count is first asked for.
import { Tokenizer } from "@mlc-ai/web-tokenizers";
import { describeVocabulary, tokenizeWith } from "./tokenize-with.ts";
import type { TokenizeReply, TokenizeRequest } from "./tokenizer-messages.ts";
import type { VocabularyKind } from "./token-spans.ts";

interface Loaded {
  tokenizer: Tokenizer;
  added: Set<string>;
  kind: VocabularyKind;
}

const loaded = new Map<string, Promise<Loaded>>();

async function load(url: string): Promise<Loaded> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The tokenizer file could not be fetched (${response.status} ${response.statusText} at ${url}).`);
  const bytes = await response.arrayBuffer();
  const vocabulary = describeVocabulary(JSON.parse(new TextDecoder().decode(bytes)) as Parameters<typeof describeVocabulary>[0]);
  return { tokenizer: await Tokenizer.fromJSON(bytes), ...vocabulary };
}

self.onmessage = async (event: MessageEvent<TokenizeRequest>) => {
  const { requestId, tokenizerUrl, text, controlTokens } = event.data;
  let reply: TokenizeReply;
  try {
    let pending = loaded.get(tokenizerUrl);
    if (!pending) {
      pending = load(tokenizerUrl);
      loaded.set(tokenizerUrl, pending);
      // A failed load is tried again at the next request, not remembered.
      pending.catch(() => loaded.delete(tokenizerUrl));
    }
    const { tokenizer, added, kind } = await pending;
    const result = tokenizeWith(tokenizer, text, new Set([...added, ...controlTokens]), kind);
    reply = { requestId, result };
  } catch (error) {
    reply = { requestId, error: error instanceof Error ? error.message : String(error) };
  }
  const transfer = "result" in reply ? [reply.result.ids.buffer, reply.result.control.buffer, ...(reply.result.spans ? [reply.result.spans.starts.buffer, reply.result.spans.ends.buffer] : [])] : [];
  (self as unknown as Worker).postMessage(reply, transfer);
};
