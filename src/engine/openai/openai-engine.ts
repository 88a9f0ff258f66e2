// An OpenAI-compatible server (vLLM, SGLang, Ollama, llama.cpp's server) as an engine, in one of
// two modes. Prompt mode streams the exact prompt the lab rendered from /v1/completions, so every
// protocol, parser and the debugger work as with WebLLM. Native mode sends the conversation and
// the tools to /v1/chat/completions and lets the server's template and tool parser make the calls.
import type { Engine, EngineChunk, EngineUsage, GenerationRequest, GenerationSettings, NativeChatInput, NativeToolCalling, StructuralTag } from "toolcall-middleware/types.ts";
import { chatBody, completionsBody } from "./openai-requests.ts";
import { keySecrets, maskError, maskKeyInStream } from "./mask-key.ts";
import { explainFetchError, failureFromResponse, isAbort, ServerFailure } from "./server-failure.ts";
import { tokensFromLogprobs } from "../logprobs.ts";
import { HeldBackTokens } from "../held-back-tokens.ts";
import { probeTextWith, rememberTokenizations } from "../text-probe.ts";
import { readSseJson, StreamFormatError } from "./sse-json.ts";
import { promptProgressOf, type LlamaPromptProgress } from "../llama-prompt-progress.ts";
import { llamaCppRenderedPrompt, llamaCppTokenize, promptToSend, type LlamaCppFacts } from "./llama-cpp-probe.ts";
import { structuralTagToGbnf } from "toolcall-middleware/grammar/structural-tag-gbnf.ts";

export type OpenAiMode = "prompt" | "native";

export interface OpenAiConnection {
  baseUrl: string;
  apiKey?: string;
}

export interface OpenAiEngineOptions extends OpenAiConnection {
  model: string;
  mode: OpenAiMode;
  /** The model's context window, when the server told us (vLLM's max_model_len). */
  contextWindowSize?: number;
  /**
   * Prompt mode: send a step's structural tag as `response_format` (vLLM and SGLang take one).
   * A server that refuses it answers with an error, which the step reports.
   */
  constrain?: boolean;
  /** What connecting found out about a llama.cpp server (whether it adds the BOS itself). */
  llamaCpp?: LlamaCppFacts;
  fetch?: typeof fetch;
}

/** `http://host:8000/` and `http://host:8000/v1/` both mean `http://host:8000/v1`. */
export function normalizeBaseUrl(input: string): string {
  const trimmed = input.trim().replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ServerFailure("unreachable", `"${input}" is not a URL.`, "Give the server's address, e.g. http://localhost:8000/v1 (vLLM) or http://localhost:11434/v1 (Ollama).");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ServerFailure("unreachable", `"${input}" is not an http(s) address.`, "Give the server's address, e.g. http://localhost:8000/v1.");
  return url.pathname === "" || url.pathname === "/" ? `${url.origin}/v1` : trimmed;
}

function headers(connection: OpenAiConnection, json: boolean): Record<string, string> {
  return {
    ...(json ? { "Content-Type": "application/json" } : {}),
    ...(connection.apiKey ? { Authorization: `Bearer ${connection.apiKey}` } : {}),
  };
}

/** Sends a request; a network failure or a non-2xx answer becomes a ServerFailure that says why. */
export async function request(
  connection: OpenAiConnection,
  path: string,
  init: { body?: unknown; signal?: AbortSignal; model?: string },
  fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis),
): Promise<Response> {
  const url = `${normalizeBaseUrl(connection.baseUrl)}${path}`;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: init.body === undefined ? "GET" : "POST",
      headers: headers(connection, init.body !== undefined),
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch (error) {
    throw maskError(await explainFetchError(error, url, fetchImpl), keySecrets(connection.apiKey));
  }
  if (!response.ok) {
    // A server may echo the key in its refusal (an OpenAI-style 401/403 body does).
    const failure = failureFromResponse(response.status, await response.text().catch(() => ""), { endpoint: path, ...(init.model ? { model: init.model } : {}) });
    throw maskError(failure, keySecrets(connection.apiKey));
  }
  return response;
}

