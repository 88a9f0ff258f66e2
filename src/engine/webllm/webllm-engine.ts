// The Engine interface over a model in WebLLM's worker. It uses the raw completion path: the
// prompt we rendered — the one the debugger shows — is exactly what the tokenizer reads,
// special tokens included. Generations take turns (generation-queue.ts); a stop ends the
// stream at once, even while WebLLM is still in prefill and cannot be interrupted.
import type { Engine, EngineChunk, EngineUsage, GenerationSettings } from "../../middleware/types.ts";
import { classifyEngineError, EngineFailure } from "./engine-errors.ts";
import { GenerationQueue, type QueueState, type Turn } from "./generation-queue.ts";
import { StopStringTail } from "./stop-string-tail.ts";
import type { TokenizedText } from "../../tokens/token-spans.ts";

/** The part of WebLLM's request for a streamed raw completion (CompletionCreateParams) that we use. */
export interface RawCompletionRequest {
  prompt: string;
  stream: true;
  stream_options: { include_usage: true };
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  repetition_penalty?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  seed?: number;
  stop?: string[];
}

/** The part of a streamed completion chunk that we read. */
export interface RawCompletionChunk {
  choices?: Array<{ text?: string; finish_reason?: string | null }>;
  usage?: WebLlmUsage | null;
}

export interface WebLlmUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  extra?: {
    time_to_first_token_s?: number;
    decode_tokens_per_s?: number;
    prefill_tokens_per_s?: number;
  };
}

/** How the engine reaches WebLLM's streamed raw completions (worker-completions.ts). */
export interface CompletionTransport {
  /** Starts a stream in WebLLM; resolves with its id. */
  startStream: (request: RawCompletionRequest) => Promise<string>;
  /** The stream's next chunk, or undefined when it has ended. */
  nextChunk: (streamId: string) => Promise<RawCompletionChunk | undefined>;
  /** Ends a stream early (WebLLM stops it and frees the model for the next request). */
  closeStream: (streamId: string) => Promise<void>;
  /** WebLLM's interruptGenerate: stops the running generation between decode steps. */
  interrupt: () => void;
  countTokens?: (prompt: string) => Promise<number>;
  /** The loaded model's token ids of a text, placed in it (for the token view). */
  tokenize?: (text: string, controlTokens: readonly string[]) => Promise<TokenizedText>;
}

export interface WebLlmEngineOptions {
  /** Called when a generation fails because the model is gone (GPU device lost or unloaded by WebLLM). */
  onDeviceLost?: (failure: EngineFailure) => void;
  /** The loaded model's context window (its chat config's context_window_size). */
  contextWindowSize?: number;
  /** Generations waiting for their turn, and whether a stopped one still holds the GPU. */
  onQueueChange?: (state: QueueState) => void;
}

const ABORTED = Symbol("aborted");

export class WebLlmEngine implements Engine {
  readonly name: string;
  readonly contextWindowSize?: number;
  readonly countPromptTokens?: (prompt: string, signal?: AbortSignal) => Promise<number>;
  /** The loaded model's own tokenizer, for the token view and counts (see src/tokens/). */
  readonly tokenize?: (text: string, controlTokens: readonly string[]) => Promise<TokenizedText>;
  private readonly queue: GenerationQueue;

  constructor(
    private readonly transport: CompletionTransport,
    readonly modelId: string,
    private readonly options: WebLlmEngineOptions = {},
  ) {
    this.name = `webllm: ${modelId}`;
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
  }

  get queueState(): QueueState {
    return this.queue.state;
  }

  async *generate(prompt: string, settings: GenerationSettings, signal: AbortSignal): AsyncGenerator<EngineChunk> {
    if (signal.aborted) return;
    const turn = await this.queue.enter(signal);
    if (!turn) return;
    const stream = new OpenStream(this.transport, turn);
    const tail = new StopStringTail(settings.stop?.filter(Boolean) ?? []);
    let finishReason: string | undefined;
    let usage: EngineUsage | undefined;
    try {
      const started = await raceAbort(this.transport.startStream(buildRequest(prompt, settings)), signal, stream);
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
        const shown = choice?.text ? tail.push(choice.text) : "";
        if (shown) yield { type: "text", text: shown };
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (chunk.usage) usage = mapUsage(chunk.usage);
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
    if (rest) yield { type: "text", text: rest };
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
    if (finishReason === "length") out.cutOff = cutOffOf(out, this.contextWindowSize);
    if (usage || finishReason) yield { type: "usage", usage: out };
  }
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

export function buildRequest(prompt: string, settings: GenerationSettings): RawCompletionRequest {
  const request: RawCompletionRequest = { prompt, stream: true, stream_options: { include_usage: true } };
  if (settings.maxTokens !== undefined) request.max_tokens = settings.maxTokens;
  if (settings.temperature !== undefined) request.temperature = settings.temperature;
  // Sent explicitly so the run is what its step-start records, not the model config's defaults.
  if (settings.topP !== undefined) request.top_p = settings.topP;
  if (settings.repetitionPenalty !== undefined) request.repetition_penalty = settings.repetitionPenalty;
  if (settings.presencePenalty !== undefined) request.presence_penalty = settings.presencePenalty;
  if (settings.frequencyPenalty !== undefined) request.frequency_penalty = settings.frequencyPenalty;
  // WebLLM rejects a seed that is not an integer.
  if (settings.seed !== undefined && Number.isInteger(settings.seed)) request.seed = settings.seed;
  const stop = settings.stop?.filter(Boolean);
  if (stop?.length) request.stop = stop;
  return request;
}

export function mapUsage(usage: WebLlmUsage): EngineUsage {
  const out: EngineUsage = {};
  if (usage.prompt_tokens !== undefined) out.promptTokens = usage.prompt_tokens;
  if (usage.completion_tokens !== undefined) out.completionTokens = usage.completion_tokens;
  const extra = usage.extra;
  if (extra?.time_to_first_token_s !== undefined) out.timeToFirstTokenMs = extra.time_to_first_token_s * 1000;
  if (extra?.decode_tokens_per_s !== undefined && Number.isFinite(extra.decode_tokens_per_s)) out.decodeTokensPerSecond = extra.decode_tokens_per_s;
  if (extra?.prefill_tokens_per_s !== undefined && Number.isFinite(extra.prefill_tokens_per_s)) out.prefillTokensPerSecond = extra.prefill_tokens_per_s;
  return out;
}
