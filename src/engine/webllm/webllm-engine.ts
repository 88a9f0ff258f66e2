// The Engine interface over a WebLLM engine (in practice a WebWorkerMLCEngine, so generation
// runs in a worker). It uses the raw completion path: the prompt we rendered — the one the
// debugger shows — is exactly what the tokenizer reads, special tokens included.
import type { Engine, EngineChunk, EngineUsage, GenerationSettings } from "../../middleware/types.ts";
import { classifyEngineError, EngineFailure } from "./engine-errors.ts";

/** The part of WebLLM's request for a streamed raw completion that we use. */
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

/** What we need from WebLLM: its raw completion endpoint and a way to stop a generation. */
export interface RawCompletionClient {
  completions: { create: (request: RawCompletionRequest) => Promise<AsyncIterable<RawCompletionChunk>> };
  interruptGenerate: () => unknown;
}

export interface WebLlmEngineOptions {
  /** Called when a generation fails because the GPU device was lost (the model must be reloaded). */
  onDeviceLost?: (failure: EngineFailure) => void;
}

export class WebLlmEngine implements Engine {
  readonly name: string;

  constructor(
    private readonly client: RawCompletionClient,
    readonly modelId: string,
    private readonly options: WebLlmEngineOptions = {},
  ) {
    this.name = `webllm: ${modelId}`;
  }

  async *generate(prompt: string, settings: GenerationSettings, signal: AbortSignal): AsyncGenerator<EngineChunk> {
    if (signal.aborted) return;
    const onAbort = () => void this.client.interruptGenerate();
    signal.addEventListener("abort", onAbort, { once: true });
    let finishReason: string | undefined;
    let usage: EngineUsage | undefined;
    try {
      const stream = await this.client.completions.create(buildRequest(prompt, settings));
      for await (const chunk of stream) {
        const choice = chunk.choices?.[0];
        if (choice?.text) yield { type: "text", text: choice.text };
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (chunk.usage) usage = mapUsage(chunk.usage);
        // interruptGenerate stops between decode steps; do not wait for more after an abort.
        if (signal.aborted) break;
      }
    } catch (error) {
      if (signal.aborted) return;
      const failure = classifyEngineError(error, { phase: "generate", modelId: this.modelId });
      if (failure.kind === "device-lost" || failure.kind === "out-of-memory") this.options.onDeviceLost?.(failure);
      throw failure;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    const reason = signal.aborted ? "abort" : finishReason;
    if (usage || reason) yield { type: "usage", usage: { ...usage, ...(reason ? { finishReason: reason } : {}) } };
  }
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
  if (settings.seed !== undefined) request.seed = settings.seed;
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