export interface ServerModel {
  id: string;
  /** vLLM reports max_model_len; others say nothing. */
  contextWindowSize?: number;
  ownedBy?: string;
}

/** The server's models, from /v1/models. */
export async function listModels(connection: OpenAiConnection, signal?: AbortSignal, fetchImpl?: typeof fetch): Promise<ServerModel[]> {
  const response = await request(connection, "/models", { ...(signal ? { signal } : {}) }, fetchImpl);
  const body = (await response.json().catch(() => null)) as { data?: unknown } | null;
  if (!body || !Array.isArray(body.data)) throw new ServerFailure("bad-response", "The server's /models answer is not an OpenAI model list.", "Check the base URL: it should end in /v1 for most servers.");
  return body.data
    .filter((m): m is { id: string; max_model_len?: unknown; owned_by?: unknown } => typeof m === "object" && m !== null && typeof (m as { id?: unknown }).id === "string")
    .map((m) => ({
      id: m.id,
      ...(typeof m.max_model_len === "number" ? { contextWindowSize: m.max_model_len } : {}),
      ...(typeof m.owned_by === "string" ? { ownedBy: m.owned_by } : {}),
    }));
}

interface StreamChoice {
  text?: string;
  logprobs?: unknown;
  delta?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null; tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }> };
  finish_reason?: string | null;
}
interface StreamPayload {
  choices?: StreamChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  /** llama.cpp's report of how far it has read the prompt (asked with return_progress). */
  prompt_progress?: LlamaPromptProgress | null;
  /** llama.cpp's own figures, on its last chunk: cache_n prompt tokens reused from the slot's cache, prompt_n prefilled. */
  timings?: { cache_n?: unknown; prompt_n?: unknown; prompt_per_second?: unknown; predicted_per_second?: unknown } | null;
  error?: unknown;
}

