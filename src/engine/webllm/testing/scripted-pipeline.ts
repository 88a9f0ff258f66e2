// A stand-in for the GPU part of WebLLM's LLMChatPipeline, for tests only: WebLLM's own
// MLCEngine and pipeline code run (request checks, the generation lock, prefill input and the
// context-window check, stop tokens and stop strings, max_tokens, the context-window stop,
// finish reasons, usage), while the steps that need a GPU — the forward pass and sampling — play
// a script. It counts the tokens it prefills, per generation and in total, so a benchmark can
// measure what a change in prompts costs. Never part of the app's bundle: the e2e harness
// (e2e/webllm-harness) installs it into a real MLCEngine in a worker.
import { ScriptedTokenizer } from "./scripted-tokenizer.ts";

/** What the model "does" in one generation. */
export interface ScriptedGeneration {
  /** The text it samples, token by token (as the stand-in tokenizer splits it). */
  output: string;
  /**
   * What it samples after the output: a stop token by its text (default: the options'
   * stopToken), or "nothing" to keep sampling filler until max_tokens or the context window ends it.
   */
  then?: { stopToken: string } | "filler";
  /** Hold the prefill until release() (a long prompt on a slow GPU). */
  holdPrefill?: boolean;
  /** Hold before sampling output token number `holdAtToken` (0 = the token prefill yields). */
  holdAtToken?: number;
}

/** What one generation did, as the stand-in saw it. */
export interface GenerationRecord {
  /** Tokens run through prefill (the prompt, as WebLLM tokenized it). */
  prefilledTokens: number;
  /** Decode steps (one token each). */
  decodedTokens: number;
  /** Tokens sampled. */
  sampledTokens: number;
  /** The sampling settings WebLLM handed the sampler (its generation config). */
  sampling: Record<string, unknown>;
  /** The prompt text as prefilled (decoded back from its token ids). */
  prompt: string;
}

export interface ScriptedModelOptions {
  /** WebLLM's chat config for the model (conv_template, context_window_size, …). */
  chatConfig: { context_window_size: number; prefill_chunk_size?: number } & Record<string, unknown>;
  /** Special tokens with their real ids, e.g. {"<|im_end|>": 151645}. */
  specialTokens: Record<string, number>;
  /** The token that ends a turn by default (one of the conv template's stop_token_ids). */
  stopToken: string;
  /** What is sampled after the output when the script says "filler". */
  filler?: string;
}

export interface ScriptedModel {
  /** The pipeline object to put where WebLLM keeps a loaded model's LLMChatPipeline. */
  pipeline: object;
  tokenizer: ScriptedTokenizer;
  /** Scripts for the next generations, in order (a generation without one says "OK"). */
  enqueue: (...generations: ScriptedGeneration[]) => void;
  /** Where a generation is held, if it is. */
  held: () => "prefill" | "decode" | null;
  /** Lets a held generation go on. */
  release: () => void;
  /** Every GPU step from now on fails, as on a lost device. */
  loseDevice: () => void;
  /** Whether WebLLM disposed of the pipeline (unload). */
  disposed: () => boolean;
  records: GenerationRecord[];
  /** Tokens prefilled over all generations. */
  prefilledTokens: () => number;
  /** Seeds WebLLM set (a request's seed, then its reset after the request). */
  seeds: number[];
}

interface Current {
  script: ScriptedGeneration;
  ids: number[];
  phase: "prefill" | "decode";
  record: GenerationRecord;
  prefillHeld: boolean;
  promptIds: number[];
}

type AnyPipeline = Record<string, unknown> & { filledKVCacheLength: number };

/**
 * Makes a pipeline object on WebLLM's own LLMChatPipeline prototype (which the caller gets from
 * WebLLM's module), with the GPU steps replaced by the script.
 */
