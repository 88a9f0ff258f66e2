// One generation of a step: streams the engine's output through the protocol's parser and
// yields what happens as it happens (raw text, parse events, usage). It ends with what the
// output amounts to and how the stream ended; an abort or an engine failure keeps everything
// generated until then.
import { NativeCallAssembler } from "../native/native-call-assembler.ts";
import { recordedToken } from "../probabilities/recorded-precision.ts";
import { sliceOutsidePair } from "../text/surrogate-pairs.ts";
import type { CutOffLimit, Engine, EngineChunk, EngineUsage, GenerationRequest, GenerationSettings, LoopEvent, StreamParser, TokenProbability, ToolSpec } from "../types.ts";
import { untilAborted } from "./abortable-iteration.ts";
import { scopeParseEvent, type StampEvent } from "./event-shapes.ts";
import { ReplyCollector, type Reply } from "./reply-collector.ts";
import { describeError } from "./tool-result-content.ts";

export interface StreamStepInput {
  engine: Engine;
  prompt: string;
  settings: GenerationSettings;
  /** The prompt as chat turns and a structural tag, for an engine that uses them. */
  request?: GenerationRequest;
  signal: AbortSignal;
  parser: StreamParser;
  stepId: string;
  stamp: StampEvent;
  /** Native tool calling: the request body to stream instead of the prompt, and the tools its calls are checked against. */
  native?: { request: Record<string, unknown>; tools: readonly ToolSpec[] };
  /** What the step keeps of the reply (default STEP_OUTPUT_LIMITS). */
  limits?: StepOutputLimits;
}

/**
 * What one step keeps of a model's reply, in characters: its text and call arguments
 * together, and its reasoning. A server may ignore max_tokens (or a reasoning budget) and
 * stream without end; past a limit the loop stops the generation, keeps what fits and ends the
 * step as cut off, saying why. 1,000,000 characters is ≈ 250k tokens, more than any window a
 * step's prompt leaves room for.
 */
export interface StepOutputLimits {
  outputChars: number;
  reasoningChars: number;
  /**
   * Tokens recorded with their probabilities (default STEP_OUTPUT_LIMITS.tokens). Each carries
   * its alternatives, so a server streaming a million one-character tokens with logprobs made a
   * step of a million records well inside the character limit.
   */
  tokens?: number;
}
export const STEP_OUTPUT_LIMITS = { outputChars: 1_000_000, reasoningChars: 1_000_000, tokens: 250_000 } as const satisfies StepOutputLimits;

/** At most `room` characters of `text`, not splitting a surrogate pair. */
const fitInto = sliceOutsidePair;

function overLimitMessage(what: "reply" | "reasoning" | "tokens", limit: number): string {
  if (what === "tokens")
    return `The model's reply passed the lab's limit of ${limit.toLocaleString("en-US")} tokens recorded with their probabilities for one step: the generation was stopped there and the rest was not kept.`;
  const kind = what === "reply" ? "reply (text and call arguments)" : "reasoning";
  return `The model's ${kind} passed the lab's limit of ${limit.toLocaleString("en-US")} characters for one step: the generation was stopped there and the rest was not kept.`;
}

export interface StepOutput extends Reply {
  rawOutput: string;
  /**
   * How the generation ended: on its own ("complete"), stopped by the lab ("aborted"), failed
   * or stopped by the engine unasked ("engine-error"), or at a length limit ("cut-off").
   */
  ending: "complete" | "aborted" | "engine-error" | "cut-off";
  error?: string;
  /** With ending "cut-off": which limit, where the engine or the counts say. */
  cutOff?: CutOffLimit;
  usage?: EngineUsage;
}

