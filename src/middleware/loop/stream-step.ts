// One generation of a step: streams the engine's output through the protocol's parser and
// yields what happens as it happens (raw text, parse events, usage). It ends with what the
// output amounts to and how the stream ended; an abort or an engine failure keeps everything
// generated until then.
import { NativeCallAssembler } from "../native/native-call-assembler.ts";
import type { CutOffLimit, Engine, EngineChunk, EngineUsage, GenerationRequest, GenerationSettings, LoopEvent, StreamParser, ToolSpec } from "../types.ts";
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
  for await (const chunk of engineChunks(input, failure)) {
    if (chunk.type === "usage") {
      usage = { ...usage, ...chunk.usage };
      yield stamp({ type: "usage", stepId, usage: chunk.usage });
      continue;
    }
    if (chunk.type === "reasoning") {
      // Not part of the raw text: it streamed in a field of its own, so its span is empty.
      const at = rawOutput.length;
      if (chunk.text !== "") yield* parsed([{ type: "reasoning", text: chunk.text, span: { start: at, end: at } }]);
      continue;
    }
    if (chunk.type === "tool-call-delta") {
      if (nativeCalls) yield* parsed(nativeCalls.push(chunk, rawOutput.length));
      continue;
    }
    if (chunk.text === "") continue;
    const offset = rawOutput.length;
    rawOutput += chunk.text;
    yield stamp({ type: "output-delta", stepId, text: chunk.text, offset });
    yield* parsed(input.parser.push(chunk.text));
  }
  // An engine may end an aborted stream by throwing (an AbortError): that is an abort.
  let cutOff: CutOffLimit | undefined;
  if (signal.aborted) ending = "aborted";
  else if ("thrown" in failure) {
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
async function* engineChunks(input: StreamStepInput, failure: { thrown?: unknown }): AsyncGenerator<EngineChunk> {
  try {
    const { native, engine } = input;
    const chunks = native && engine.native ? engine.native.generate(native.request, input.signal) : engine.generate(input.prompt, input.settings, input.signal, input.request);
    yield* untilAborted(chunks, input.signal);
  } catch (thrown) {
    failure.thrown = thrown;
  }
}
