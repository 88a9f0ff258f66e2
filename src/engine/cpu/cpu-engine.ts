// The CPU engine: a GGUF model run by llama.cpp compiled to WebAssembly (wllama, in its own
// worker), behind the lab's Engine interface. It streams a raw completion of the exact rendered
// prompt; Stop aborts between two tokens and keeps what streamed; the last chunk's timings give
// the step's usage (tokens prefilled and reused from the prompt cache, speeds). Asked for, each
// token comes with its probability and the runtime's top alternatives (llama.cpp's n_probs).
// While it reads a prompt, llama.cpp's reports of how far it is come as prompt-progress chunks.
//
// The runtime has one slot: one request at a time. A prompt-cache warm-up (warmPrompt) and the
// steps take turns; a step waits for a warm-up whose text its prompt starts with (that reading is
// its own first part) and stops one that is of no use to it.
//
// The slot holds one reading; llama.cpp's RAM prompt cache keeps others, but only by its own
// rules. Before a probe reads a prompt the slot does not hold, one short request may go first so
// that the slot's reading is put aside rather than overwritten, or one put aside earlier is
// brought back (prompt-cache-plan.ts): the protocol table's prompts, asked again, are not read again.
import { structuralTagToGbnf } from "toolcall-middleware/grammar/structural-tag-gbnf.ts";
import type { Engine, EngineChunk, GenerationRequest, GenerationSettings, PromptProgress, StructuralTag, TextProbe } from "toolcall-middleware/types.ts";
import { completionBody, type CompletionBody } from "./completion-body.ts";
import type { LoadedModelTokenizer } from "../../tokens/tokenizer-choice.ts";
import { tokensFromLogprobs } from "../logprobs.ts";
import { HeldBackTokens } from "../held-back-tokens.ts";
import { probeTextWith, rememberTokenizations } from "../text-probe.ts";
import { usageFromFinalChunk, type LlamaTimings } from "./completion-usage.ts";
import { describeRuntimeFailure, type RuntimeFailure } from "./runtime-failure.ts";
import { promptProgressOf, type LlamaPromptProgress } from "../llama-prompt-progress.ts";
import { promptForRuntime, type BosHandling } from "./runtime-prompt.ts";
import { PromptCachePlan } from "./prompt-cache-plan.ts";

/** One chunk of llama.cpp's streamed raw completion, as far as the engine reads it. */
export interface CompletionChunk {
  /** `logprobs` is llama.cpp's `{ content: [{ token, logprob, top_logprobs }] }` where n_probs was asked for. */
  choices?: Array<{ text?: string; finish_reason?: string | null; logprobs?: unknown }>;
  timings?: LlamaTimings;
  prompt_progress?: LlamaPromptProgress;
}

/** What the engine needs of the runtime: one streamed completion (stream-completion.ts with wllama; a script in tests). */
export interface CompletionRuntime {
  complete: (body: CompletionBody, signal: AbortSignal) => Promise<AsyncIterable<CompletionChunk>>;
  /** The runtime's last warnings and errors, in its own words (for a failure's message). */
  recentLog?: () => readonly string[];
}

export interface CpuEngineOptions {
  name: string;
  runtime: CompletionRuntime;
  bos: BosHandling;
  contextWindowSize?: number;
  /** Counts a rendered prompt's tokens as llama.cpp reads it (the GGUF's own tokenizer). */
  countPromptTokens?: (prompt: string, signal?: AbortSignal) => Promise<number>;
  /** Told when the runtime has stopped working (it must be loaded again); the step still ends with the failure in words. */
  onRuntimeFailure?: (failure: RuntimeFailure) => void;
  /** A text's token ids in the GGUF's own tokenizer (control tokens parsed): the opener probe pins them. */
  tokenize?: (text: string) => Promise<number[]>;
  now?: () => number;
}

/** What a warm-up left in the prompt cache. */
export interface WarmedPrompt {
  /** Tokens of the text now in the cache (read now or already there). */
  tokens: number;
  /** Of those, read now (the rest were already cached). */
  readTokens: number;
  elapsedMs: number;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "WllamaAbortError");
}

/**
 * The step's structural tag as one plain llama.cpp grammar (wllama has no lazy grammars): free
 * text, the protocol's calls, free text. A step's own GBNF (settings.grammar) is used otherwise.
 */
export function grammarOf(settings: GenerationSettings, structuralTag: StructuralTag | undefined): string | undefined {
  if (!structuralTag) return settings.grammar;
  try {
    return structuralTagToGbnf(structuralTag).grammar;
  } catch (error) {
    throw new Error(`This protocol's structural tag cannot be written as a llama.cpp grammar (${error instanceof Error ? error.message : String(error)}); turn "Constrain tool calls" off for this engine.`, { cause: error });
  }
}