export function createScriptedModel(llmChatPipelinePrototype: object, options: ScriptedModelOptions): ScriptedModel {
  const tokenizer = new ScriptedTokenizer(options.specialTokens);
  const queue: ScriptedGeneration[] = [];
  const records: GenerationRecord[] = [];
  const seeds: number[] = [];
  let current: Current | undefined;
  let gate: { where: "prefill" | "decode"; open: () => void } | undefined;
  let lost = false;
  let disposed = false;
  let totalPrefilled = 0;

  const hold = (where: "prefill" | "decode") =>
    new Promise<void>((resolve) => {
      gate = { where, open: resolve };
    });
  const failIfLost = () => {
    if (lost) throw new Error("Device was lost: the GPUDevice was destroyed (scripted stand-in).");
  };

  const proto = llmChatPipelinePrototype as Record<string, (...args: unknown[]) => unknown>;
  const pipeline = Object.create(llmChatPipelinePrototype) as AnyPipeline;
  Object.assign(pipeline, {
    // What the real constructor would set up, minus the GPU.
    tvm: {
      beginScope() {},
      endScope() {},
      detachFromCurrentScope: (value: unknown) => value,
      setSeed: (seed: number) => void seeds.push(seed),
      dispose() {},
    },
    device: { sync: async () => undefined },
    tokenizer,
    config: options.chatConfig,
    // Replaced by WebLLM's own Conversation on the first request (setConversation).
    conversation: { reset() {}, isTextCompletion: true, getStopStr: () => [], getStopTokens: () => [] },
    filledKVCacheLength: 0,
    contextWindowSize: options.chatConfig.context_window_size,
    slidingWindowSize: -1,
    attentionSinkSize: 0,
    prefillChunkSize: options.chatConfig.prefill_chunk_size ?? 2048,
    resetStatsPerPrefill: false,
    appearedTokensFreq: new Map(),
    imageDataCache: new Map(),
    artifactImagePixelCache: new Map(),
    kvCheckpointFuncs: new Map(),
    stopTriggered: false,
    finishReason: undefined,
    stopStr: [],
    stopTokens: [],
    prefillTotalTime: 0,
    prefillTotalTokens: 0,
    decodingTotalTime: 0,
    decodingTotalTokens: 0,
  });
  proto.resetGenerationRoundState?.call(pipeline);

  Object.assign(pipeline, {
    // A new round of generation: take the next script.
    resetGenerationRoundState(this: AnyPipeline) {
      proto.resetGenerationRoundState?.call(this);
      const script = queue.shift() ?? { output: "OK" };
      const ids = Array.from(tokenizer.encode(script.output));
      if (script.then !== "filler") ids.push(tokenizer.idFor(script.then?.stopToken ?? options.stopToken));
      const record: GenerationRecord = { prefilledTokens: 0, decodedTokens: 0, sampledTokens: 0, sampling: {}, prompt: "" };
      records.push(record);
      current = { script, ids, phase: "prefill", record, prefillHeld: false, promptIds: [] };
    },
    resetKVCache() {},
    dispose() {
      disposed = true;
    },
    // The forward pass: counts the tokens, may hold, fills the (imaginary) KV cache.
    async embedAndForward(this: AnyPipeline, inputData: unknown[], inputDataLen: number) {
      failIfLost();
      const run = current;
      if (run?.phase === "prefill") {
        run.record.prefilledTokens += inputDataLen;
        totalPrefilled += inputDataLen;
        for (const part of inputData) if (Array.isArray(part)) run.promptIds.push(...(part as number[]));
        run.record.prompt = tokenizer.decode(run.promptIds);
        if (run.script.holdPrefill && !run.prefillHeld) {
          run.prefillHeld = true;
          await hold("prefill");
          failIfLost();
        }
      } else if (run) {
        run.record.decodedTokens += inputDataLen;
      }
      this.filledKVCacheLength += inputDataLen;
      return { dispose() {} };
    },
    // Sampling: the script's next token.
    async sampleFromRawLogits(_logits: unknown, genConfig: Record<string, unknown> | undefined) {
      failIfLost();
      const run = current;
      if (!run) throw new Error("Scripted model: sampling outside a generation.");
      if (run.record.sampledTokens === 0) {
        const { temperature, top_p, repetition_penalty, presence_penalty, frequency_penalty, max_tokens, stop } = genConfig ?? {};
        run.record.sampling = Object.fromEntries(
          Object.entries({ temperature, top_p, repetition_penalty, presence_penalty, frequency_penalty, max_tokens, stop }).filter(([, v]) => v !== undefined),
        );
      }
      if (run.script.holdAtToken === run.record.sampledTokens) {
        await hold("decode");
        failIfLost();
      }
      const index = run.record.sampledTokens++;
      run.phase = "decode";
      return run.ids[index] ?? tokenizer.idFor(options.filler ?? " more");
    },
  });

  return {
    pipeline,
    tokenizer,
    enqueue: (...generations) => {
      // Ids are handed out on first sight: tokenize scripts now, so that a token table read before
      // they play (XGrammar's, at a constrained request) holds their tokens.
      for (const generation of generations) tokenizer.encode(generation.output);
      queue.push(...generations);
    },
    held: () => gate?.where ?? null,
    release: () => {
      const open = gate?.open;
      gate = undefined;
      open?.();
    },
    loseDevice: () => {
      lost = true;
    },
    disposed: () => disposed,
    records,
    prefilledTokens: () => totalPrefilled,
    seeds,
  };
}
