// The Engine interface over a model in WebLLM's worker. Where the step's template gives its
// prompt as chat turns (and the model was loaded with the lab's conv_template), it uses WebLLM's
// chat path, which keeps the KV cache across the steps of a tool loop (chat-cache.ts) and takes
// a structural tag to constrain the output; the turns are written so that WebLLM's formatter
// builds exactly the prompt we rendered (templates/chat-path.ts). Otherwise it uses the raw
// completion path, where the rendered prompt is what the tokenizer reads. Generations take turns
// (generation-queue.ts); a stop ends the stream at once, even while WebLLM is still in prefill
// and cannot be interrupted.
import type { Engine, EngineChunk, EngineUsage, GenerationRequest, GenerationSettings, StructuralTag, TokenProbability } from "toolcall-middleware/types.ts";
import { familyOfWebLlmModel } from "toolcall-middleware/families/registry.ts";
import { ChatCache, type CachePlan, type WireMessage } from "./chat-cache.ts";
import { classifyEngineError, EngineFailure } from "./engine-errors.ts";
import { GenerationQueue, type QueueState, type Turn } from "./generation-queue.ts";
import { StopStringTail } from "./stop-string-tail.ts";
import type { TokenizedText } from "../../tokens/token-spans.ts";
import { tokensFromLogprobs } from "../logprobs.ts";
import { samplingFields, type SamplingFields } from "../sampling-fields.ts";

/** The part of WebLLM's request for a streamed raw completion (CompletionCreateParams) that we use. */
export interface RawCompletionRequest extends SamplingFields {
  prompt: string;
  stream: true;
  stream_options: { include_usage: true };
  /** Each token's logprob and its `top_logprobs` most likely alternatives (WebLLM takes 0–5). */
  logprobs?: true;
  top_logprobs?: number;
}

/** WebLLM refuses top_logprobs above 5 (its CompletionCreateParams check). */
export const WEBLLM_MAX_TOP_LOGPROBS = 5;

/** The part of WebLLM's streamed chat completion request (ChatCompletionRequestStreaming) that we use. */
export interface ChatCompletionStreamRequest extends Omit<RawCompletionRequest, "prompt"> {
  messages: WireMessage[];
  extra_body?: { enable_thinking?: boolean };
  response_format?: { type: "structural_tag"; structural_tag: StructuralTag };
}

/** The part of a streamed completion chunk that we read (raw path: text; chat path: delta). */
export interface RawCompletionChunk {
  choices?: Array<{ text?: string; delta?: { content?: string | null }; finish_reason?: string | null; logprobs?: unknown }>;
  usage?: WebLlmUsage | null;
}

export interface WebLlmUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  extra?: {
    time_to_first_token_s?: number;
    decode_tokens_per_s?: number;
    prefill_tokens_per_s?: number;
    grammar_init_s?: number;
    grammar_per_token_s?: number;
  };
}

/** How the engine reaches WebLLM's streamed raw completions (worker-completions.ts). */
export interface CompletionTransport {
  /** Starts a stream in WebLLM; resolves with its id. */
  startStream: (request: RawCompletionRequest) => Promise<string>;
  /** Starts a stream on WebLLM's chat path (where the model was loaded with the lab's conv_template). */
  startChatStream?: (request: ChatCompletionStreamRequest) => Promise<string>;
  /** The stream's next chunk, or undefined when it has ended. */
  nextChunk: (streamId: string) => Promise<RawCompletionChunk | undefined>;
  /** Ends a stream early (WebLLM stops it and frees the model for the next request). */
  closeStream: (streamId: string) => Promise<void>;
  /** WebLLM's interruptGenerate: stops the running generation between decode steps. */
  interrupt: () => void;
  countTokens?: (prompt: string) => Promise<number>;
  /** The loaded model's token ids of a text, placed in it (for the token view). */
  tokenize?: (text: string, controlTokens: readonly string[]) => Promise<TokenizedText>;
  /** WebLLM's resetChat: empties its KV cache and the conversation it holds, so the next chat request is prefilled whole. */
  resetChat?: () => Promise<void>;
}

export interface WebLlmEngineOptions {
  /** Called when a generation fails because the model is gone (GPU device lost or unloaded by WebLLM). */
  onDeviceLost?: (failure: EngineFailure) => void;
  /** The loaded model's context window (its chat config's context_window_size). */
  contextWindowSize?: number;
  /** Generations waiting for their turn, and whether a stopped one still holds the GPU. */
  onQueueChange?: (state: QueueState) => void;
  /**
   * Whether the model was loaded with the lab's conv_template (chatPathConvTemplate), so that
   * WebLLM's chat path writes the lab's prompt. Without it every step takes the raw path.
   */
  chatPath?: boolean;
}