export class OpenAiEngine implements Engine {
  readonly name: string;
  readonly contextWindowSize?: number;
  readonly native?: NativeToolCalling;
  readonly constrains?: Engine["constrains"];
  readonly tokenProbabilities?: Engine["tokenProbabilities"];
  readonly bansTokens?: boolean;
  /** llama.cpp's server only: its probabilities are taken before the grammar (text-probe.ts); other servers' are not known to be. */
  readonly probeText?: Engine["probeText"];
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: OpenAiEngineOptions) {
    this.name = `openai (${options.mode}): ${options.model}`;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    if (options.contextWindowSize !== undefined) this.contextWindowSize = options.contextWindowSize;
    if (options.constrain && options.mode === "prompt") this.constrains = { supported: true };
    // Asked for as `logprobs` on /v1/completions (llama.cpp's server takes it as n_probs); a
    // server that ignores it sends none, and the step's usage says so.
    if (options.mode === "prompt") this.tokenProbabilities = { supported: true };
    if (options.mode === "prompt" && options.llamaCpp) {
      this.bansTokens = true;
      const tokenize = rememberTokenizations((text: string, signal: AbortSignal) => llamaCppTokenize(options.baseUrl, text, signal, headers(options, true), this.fetchImpl));
      this.probeText = (prompt, text, signal) => probeTextWith(this, tokenize, prompt, text, signal);
    }
    if (options.mode === "native") {
      this.native = {
        request: (input: NativeChatInput, settings: GenerationSettings) => chatBody(options.model, input, settings),
        generate: (body, signal) => maskKeyInStream(this.stream("/chat/completions", body, signal), keySecrets(options.apiKey)),
        // llama.cpp's server says what its template renders from the body (other servers cannot).
        ...(options.llamaCpp ? { renderPrompt: (body: Record<string, unknown>, signal: AbortSignal) => llamaCppRenderedPrompt(options.baseUrl, body, signal, headers(options, true), this.fetchImpl) } : {}),
      };
    }
  }

  generate(prompt: string, settings: GenerationSettings, signal: AbortSignal, request?: GenerationRequest): AsyncIterable<EngineChunk> {
    const body = completionsBody(this.options.model, promptToSend(prompt, this.options.llamaCpp), settings);
    let constraintSentAs: EngineUsage["constraintSentAs"];
    if (this.constrains?.supported && request?.structuralTag) {
      // llama.cpp's server takes no structural tag (vLLM's and SGLang's shape) but a GBNF grammar:
      // the same tag written as one (free text, the protocol's calls, free text).
      if (this.options.llamaCpp) {
        body.grammar = llamaCppGrammar(request.structuralTag);
        constraintSentAs = "grammar";
      } else {
        body.response_format = request.structuralTag;
        constraintSentAs = "response_format";
      }
    }
    if (request?.topProbabilities) body.logprobs = request.topProbabilities;
    // llama.cpp reports how far it has read the prompt, once per batch: the chat says so before the first token.
    if (this.options.llamaCpp) body.return_progress = true;
    if (this.bansTokens && request?.bannedTokenIds?.length) body.logit_bias = request.bannedTokenIds.map((id) => [id, false]);
    // A GBNF grammar, as llama.cpp's server takes it (other servers refuse or ignore the field).
    if (settings.grammar && body.grammar === undefined) body.grammar = settings.grammar;
    return maskKeyInStream(this.stream("/completions", body, signal, constraintSentAs), keySecrets(this.options.apiKey));
  }

  private async *stream(path: string, body: Record<string, unknown>, signal: AbortSignal, constraintSentAs?: EngineUsage["constraintSentAs"]): AsyncGenerator<EngineChunk> {
    if (signal.aborted) return;
    const startedAt = performance.now();
    let response: Response;
    try {
      response = await request(this.options, path, { body, signal, model: this.options.model }, this.fetchImpl);
    } catch (error) {
      if (signal.aborted || isAbort(error)) return;
      throw error;
    }
    if (!response.body) throw new ServerFailure("bad-response", "The server answered without a body.", "Check that the server supports streaming (stream: true).");

    let firstTokenAt: number | undefined;
    let finishReason: string | undefined;
    let usage: EngineUsage = constraintSentAs ? { constraintSentAs } : {};
    const askedForProbabilities = typeof body.logprobs === "number" && body.logprobs > 0;
    let sawProbabilities = false;
    const heldBack = new HeldBackTokens();
    try {
      for await (const payload of readSseJson(response.body, signal) as AsyncIterable<StreamPayload>) {
        if (payload.error !== undefined) throw failureFromResponse(400, JSON.stringify({ error: payload.error }), { endpoint: path, model: this.options.model });
        const choice = payload.choices?.[0];
        const progress = firstTokenAt === undefined ? promptProgressOf(payload.prompt_progress) : undefined;
        if (progress) yield { type: "prompt-progress", progress };
        // vLLM and SGLang call it reasoning_content, Ollama and llama.cpp reasoning.
        const reasoning = choice?.delta?.reasoning_content ?? choice?.delta?.reasoning ?? "";
        if (reasoning !== "") {
          firstTokenAt ??= performance.now();
          yield { type: "reasoning", text: reasoning };
        }
        const text = choice?.text ?? choice?.delta?.content ?? "";
        // llama.cpp sends a token it held back (a possible stop string's start) with empty text: kept until its text follows.
        const taken = askedForProbabilities ? heldBack.take(text, tokensFromLogprobs(choice?.logprobs)) : text !== "" ? { text } : null;
        if (taken) {
          firstTokenAt ??= performance.now();
          if (taken.tokens) sawProbabilities = true;
          yield { type: "text", text: taken.text, ...(taken.tokens ? { tokens: taken.tokens } : {}) };
        }
        for (const call of choice?.delta?.tool_calls ?? []) {
          firstTokenAt ??= performance.now();
          yield { type: "tool-call-delta", index: call.index ?? 0, ...(call.id ? { id: call.id } : {}), ...(call.function?.name ? { name: call.function.name } : {}), argumentsDelta: call.function?.arguments ?? "" };
        }
        // A finish reason is a word (stop, length, tool_calls…): anything longer is cut, not kept whole.
        if (choice?.finish_reason) finishReason = String(choice.finish_reason).slice(0, MAX_FINISH_REASON_CHARS);
        if (payload.usage) usage = { ...usage, ...mapUsage(payload.usage) };
        if (payload.timings) usage = { ...usage, ...mapTimings(payload.timings) };
      }
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ServerFailure) throw error;
      if (error instanceof StreamFormatError) throw new ServerFailure("bad-response", error.message, "What arrived before it is kept. The server (or something between it and the lab) sent a malformed stream: check its log, then send again.");
      throw new ServerFailure("dropped-stream", "The connection to the server broke while the reply was streaming.", "What arrived is kept. Check the server's log, then send again.", error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    }
    if (signal.aborted) return;
    if (finishReason === undefined) {
      throw new ServerFailure("dropped-stream", "The server's stream ended before the reply was finished (no finish reason).", "What arrived is kept. Check the server's log (it may have crashed or run out of memory), then send again.");
    }
    const endedAt = performance.now();
    if (firstTokenAt !== undefined) {
      usage.timeToFirstTokenMs = firstTokenAt - startedAt;
      // The server's own decode rate (llama.cpp's timings) is truer than one measured across the network.
      if (usage.decodeTokensPerSecond === undefined && usage.completionTokens && endedAt > firstTokenAt) usage.decodeTokensPerSecond = (usage.completionTokens / (endedAt - firstTokenAt)) * 1000;
    }
    if (askedForProbabilities && !sawProbabilities && firstTokenAt !== undefined) usage.probabilitiesMissing = "The server sent no logprobs although they were asked for (it may not support them on /v1/completions).";
    yield { type: "usage", usage: { ...usage, ...finish(finishReason, usage, body.max_tokens) } };
  }
}

