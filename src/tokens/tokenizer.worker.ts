// The lab's tokenizer worker: reads a tokenizer.json (the Qwen3 one the app serves for the
// replay engine and for before a model is loaded) with web-tokenizers, WebLLM's own tokenizer
// library, or a GGUF model's own vocabulary (src/tokens/gguf: only the file's metadata is read),
// and tokenizes off the main thread. Files load only when a token view or count first asks.
import { Tokenizer } from "@mlc-ai/web-tokenizers";
import { ggufReaderForBlob, ggufReaderForUrl, readGgufMetadata } from "../gguf/gguf-metadata.ts";
import { GgufTokenizer } from "./gguf/gguf-tokenizer.ts";
import { describeVocabulary, tokenizeWith } from "./tokenize-with.ts";
import { tokenizerFileKey, type TokenizeReply, type TokenizeRequest, type TokenizerFile } from "./tokenizer-messages.ts";
import type { TokenizedText, VocabularyKind } from "./token-spans.ts";

interface Loaded {
  tokenize: (text: string, controlTokens: readonly string[]) => TokenizedText;
}

const loaded = new Map<string, Promise<Loaded>>();

async function loadTokenizerJson(url: string): Promise<Loaded> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The tokenizer file could not be fetched (${response.status} ${response.statusText} at ${url}).`);
  const bytes = await response.arrayBuffer();
  const vocabulary: { added: Set<string>; kind: VocabularyKind } = describeVocabulary(JSON.parse(new TextDecoder().decode(bytes)) as Parameters<typeof describeVocabulary>[0]);
  const tokenizer = await Tokenizer.fromJSON(bytes);
  return { tokenize: (text, controlTokens) => tokenizeWith(tokenizer, text, new Set([...vocabulary.added, ...controlTokens]), vocabulary.kind) };
}

async function loadGguf(file: Extract<TokenizerFile, { kind: "gguf-url" | "gguf-blob" }>): Promise<Loaded> {
  const read = file.kind === "gguf-url" ? ggufReaderForUrl(file.url) : ggufReaderForBlob(file.blob);
  const tokenizer = GgufTokenizer.fromMetadata(await readGgufMetadata(read));
  // A GGUF knows its own special tokens; the template's control tokens are among them.
  return { tokenize: (text) => tokenizer.tokenize(text) };
}

function load(file: TokenizerFile): Promise<Loaded> {
  return file.kind === "tokenizer-json" ? loadTokenizerJson(file.url) : loadGguf(file);
}

self.onmessage = async (event: MessageEvent<TokenizeRequest>) => {
  const { requestId, file, text, controlTokens } = event.data;
  let reply: TokenizeReply;
  try {
    const key = tokenizerFileKey(file);
    let pending = loaded.get(key);
    if (!pending) {
      pending = load(file);
      loaded.set(key, pending);
      // A failed load is tried again at the next request, not remembered.
      pending.catch(() => loaded.delete(key));
    }
    reply = { requestId, result: (await pending).tokenize(text, controlTokens) };
  } catch (error) {
    reply = { requestId, error: error instanceof Error ? error.message : String(error) };
  }
  const transfer = "result" in reply ? [reply.result.ids.buffer, reply.result.control.buffer, ...(reply.result.spans ? [reply.result.spans.starts.buffer, reply.result.spans.ends.buffer] : [])] : [];
  (self as unknown as Worker).postMessage(reply, transfer);
};