const ABORTED = Symbol("aborted");

export class WebLlmEngine implements Engine {
  readonly name: string;
  readonly contextWindowSize?: number;
  readonly countPromptTokens?: (prompt: string, signal?: AbortSignal) => Promise<number>;
  readonly constrains: Engine["constrains"];
  /** WebLLM's logprobs/top_logprobs (at most 5 alternatives), on its raw and its chat path. */
  readonly tokenProbabilities = { supported: true } as const;
  /** The loaded model's own tokenizer, for the token view and counts (see src/tokens/). */
  readonly tokenize?: (text: string, controlTokens: readonly string[]) => Promise<TokenizedText>;
  private readonly queue: GenerationQueue;
  private readonly cache: ChatCache;

  constructor(
    private readonly transport: CompletionTransport,
    readonly modelId: string,
    private readonly options: WebLlmEngineOptions = {},
  ) {
    this.name = `webllm: ${modelId}`;
    this.cache = new ChatCache(familyOfWebLlmModel(modelId)?.kvState ?? "kv_cache");
    if (options.contextWindowSize !== undefined) this.contextWindowSize = options.contextWindowSize;
    const count = transport.countTokens;
    if (count) {
      this.countPromptTokens = async (prompt, signal) => {
        const counted = await raceAbort(count(prompt), signal);
        if (counted === ABORTED) throw new DOMException("Counting tokens was stopped.", "AbortError");
        return counted;
      };
    }
    if (transport.tokenize) this.tokenize = transport.tokenize.bind(transport);
    this.queue = new GenerationQueue(options.onQueueChange);
    this.constrains = this.chatPathOpen
      ? { supported: true, needsChatTurns: true }
      : { supported: false, reason: "this model was not loaded for WebLLM's chat path, the only one that takes a grammar" };
  }

  private get chatPathOpen(): boolean {
    return this.options.chatPath === true && this.transport.startChatStream !== undefined;
  }

  get queueState(): QueueState {
    return this.queue.state;
  }

  async *generate(prompt: string, settings: GenerationSettings, signal: AbortSignal, request: GenerationRequest = {}): AsyncGenerator<EngineChunk> {
    if (signal.aborted) return;
    const turn = await this.queue.enter(signal);
    if (!turn) return;
    const stream = new OpenStream(this.transport, turn);
    const tail = new StopStringTail(settings.stop?.filter(Boolean) ?? []);
    let finishReason: string | undefined;
    let usage: EngineUsage | undefined;
    let reply = "";
    // Tokens whose text the stop-string tail still holds back; they go out with their text.
    const pendingTokens: TokenProbability[] = [];
    let sawProbabilities = false;
    // Planned once the turn is ours: the cache is what the generation before left.
    const chat = this.chatPathOpen && request.chat ? { plan: this.cache.plan(request.chat, settings.stop, request.controlStops ?? []), turns: request.chat } : undefined;
    // Until this generation ends by itself, nothing can be continued (rememberCache says otherwise).
    this.cache.forget(chat ? "the step before was stopped or failed before its end" : "the step before used WebLLM's raw completion path, which empties the cache");
    try {
      // Where the plan says the cache cannot be continued, WebLLM must not continue it either: for a
      // tool turn it would (the history matches), prefilling the turn without the end of the reply
      // before it (WebLLM sends a tool message without a name to carry that end).
      if (chat?.plan.fullPrefillReason !== undefined) await this.transport.resetChat?.();
      const starting = chat
        ? this.transport.startChatStream!(buildChatRequest(chat.plan.messages, settings, chat.turns.enableThinking, request.structuralTag, request.topProbabilities))
        : this.transport.startStream(buildRequest(prompt, settings, request.topProbabilities));
      const started = await raceAbort(starting, signal, stream);
      if (started === ABORTED) {
        yield abortUsage();
        return;
      }
      stream.opened(started);
      for (;;) {
        const chunk = await raceAbort(this.transport.nextChunk(started), signal, stream);
        if (chunk === ABORTED) {
          yield* stoppedWith(tail);
          return;
        }
        if (!chunk) {
          stream.ended();
          break;
        }
        const choice = chunk.choices?.[0];
        const text = choice?.text ?? choice?.delta?.content;
        if (text) {
          if (request.topProbabilities) {
            const tokens = tokensFromLogprobs(choice?.logprobs) ?? [];
            if (tokens.length > 0) sawProbabilities = true;
            pendingTokens.push(...tokens);
          }
          // What the person sees is what WebLLM keeps as the reply: the start of a stop string
          // it streamed before cutting its message there is held back (and dropped at a stop).
          const shown = tail.push(text);
          if (shown) {
            reply += shown;
            const tokens = takeTokens(pendingTokens, shown.length);
            yield { type: "text", text: shown, ...(tokens.length > 0 ? { tokens } : {}) };
          }
        }
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (chunk.usage) usage = chat ? withCache(mapUsage(chunk.usage), chat.plan) : mapUsage(chunk.usage);
        if (signal.aborted) {
          stream.stop();
          yield* stoppedWith(tail);
          return;
        }
      }
    } catch (error) {
      stream.failed();
      if (signal.aborted) return;
      const failure = classifyEngineError(error, { phase: "generate", modelId: this.modelId });
      if (failure.kind === "device-lost" || failure.kind === "out-of-memory" || failure.kind === "model-lost") this.options.onDeviceLost?.(failure);
      throw failure;
    } finally {
      // Also reached when the consumer stops reading early.
      stream.stop();
    }
    if (signal.aborted) {
      yield* stoppedWith(tail);
      return;
    }
    const rest = tail.end(finishReason === "stop");
    if (rest) {
      reply += rest;
      const tokens = takeTokens(pendingTokens, rest.length);
      yield { type: "text", text: rest, ...(tokens.length > 0 ? { tokens } : {}) };
    }
    if (chat) this.rememberCache(chat.plan, reply, finishReason, usage);
    if (finishReason === "abort") {
      // Only the lab's own stop may end a generation this way; anything else is a failure.
      throw new EngineFailure(
        "interrupted",
        "The engine stopped the generation without being asked to (finish reason \"abort\").",
        "Send the message again; if it keeps happening, reload the model.",
        `finish_reason: abort; prompt_tokens: ${usage?.promptTokens ?? "?"}; completion_tokens: ${usage?.completionTokens ?? "?"}`,
      );
    }
    const out: EngineUsage = { ...usage, ...(finishReason ? { finishReason } : {}) };
    if (request.topProbabilities && !sawProbabilities && reply !== "") out.probabilitiesMissing = "WebLLM sent no logprobs for this reply although they were asked for.";
    if (finishReason === "length") out.cutOff = cutOffOf(out, this.contextWindowSize);
    if (chat && request.structuralTag) out.constraintSentAs = "response_format";
    if (usage || finishReason) yield { type: "usage", usage: out };
  }