interface Warming {
  prompt: string;
  stop: AbortController;
  done: Promise<unknown>;
}

export class CpuEngine implements Engine {
  readonly name: string;
  readonly contextWindowSize?: number;
  readonly constrains: Engine["constrains"] = { supported: true };
  readonly tokenProbabilities: Engine["tokenProbabilities"] = { supported: true };
  readonly bansTokens = true;
  readonly countPromptTokens?: (prompt: string, signal?: AbortSignal) => Promise<number>;
  /**
   * The GGUF's own tokenizer for the token view (use-tokenization.ts reads it off the active
   * engine). Set by the CPU engine's controller once it has chosen the template, whose name
   * decides which steps this tokenizer reads.
   */
  modelTokenizer?: LoadedModelTokenizer;
  private readonly runtime: CompletionRuntime;
  private readonly bos: BosHandling;
  private readonly now: () => number;
  private readonly onRuntimeFailure: ((failure: RuntimeFailure) => void) | undefined;
  /** The request the runtime's one slot is busy with; the next waits for it to settle. */
  private busy: Promise<unknown> = Promise.resolve();
  private warming: Warming | null = null;
  /** The runtime's slot and RAM cache as this engine's requests left them. */
  private readonly cachePlan = new PromptCachePlan();

  constructor(options: CpuEngineOptions) {
    this.name = options.name;
    this.runtime = options.runtime;
    this.bos = options.bos;
    this.now = options.now ?? (() => performance.now());
    this.onRuntimeFailure = options.onRuntimeFailure;
    if (options.contextWindowSize !== undefined) this.contextWindowSize = options.contextWindowSize;
    if (options.countPromptTokens) this.countPromptTokens = options.countPromptTokens;
    const { tokenize } = options;
    if (tokenize) {
      const remembered = rememberTokenizations((t) => tokenize(t));
      this.probeText = async (prompt, text, signal) => {
        await this.keepReadings(prompt, signal);
        return probeTextWith(this, remembered, prompt, text, signal);
      };
    }
  }

  /** Runs `work` when the slot is free; the next request waits for it however it ends. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.busy.then(work, work);
    this.busy = run.catch(() => undefined);
    return run;
  }

  /** The failure in words; a runtime that must be loaded again is reported to the controller. */
  private failure(error: unknown): Error {
    const failure = describeRuntimeFailure(error, this.runtime.recentLog?.() ?? []);
    if (failure.needsReload && failure.kind !== "unloaded") this.onRuntimeFailure?.(failure);
    return new Error(failure.message, { cause: error });
  }

  /**
   * Reads `prompt` into the runtime's prompt cache now (one token is generated and dropped), so
   * that a later step whose prompt starts with it reads only the rest. Progress is reported as
   * llama.cpp reads. Ends early, without error, when `signal` aborts or a step or another
   * warm-up needs the slot for a prompt that does not start with this one.
   */
  warmPrompt(prompt: string, signal: AbortSignal, onProgress?: (progress: PromptProgress) => void): Promise<WarmedPrompt | "stopped"> {
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    if (signal.aborted) stop.abort();
    else signal.addEventListener("abort", onAbort, { once: true });
    const body = { ...completionBody(prompt, { maxTokens: 1, temperature: 0 }, this.bos), n_predict: 1 };
    // The slot's cache holds one prompt: a warm-up of a text this one does not start with (the
    // Lab's conversation, before Evaluate's quick run asks for its first case) would be read and
    // then overwritten, so it gives way at once, as it does to a step.
    if (this.warming && !body.prompt.startsWith(this.warming.prompt)) this.warming.stop.abort();
    const done = this.exclusive(async (): Promise<WarmedPrompt | "stopped"> => {
      if (stop.signal.aborted) return "stopped";
      const started = this.now();
      let timings: LlamaTimings | undefined;
      this.cachePlan.sent(body.prompt);
      try {
        for await (const chunk of await this.runtime.complete(body, stop.signal)) {
          const progress = promptProgressOf(chunk.prompt_progress);
          if (progress) onProgress?.(progress);
          if (chunk.timings) timings = chunk.timings;
          if (stop.signal.aborted) break;
        }
      } catch (error) {
        if (stop.signal.aborted || isAbortError(error)) return "stopped";
        throw this.failure(error);
      }
      if (stop.signal.aborted) return "stopped";
      const read = timings?.prompt_n ?? 0;
      const cached = timings?.cache_n ?? 0;
      return { tokens: read + cached, readTokens: read, elapsedMs: this.now() - started };
    });
    const warming: Warming = { prompt: body.prompt, stop, done };
    this.warming = warming;
    void done.finally(() => {
      signal.removeEventListener("abort", onAbort);
      if (this.warming === warming) this.warming = null;
    }).catch(() => undefined);
    return done;
  }

