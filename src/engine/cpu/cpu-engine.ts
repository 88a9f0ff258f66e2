// The CPU engine: a GGUF model run by llama.cpp compiled to WebAssembly (wllama, in its own
// worker), behind the lab's Engine interface. It streams a raw completion of the exact rendered
// prompt; Stop aborts between two tokens and keeps what streamed; the last chunk's timings give
// the step's usage (tokens prefilled and reused from the prompt cache, speeds). Asked for, each
// token comes with its probability and the runtime's top alternatives (llama.cpp's n_probs).
import { structuralTagToGbnf } from "toolcall-middleware/grammar/structural-tag-gbnf.ts";
import type { Engine, EngineChunk, GenerationRequest, GenerationSettings, StructuralTag, TextProbe } from "toolcall-middleware/types.ts";
import { completionBody, type CompletionBody } from "./completion-body.ts";
import type { LoadedModelTokenizer } from "../../tokens/tokenizer-choice.ts";
import { tokensFromLogprobs } from "../logprobs.ts";
import { HeldBackTokens } from "../held-back-tokens.ts";
import { probeTextWith } from "../text-probe.ts";
import { usageFromFinalChunk, type LlamaTimings } from "./completion-usage.ts";
import type { BosHandling } from "./runtime-prompt.ts";

/** One chunk of llama.cpp's streamed raw completion, as far as the engine reads it. */
export interface CompletionChunk {
  /** `logprobs` is llama.cpp's `{ content: [{ token, logprob, top_logprobs }] }` where n_probs was asked for. */
  choices?: Array<{ text?: string; finish_reason?: string | null; logprobs?: unknown }>;
  timings?: LlamaTimings;
}

/** What the engine needs of the runtime: one streamed completion (stream-completion.ts with wllama; a script in tests). */
export interface CompletionRuntime {
  complete: (body: CompletionBody, signal: AbortSignal) => Promise<AsyncIterable<CompletionChunk>>;
}

export interface CpuEngineOptions {
  name: string;
  runtime: CompletionRuntime;
  bos: BosHandling;
  contextWindowSize?: number;
  /** Counts a rendered prompt's tokens as llama.cpp reads it (the GGUF's own tokenizer). */
  countPromptTokens?: (prompt: string, signal?: AbortSignal) => Promise<number>;
  /** A text's token ids in the GGUF's own tokenizer (control tokens parsed): the opener probe pins them. */
  tokenize?: (text: string) => Promise<number[]>;
  now?: () => number;
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

  constructor(options: CpuEngineOptions) {
    this.name = options.name;
    this.runtime = options.runtime;
    this.bos = options.bos;
    this.now = options.now ?? (() => performance.now());
    if (options.contextWindowSize !== undefined) this.contextWindowSize = options.contextWindowSize;
    if (options.countPromptTokens) this.countPromptTokens = options.countPromptTokens;
    const { tokenize } = options;
    if (tokenize) this.probeText = (prompt, text, signal) => probeTextWith(this, (t) => tokenize(t), prompt, text, signal);
  }

  /** The opener probe: llama.cpp's probabilities are taken before the grammar (text-probe.ts); it needs the model's tokenizer. */
  readonly probeText?: (prompt: string, text: string, signal: AbortSignal) => Promise<TextProbe>;

  async *generate(prompt: string, settings: GenerationSettings, signal: AbortSignal, request?: GenerationRequest): AsyncIterable<EngineChunk> {
    const grammar = grammarOf(settings, request?.structuralTag);
    const body = completionBody(prompt, { ...settings, ...(grammar ? { grammar } : {}) }, this.bos, request?.topProbabilities);
    if (request?.bannedTokenIds?.length) body.logit_bias = request.bannedTokenIds.map((id) => [id, false]);
    const askedForProbabilities = body.n_probs !== undefined;
    let sawProbabilities = false;
    const started = this.now();
    let timeToFirstTokenMs: number | undefined;
    let finishReason: string | null | undefined;
    let timings: LlamaTimings | undefined;
    const heldBack = new HeldBackTokens();
    try {
      const stream = await this.runtime.complete(body, signal);
      for await (const chunk of stream) {
        const choice = chunk.choices?.[0];
        if (chunk.timings) timings = chunk.timings;
        if (choice?.finish_reason) finishReason = choice.finish_reason;
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
      if (!signal.aborted && !isAbortError(error)) throw error;
    }
    if (signal.aborted) finishReason = "abort";
    const usage = usageFromFinalChunk({ timings, finishReason, maxTokens: body.n_predict, contextWindowSize: this.contextWindowSize, timeToFirstTokenMs });
    if (askedForProbabilities && !sawProbabilities && timeToFirstTokenMs !== undefined) usage.probabilitiesMissing = "llama.cpp (wasm) sent no token probabilities although n_probs asked for them.";
    if (request?.structuralTag && grammar) usage.constraintSentAs = "grammar";
    yield { type: "usage", usage };
  }
}