  private rememberCache(plan: CachePlan, reply: string, finishReason: string | undefined, usage: EngineUsage | undefined): void {
    const reason = cacheAfter(finishReason);
    if (reason !== undefined || usage?.prefilledTokens === undefined || usage.completionTokens === undefined) {
      this.cache.forget(reason ?? "WebLLM reported no token counts for the step before");
      return;
    }
    // The prompt and every sampled token but the last (the stop token, never run through the model).
    this.cache.finished(plan.messages, reply, plan.reusedTokens + usage.prefilledTokens + Math.max(0, usage.completionTokens - 1));
  }
}

/** What WebLLM's cache holds after a chat generation, as far as it can be continued. */
function cacheAfter(finishReason: string | undefined): string | undefined {
  if (finishReason === "stop") return undefined;
  if (finishReason === "length") return "the step before was cut off at a length limit, which WebLLM does not continue";
  if (finishReason === "abort") return "the step before was interrupted, which WebLLM does not continue";
  return `the step before ended with finish reason ${JSON.stringify(finishReason ?? "none")}`;
}

/** A stream's life in WebLLM, so that the turn is given back exactly when WebLLM is done with it. */
class OpenStream {
  private streamId: string | undefined;
  private inFlight: Promise<unknown> | undefined;
  private settled = false;

  constructor(
    private readonly transport: CompletionTransport,
    private readonly turn: Turn,
  ) {}

  opened(streamId: string): void {
    this.streamId = streamId;
  }

  /** The request WebLLM is working on (to wait for it when stopped). */
  sent(request: Promise<unknown> | undefined): void {
    this.inFlight = request;
  }

  ended(): void {
    this.settled = true;
    this.turn.leave();
  }

  failed(): void {
    this.settled = true;
    this.turn.leave();
  }

  /** Stops the stream: interrupts WebLLM if a request is in flight, closes it, gives the turn back after. */
  stop(): void {
    if (this.settled) return;
    this.settled = true;
    const inFlight = this.inFlight;
    const streamId = this.streamId;
    if (inFlight) this.transport.interrupt();
    const finishing = (async () => {
      const result = inFlight ? await inFlight.catch(() => undefined) : undefined;
      // A stream whose start was still in flight gets its id from that start.
      const id = streamId ?? (typeof result === "string" ? result : undefined);
      if (id) await this.transport.closeStream(id);
    })();
    this.turn.leaveAfter(finishing);
  }
}