  /**
   * Before a probe of `prompt`: if reading it would overwrite the slot's reading without saving
   * it, or would not look for a reading of it put aside earlier, one short request goes first
   * (prompt-cache-plan.ts). Nothing is sent when the slot already holds the prompt's start.
   */
  private keepReadings(prompt: string, signal: AbortSignal): Promise<void> {
    const next = promptForRuntime(prompt, this.bos);
    // A warm-up of another text gives way at once, as it does to the probe itself.
    if (this.warming && !next.startsWith(this.warming.prompt)) this.warming.stop.abort();
    return this.exclusive(async () => {
      if (signal.aborted) return;
      const step = this.cachePlan.before(next);
      if (step.send === "nothing") return;
      const body = { ...completionBody(step.prompt, { maxTokens: 1, temperature: 0 }, this.bos), n_predict: 1 };
      this.cachePlan.sent(body.prompt);
      try {
        for await (const chunk of await this.runtime.complete(body, signal)) {
          void chunk;
          if (signal.aborted) break;
        }
      } catch (error) {
        if (!signal.aborted && !isAbortError(error)) throw this.failure(error);
      }
    });
  }

  /** The opener probe: llama.cpp's probabilities are taken before the grammar (text-probe.ts); it needs the model's tokenizer. */
  readonly probeText?: (prompt: string, text: string, signal: AbortSignal) => Promise<TextProbe>;

  async *generate(prompt: string, settings: GenerationSettings, signal: AbortSignal, request?: GenerationRequest): AsyncIterable<EngineChunk> {
    const grammar = grammarOf(settings, request?.structuralTag);
    const body = completionBody(prompt, { ...settings, ...(grammar ? { grammar } : {}) }, this.bos, request?.topProbabilities);
    if (request?.bannedTokenIds?.length) body.logit_bias = request.bannedTokenIds.map((id) => [id, false]);
    // A warm-up of another text is of no use to this prompt: it gives way at once.
    if (this.warming && !body.prompt.startsWith(this.warming.prompt)) this.warming.stop.abort();
    let release: () => void = () => undefined;
    const slot = new Promise<void>((resolve) => (release = resolve));
    await new Promise<void>((entered) => void this.exclusive(() => (entered(), slot)));
    if (!signal.aborted) this.cachePlan.sent(body.prompt);
    try {
      yield* this.stream(body, signal, request);
    } finally {
      release();
    }
  }

  private async *stream(body: CompletionBody, signal: AbortSignal, request: GenerationRequest | undefined): AsyncIterable<EngineChunk> {
    const askedForProbabilities = body.n_probs !== undefined;
    let sawProbabilities = false;
    const started = this.now();
    let timeToFirstTokenMs: number | undefined;
    let finishReason: string | null | undefined;
    let timings: LlamaTimings | undefined;
    const heldBack = new HeldBackTokens();
    if (!signal.aborted) {
      try {
        const stream = await this.runtime.complete(body, signal);
        for await (const chunk of stream) {
          const choice = chunk.choices?.[0];
          if (chunk.timings) timings = chunk.timings;
          if (choice?.finish_reason) finishReason = choice.finish_reason;
          const progress = timeToFirstTokenMs === undefined ? promptProgressOf(chunk.prompt_progress) : undefined;
          if (progress) yield { type: "prompt-progress", progress };
          // A token llama.cpp held back (a possible stop string's start) comes with empty text: kept until its text follows.
          const taken = askedForProbabilities ? heldBack.take(choice?.text ?? "", tokensFromLogprobs(choice?.logprobs)) : choice?.text ? { text: choice.text } : null;
          if (taken) {
            timeToFirstTokenMs ??= this.now() - started;
            if (taken.tokens) sawProbabilities = true;
            yield { type: "text", text: taken.text, ...(taken.tokens ? { tokens: taken.tokens } : {}) };
          }
          if (signal.aborted) break;
        }
      } catch (error) {
        if (!signal.aborted && !isAbortError(error)) throw this.failure(error);
      }
    }
    if (signal.aborted) finishReason = "abort";
    const usage = usageFromFinalChunk({ timings, finishReason, maxTokens: body.n_predict, contextWindowSize: this.contextWindowSize, timeToFirstTokenMs });
    if (askedForProbabilities && !sawProbabilities && timeToFirstTokenMs !== undefined) usage.probabilitiesMissing = "llama.cpp (wasm) sent no token probabilities although n_probs asked for them.";
    if (request?.structuralTag && body.grammar) usage.constraintSentAs = "grammar";
    yield { type: "usage", usage };
  }
}
