// Runs inside the model worker: WebLLM's own WebWorkerMLCEngineHandler, plus the lab's few
// messages (worker-protocol.ts) — counting a prompt's tokens with the loaded model's own
// tokenizer and listing them for the token view, the loaded model's context window, the cache status and deletion of models (so the
// page needs no copy of WebLLM for them), and a notice when WebLLM unloads the model by itself
// (which it does when the GPU device is lost: the next request would only say "Model not loaded").
import { deleteModelAllInfoInCache, hasModelInCache, prebuiltAppConfig, WebWorkerMLCEngineHandler } from "@mlc-ai/web-llm";
import { tokenizeDetectingKind } from "../../tokens/tokenize-with.ts";
import {
  LAB_CACHE_STATUS,
  LAB_COUNT_TOKENS,
  LAB_DELETE_FROM_CACHE,
  LAB_MODEL_INFO,
  LAB_MODEL_LOST,
  LAB_TOKENIZE,
  type CacheStatusContent,
  type CountTokensContent,
  type DeleteFromCacheContent,
  type ModelInfo,
  type TokenizeContent,
  type WorkerRequestMessage,
} from "./worker-protocol.ts";

/**
 * What the handler reads of WebLLM's MLCEngine beyond its public API (fields of 0.2.86 that
 * its TypeScript types mark private). The e2e harness checks them against the real engine.
 */
export interface MlcEngineInternals {
  loadedModelIdToPipeline: Map<
    string,
    {
      tokenizer: { encode: (text: string) => ArrayLike<number>; idToToken: (id: number) => string };
      getCurRoundGrammarInitTotalTime?: () => number;
      getCurRoundGrammarPerTokenTotalTime?: () => number;
    }
  >;
  chatCompletion: (request: { stream?: boolean; response_format?: { type?: string } }) => Promise<unknown>;
  loadedModelIdToChatConfig: Map<string, { context_window_size?: number; sliding_window_size?: number }>;
  unload: () => Promise<void>;
}

export class LabWorkerHandler extends WebWorkerMLCEngineHandler {
  /** > 0 while the page asked for an unload or a reload (so that unload is not a loss). */
  private askedToUnload = 0;

  constructor() {
    super();
    const engine = this.internals();
    reportStructuralTagTiming(engine);
    const unload = engine.unload.bind(engine);
    engine.unload = async () => {
      const loadedIds = [...engine.loadedModelIdToPipeline.keys()];
      const asked = this.askedToUnload > 0;
      await unload();
      if (!asked && loadedIds.length > 0) {
        // WebLLM's answer to a lost device: tell the page now, not at the next request.
        this.postMessage({ kind: LAB_MODEL_LOST, uuid: "", content: { modelIds: loadedIds } });
      }
    };
  }

  internals(): MlcEngineInternals {
    return this.engine as unknown as MlcEngineInternals;
  }

  override onmessage(event: MessageEvent | WorkerRequestMessage, onComplete?: (value: unknown) => void, onError?: () => void): void {
    const message = (event instanceof MessageEvent ? event.data : event) as WorkerRequestMessage;
    switch (message.kind) {
      case LAB_COUNT_TOKENS: {
        const { prompt } = message.content as CountTokensContent;
        void this.handleTask(message.uuid, async () => this.loadedPipeline().tokenizer.encode(prompt).length);
        return;
      }
      case LAB_TOKENIZE: {
        const { text, controlTokens } = message.content as TokenizeContent;
        // Typed arrays cross postMessage as they are; WebLLM types its answers as JSON-like.
        void this.handleTask(message.uuid, async () => tokenizeDetectingKind(this.loadedPipeline().tokenizer, text, new Set(controlTokens)) as unknown as number);
        return;
      }
      case LAB_MODEL_INFO: {
        void this.handleTask(message.uuid, async () => this.modelInfo());
        return;
      }
      case LAB_CACHE_STATUS: {
        const { modelIds } = message.content as CacheStatusContent;
        void this.handleTask(message.uuid, async () => {
          const entries = await Promise.all(modelIds.map(async (id) => [id, await hasModelInCache(id, prebuiltAppConfig).catch(() => false)] as const));
          return Object.fromEntries(entries);
        });
        return;
      }
      case LAB_DELETE_FROM_CACHE: {
        const { modelId } = message.content as DeleteFromCacheContent;
        void this.handleTask(message.uuid, async () => {
          await deleteModelAllInfoInCache(modelId, prebuiltAppConfig);
          return null;
        });
        return;
      }
      case "reload":
      case "unload": {
        // WebLLM calls its unload synchronously at the start of both tasks.
        this.askedToUnload++;
        try {
          super.onmessage(event as MessageEvent, onComplete, onError);
        } finally {
          this.askedToUnload--;
        }
        return;
      }
      default:
        super.onmessage(event as MessageEvent, onComplete, onError);
    }
  }

  private loadedPipeline() {
    const pipeline = this.internals().loadedModelIdToPipeline.values().next().value;
    if (!pipeline) throw new Error("Model not loaded: no tokenizer to count with.");
    return pipeline;
  }

  private modelInfo(): ModelInfo {
    const [modelId, config] = this.internals().loadedModelIdToChatConfig.entries().next().value ?? [];
    if (!modelId || !config) throw new Error("Model not loaded.");
    return {
      modelId,
      ...(config.context_window_size !== undefined ? { contextWindowSize: config.context_window_size } : {}),
      ...(config.sliding_window_size !== undefined ? { slidingWindowSize: config.sliding_window_size } : {}),
    };
  }
}

interface UsageChunk {
  usage?: { completion_tokens?: number; extra?: Record<string, unknown> } | null;
}

/**
 * WebLLM 0.2.86 adds its grammar timings (grammar_init_s, grammar_per_token_s) to a stream's
 * usage for json_object and grammar requests only, though it measures them for a structural tag
 * too. For a structural tag they are added here, read the same way from the pipeline.
 */
function reportStructuralTagTiming(engine: MlcEngineInternals): void {
  const chatCompletion = engine.chatCompletion.bind(engine);
  engine.chatCompletion = async (request) => {
    const result = await chatCompletion(request);
    if (!request.stream || request.response_format?.type !== "structural_tag") return result;
    const stream = result as AsyncGenerator<UsageChunk>;
    return (async function* () {
      for await (const chunk of stream) {
        const extra = chunk.usage?.extra;
        const pipeline = engine.loadedModelIdToPipeline.values().next().value;
        if (extra && extra.grammar_init_s === undefined && pipeline?.getCurRoundGrammarInitTotalTime) {
          extra.grammar_init_s = pipeline.getCurRoundGrammarInitTotalTime();
          const tokens = chunk.usage?.completion_tokens ?? 0;
          if (tokens > 0 && pipeline.getCurRoundGrammarPerTokenTotalTime) extra.grammar_per_token_s = pipeline.getCurRoundGrammarPerTokenTotalTime() / tokens;
        }
        yield chunk;
      }
    })();
  };
}
