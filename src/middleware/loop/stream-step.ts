// One generation of a step: streams the engine's output through the protocol's parser and
// yields what happens as it happens (raw text, parse events, usage). It ends with what the
// output amounts to and how the stream ended; an abort or an engine failure keeps everything
// generated until then.
import { NativeCallAssembler } from "../native/native-call-assembler.ts";
import type { Engine, EngineChunk, EngineUsage, GenerationSettings, LoopEvent, StreamParser, ToolSpec } from "../types.ts";
import { untilAborted } from "./abortable-iteration.ts";
import { scopeParseEvent, type StampEvent } from "./event-shapes.ts";
import { ReplyCollector, type Reply } from "./reply-collector.ts";
import { describeError } from "./tool-result-content.ts";

export interface StreamStepInput {
  engine: Engine;
  prompt: string;
  settings: GenerationSettings;
  signal: AbortSignal;
  parser: StreamParser;
  stepId: string;
  stamp: StampEvent;
  /** Native tool calling: the request body to stream instead of the prompt, and the tools its calls are checked against. */
  native?: { request: Record<string, unknown>; tools: readonly ToolSpec[] };
}

export interface StepOutput extends Reply {
  rawOutput: string;
  ending: "complete" | "aborted" | "engine-error";
  error?: string;
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
  if (signal.aborted) ending = "aborted";
  else if ("thrown" in failure) {
    ending = "engine-error";
    error = describeError(failure.thrown);
  }
  // The parser decides what the output so far is, also after an abort or a failure, so text
  // it held back (a possible tag start) is not lost.
  yield* parsed(input.parser.end());
  if (nativeCalls) yield* parsed(nativeCalls.end(rawOutput.length));
  return { ...collector.reply(), rawOutput, ending, ...(error !== undefined ? { error } : {}), ...(usage ? { usage } : {}) };
}

/** The engine's chunks until it ends, fails or the signal aborts; a failure is recorded, not thrown. */
async function* engineChunks(input: StreamStepInput, failure: { thrown?: unknown }): AsyncGenerator<EngineChunk> {
  try {
    const { native, engine } = input;
    const chunks = native && engine.native ? engine.native.generate(native.request, input.signal) : engine.generate(input.prompt, input.settings, input.signal);
    yield* untilAborted(chunks, input.signal);
  } catch (thrown) {
    failure.thrown = thrown;
  }
}