/** The longest finish reason kept; every known one is far shorter. */
export const MAX_FINISH_REASON_CHARS = 64;

function mapUsage(usage: NonNullable<StreamPayload["usage"]>): EngineUsage {
  return {
    ...(typeof usage.prompt_tokens === "number" ? { promptTokens: usage.prompt_tokens } : {}),
    ...(typeof usage.completion_tokens === "number" ? { completionTokens: usage.completion_tokens } : {}),
  };
}

const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined);

/** llama.cpp's timings: prefix reuse (cache_n reused, prompt_n prefilled) and its own speeds. */
function mapTimings(timings: NonNullable<StreamPayload["timings"]>): EngineUsage {
  const reused = count(timings.cache_n);
  const prefilled = count(timings.prompt_n);
  const prefillRate = count(timings.prompt_per_second);
  const decodeRate = count(timings.predicted_per_second);
  return {
    ...(reused !== undefined ? { reusedTokens: reused } : {}),
    ...(prefilled !== undefined ? { prefilledTokens: prefilled } : {}),
    ...(prefillRate !== undefined && prefillRate > 0 ? { prefillTokensPerSecond: prefillRate } : {}),
    ...(decodeRate !== undefined && decodeRate > 0 ? { decodeTokensPerSecond: decodeRate } : {}),
  };
}

/** A length stop is "max tokens" when the reply used its whole budget, else the context ran out. */
function finish(reason: string, usage: EngineUsage, maxTokens: unknown): Pick<EngineUsage, "finishReason" | "cutOff"> {
  if (reason !== "length") return { finishReason: reason };
  const stoppedShortOfBudget = typeof maxTokens === "number" && usage.completionTokens !== undefined && usage.completionTokens < maxTokens;
  return { finishReason: "length", cutOff: stoppedShortOfBudget ? "context-window" : "max-tokens" };
}

function llamaCppGrammar(tag: StructuralTag): string {
  try {
    return structuralTagToGbnf(tag).grammar;
  } catch (error) {
    throw new Error(`This protocol's structural tag cannot be written as a llama.cpp grammar (${error instanceof Error ? error.message : String(error)}); turn "Constrain tool calls" off for this server.`, { cause: error });
  }
}
