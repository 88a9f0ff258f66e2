// The messages between the page and the model worker. The worker runs WebLLM's own
// WebWorkerMLCEngineHandler, so the standard kinds are WebLLM 0.2.86's worker protocol
// ({kind, uuid, content}; answers are "return" or "throw" with the same uuid). The page speaks
// it with its own small client (worker-client.ts) instead of WebLLM's WebWorkerMLCEngine, so
// WebLLM's library is downloaded once, for the worker. The "lab:" kinds are ours, answered by
// LabWorkerHandler (lab-worker-handler.ts). Types only: nothing here imports WebLLM.

export interface WorkerRequestMessage {
  kind: string;
  uuid: string;
  content: unknown;
}

export type WorkerReplyMessage =
  | { kind: "return" | "throw"; uuid: string; content: unknown }
  | { kind: "initProgressCallback"; uuid: string; content: { progress: number; timeElapsed: number; text: string } }
  /** Sent unasked when WebLLM unloaded the model by itself (its answer to a lost GPU device). */
  | { kind: typeof LAB_MODEL_LOST; uuid: string; content: { modelIds: string[] } };

export const LAB_COUNT_TOKENS = "lab:countTokens";
export const LAB_TOKENIZE = "lab:tokenize";
export const LAB_MODEL_INFO = "lab:modelInfo";
export const LAB_CACHE_STATUS = "lab:cacheStatus";
export const LAB_DELETE_FROM_CACHE = "lab:deleteFromCache";
export const LAB_MODEL_LOST = "lab:modelLost";

export interface CountTokensContent {
  prompt: string;
}

/** Token ids of a text with the loaded model's tokenizer, each placed in the text (TokenizedText). */
export interface TokenizeContent {
  text: string;
  /** The template's control tokens: the ones to mark (WebLLM's pipeline does not list its added tokens). */
  controlTokens: string[];
}

/** What the worker reports about the loaded model, read from its merged chat config. */
export interface ModelInfo {
  modelId: string;
  contextWindowSize?: number;
  /** -1 when the model has no sliding window (the context window is a hard limit). */
  slidingWindowSize?: number;
}

export interface CacheStatusContent {
  modelIds: string[];
}

export interface DeleteFromCacheContent {
  modelId: string;
}