/** Resolves with the promise's value, or ABORTED as soon as `signal` aborts (the stream is then stopped). */
async function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, stream?: OpenStream): Promise<T | typeof ABORTED> {
  stream?.sent(promise);
  if (!signal) return promise;
  if (signal.aborted) {
    stream?.stop();
    promise.catch(() => undefined);
    return ABORTED;
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const winner = await Promise.race([promise, aborted]);
    if (winner === ABORTED) {
      stream?.stop();
      promise.catch(() => undefined);
    } else {
      stream?.sent(undefined);
    }
    return winner;
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

function abortUsage(): EngineChunk {
  return { type: "usage", usage: { finishReason: "abort" } };
}

/** The end of a stopped stream: text held back for a possible stop string is the model's, then the abort. */
function* stoppedWith(tail: StopStringTail): Generator<EngineChunk> {
  const rest = tail.end(false);
  if (rest) yield { type: "text", text: rest };
  yield abortUsage();
}

/** A length stop is the context window's when prompt and output filled it, else max_tokens'. */
export function cutOffOf(usage: EngineUsage, contextWindowSize: number | undefined): "max-tokens" | "context-window" {
  const used = (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0);
  return contextWindowSize !== undefined && used >= contextWindowSize ? "context-window" : "max-tokens";
}

export function buildRequest(prompt: string, settings: GenerationSettings, topProbabilities?: number): RawCompletionRequest {
  const probabilities = topProbabilities ? { logprobs: true as const, top_logprobs: Math.min(WEBLLM_MAX_TOP_LOGPROBS, topProbabilities) } : {};
  return { prompt, stream: true, stream_options: { include_usage: true }, ...samplingFields(settings), ...probabilities };
}

/** The pending tokens whose texts make up (at most) the first `length` characters shown, taken off the queue. */
function takeTokens(pending: TokenProbability[], length: number): TokenProbability[] {
  let used = 0;
  let count = 0;
  while (count < pending.length && used + pending[count]!.text.length <= length) used += pending[count++]!.text.length;
  return pending.splice(0, count);
}

export function buildChatRequest(
  messages: WireMessage[],
  settings: GenerationSettings,
  enableThinking: boolean | undefined,
  structuralTag: StructuralTag | undefined,
  topProbabilities?: number,
): ChatCompletionStreamRequest {
  const { prompt: _prompt, ...sampling } = buildRequest("", settings, topProbabilities);
  return {
    ...sampling,
    messages,
    ...(enableThinking !== undefined ? { extra_body: { enable_thinking: enableThinking } } : {}),
    ...(structuralTag ? { response_format: { type: "structural_tag", structural_tag: structuralTag } } : {}),
  };
}

/** On the chat path WebLLM counts only what it prefilled as prompt tokens; the rest was in its cache. */
function withCache(usage: EngineUsage, plan: CachePlan): EngineUsage {
  const prefilled = usage.promptTokens;
  if (prefilled === undefined) return usage;
  return {
    ...usage,
    promptTokens: prefilled + plan.reusedTokens,
    prefilledTokens: prefilled,
    reusedTokens: plan.reusedTokens,
    kvState: plan.kvState,
    ...(plan.fullPrefillReason !== undefined ? { fullPrefillReason: plan.fullPrefillReason } : {}),
  };
}

export function mapUsage(usage: WebLlmUsage): EngineUsage {
  const out: EngineUsage = {};
  if (usage.prompt_tokens !== undefined) out.promptTokens = usage.prompt_tokens;
  if (usage.completion_tokens !== undefined) out.completionTokens = usage.completion_tokens;
  const extra = usage.extra;
  if (extra?.time_to_first_token_s !== undefined) out.timeToFirstTokenMs = extra.time_to_first_token_s * 1000;
  if (extra?.decode_tokens_per_s !== undefined && Number.isFinite(extra.decode_tokens_per_s)) out.decodeTokensPerSecond = extra.decode_tokens_per_s;
  if (extra?.prefill_tokens_per_s !== undefined && Number.isFinite(extra.prefill_tokens_per_s)) out.prefillTokensPerSecond = extra.prefill_tokens_per_s;
  if (extra?.grammar_init_s !== undefined && Number.isFinite(extra.grammar_init_s)) out.grammarInitMs = extra.grammar_init_s * 1000;
  if (extra?.grammar_per_token_s !== undefined && Number.isFinite(extra.grammar_per_token_s)) out.grammarPerTokenMs = extra.grammar_per_token_s * 1000;
  return out;
}