export async function* streamStep(input: StreamStepInput): AsyncGenerator<LoopEvent, StepOutput> {
  const { stepId, stamp, signal } = input;
  const collector = new ReplyCollector();
  let rawOutput = "";
  let usage: EngineUsage | undefined;
  let ending: StepOutput["ending"] = "complete";
  let error: string | undefined;

  function* parsed(events: ReturnType<StreamParser["push"]>): Generator<LoopEvent> {
    for (const event of events) {
      const scoped = scopeParseEvent(event, stepId);
      collector.add(scoped, rawOutput);
      yield stamp({ type: "parse", stepId, event: scoped });
    }
  }

  // Only the engine's failures are engine errors; a parser that throws is a bug and goes up.
  const failure: { thrown?: unknown } = {};
  const nativeCalls = input.native ? new NativeCallAssembler(input.native.tools) : undefined;
  const limits = input.limits ?? STEP_OUTPUT_LIMITS;
  // The engine runs under a signal of the step's own, so the step can stop it at a limit.
  const generation = new AbortController();
  const stopGeneration = () => generation.abort(signal.reason);
  if (signal.aborted) stopGeneration();
  else signal.addEventListener("abort", stopGeneration, { once: true });
  const tokenLimit = limits.tokens ?? STEP_OUTPUT_LIMITS.tokens;
  let outputChars = 0;
  let reasoningChars = 0;
  let recordedTokens = 0;
  let overLimit: string | undefined;
  try {
    for await (const chunk of engineChunks(input, generation.signal, failure)) {
      if (chunk.type === "prompt-progress") {
        yield stamp({ type: "prompt-progress", stepId, progress: chunk.progress });
        continue;
      }
      if (chunk.type === "usage") {
        usage = { ...usage, ...chunk.usage };
        yield stamp({ type: "usage", stepId, usage: chunk.usage });
        continue;
      }
      if (chunk.type === "reasoning") {
        // Not part of the raw text: it streamed in a field of its own, so its span is empty.
        const at = rawOutput.length;
        const text = fitInto(chunk.text, limits.reasoningChars - reasoningChars);
        reasoningChars += text.length;
        if (text !== "") yield* parsed([{ type: "reasoning", text, span: { start: at, end: at } }]);
        if (text.length < chunk.text.length) {
          overLimit = overLimitMessage("reasoning", limits.reasoningChars);
          break;
        }
        continue;
      }
      if (chunk.type === "tool-call-delta") {
        if (!nativeCalls) continue;
        const argumentsDelta = fitInto(chunk.argumentsDelta, limits.outputChars - outputChars);
        outputChars += argumentsDelta.length;
        yield* parsed(nativeCalls.push({ ...chunk, argumentsDelta }, rawOutput.length));
        if (argumentsDelta.length < chunk.argumentsDelta.length) {
          overLimit = overLimitMessage("reply", limits.outputChars);
          break;
        }
        continue;
      }
      if (chunk.text === "") continue;
      let text = fitInto(chunk.text, limits.outputChars - outputChars);
      let tokens = chunk.tokens && chunk.tokens.length > 0 ? tokensWithin(chunk.tokens, text.length) : undefined;
      let tokensOver = false;
      if (tokens && recordedTokens + tokens.length > tokenLimit) {
        // The reply ends where the last token that fits ends.
        tokens = tokens.slice(0, Math.max(0, tokenLimit - recordedTokens));
        text = text.slice(0, tokens.reduce((length, token) => length + token.text.length, 0));
        tokensOver = true;
      }
      if (text !== "") {
        const offset = rawOutput.length;
        rawOutput += text;
        outputChars += text.length;
        recordedTokens += tokens?.length ?? 0;
        yield stamp({ type: "output-delta", stepId, text, offset, ...(tokens ? { tokens } : {}) });
        yield* parsed(input.parser.push(text));
      }
      if (tokensOver) {
        overLimit = overLimitMessage("tokens", tokenLimit);
        break;
      }
      if (text.length < chunk.text.length) {
        overLimit = overLimitMessage("reply", limits.outputChars);
        break;
      }
    }
  } finally {
    signal.removeEventListener("abort", stopGeneration);
    // Past a limit (or when the consumer leaves early), the engine is told to stop generating.
    generation.abort();
  }
  // An engine may end an aborted stream by throwing (an AbortError): that is an abort.
  let cutOff: CutOffLimit | undefined;
  if (signal.aborted) ending = "aborted";
  else if (overLimit !== undefined) {
    ending = "cut-off";
    cutOff = "output-limit";
    error = overLimit;
  } else if ("thrown" in failure) {
    ending = "engine-error";
    error = describeError(failure.thrown);
  } else if (usage?.finishReason === "abort") {
    // Nobody here asked it to stop (the signal is not aborted): another caller's interrupt or
    // the engine's own doing. The turn is incomplete, and saying "final" would hide that.
    ending = "engine-error";
    error = `The engine stopped this generation although the lab did not ask it to (finish reason "abort"); the output is incomplete.`;
  } else if (usage?.finishReason === "length") {
    ending = "cut-off";
    cutOff = usage.cutOff ?? inferCutOff(usage, input.settings, input.engine);
  }
  // The parser decides what the output so far is, also after an abort or a failure, so text
  // it held back (a possible tag start) is not lost.
  yield* parsed(input.parser.end());
  if (nativeCalls) yield* parsed(nativeCalls.end(rawOutput.length));
  return {
    ...collector.reply(),
    rawOutput,
    ending,
    ...(error !== undefined ? { error } : {}),
    ...(cutOff !== undefined ? { cutOff } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** The tokens whose texts fit in the first `length` characters of their chunk (all of them unless the chunk was cut), their probabilities as recorded (recorded-precision.ts). */
function tokensWithin(tokens: TokenProbability[], length: number): TokenProbability[] {
  const kept: TokenProbability[] = [];
  let used = 0;
  for (const token of tokens) {
    used += token.text.length;
    if (used > length) break;
    kept.push(recordedToken(token));
  }
  return kept;
}

/**
 * Which limit a length stop hit, from the counts, when the engine did not say: the context
 * window if prompt and output filled it, else max tokens if the output reached that. Unknown
 * (undefined) when the counts do not tell.
 */
function inferCutOff(usage: EngineUsage, settings: GenerationSettings, engine: Engine): CutOffLimit | undefined {
  const { promptTokens, completionTokens } = usage;
  if (completionTokens === undefined) return undefined;
  if (engine.contextWindowSize !== undefined && promptTokens !== undefined && promptTokens + completionTokens >= engine.contextWindowSize) return "context-window";
  if (settings.maxTokens !== undefined && completionTokens >= settings.maxTokens) return "max-tokens";
  return undefined;
}

/** The engine's chunks until it ends, fails or the signal aborts; a failure is recorded, not thrown. */
async function* engineChunks(input: StreamStepInput, signal: AbortSignal, failure: { thrown?: unknown }): AsyncGenerator<EngineChunk> {
  try {
    const { native, engine } = input;
    const chunks = native && engine.native ? engine.native.generate(native.request, signal) : engine.generate(input.prompt, input.settings, signal, input.request);
    yield* untilAborted(chunks, signal);
  } catch (thrown) {
    failure.thrown = thrown;
  }
}
