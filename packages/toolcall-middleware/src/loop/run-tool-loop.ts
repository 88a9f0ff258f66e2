// The tool loop: prompt the model, stream and parse its output, run the calls it made, feed the
// results back, and repeat until it answers, a limit is hit, the run is aborted or the engine
// fails. It is an async generator of LoopEvents: the event log is the whole story of the run.
import { parserStartedInReasoning } from "./opened-reasoning.ts";
import { chatmlTemplate } from "../templates/chatml.ts";
import type {
  ChatMessage,
  ChatTemplate,
  CutOffLimit,
  Engine,
  ExecutableTool,
  GenerationSettings,
  LoopEvent,
  OpenerProbe,
  Protocol,
  ToolFraming,
  RunStatus,
  Span,
  StepStatus,
  SubRunContext,
  TemplateMessage,
  ToolChoiceSetting,
  ToolSpec,
} from "../types.ts";
import { correctionMessage } from "./correction-message.ts";
import { eventStamper, recordedModelChatTemplate, type ParentRef, type StampEvent } from "./event-shapes.ts";
import type { ArgumentsCheck, ToolCallOutcome } from "./execute-tool-call.ts";
import { describeBudget, fitToContext } from "./fit-to-context.ts";
import { escapeJsonValue, escapeToolSpecs, promptEscaper, renderToolSection } from "../protocols/escape-tool-definitions.ts";
import { renderPrompt } from "./render-conversation.ts";
import { newRunId, stepIdOf } from "./run-ids.ts";
import { runToolCalls } from "./run-tool-calls.ts";
import { plainTextParser } from "../native/plain-text-parser.ts";
import { askServerPrompt } from "../native/server-prompt.ts";
import { PromptRenderRefused } from "../templates/render-refused.ts";
import { rethrowPending, settleRender } from "../templates/render-pending.ts";
import { checkAgainstSchema } from "./schema-check.ts";
import { probabilityRecording } from "./probability-recording.ts";
import { measureOpeners } from "../probabilities/opener-probe.ts";
import { openingMarkers } from "../probabilities/opening-markers.ts";
import { constrainStep } from "./step-constraint.ts";
import { streamStep, type StepOutput, type StepOutputLimits } from "./stream-step.ts";
import { describeError } from "./tool-result-content.ts";

import { DEFAULT_MAX_CALLS_PER_STEP, DEFAULT_MAX_STEPS, DEFAULT_TOOL_TIMEOUT_MS, NATIVE_PROTOCOL, NATIVE_TEMPLATE } from "./loop-defaults.ts";

export { DEFAULT_MAX_CALLS_PER_STEP, DEFAULT_MAX_STEPS, DEFAULT_TOOL_TIMEOUT_MS, NATIVE_PROTOCOL, NATIVE_TEMPLATE };

export interface RunToolLoopOptions {
  engine: Engine;
  /** The protocol of this run; the next run may use another (each step records its own). */
  protocol: Protocol;
  tools: ExecutableTool[];
  /** The conversation so far, ending with the user's message. */
  messages: ChatMessage[];
  /** The user's system prompt; the protocol's tool section is added to it. */
  systemPrompt?: string;
  /** Defaults to ChatML. */
  template?: ChatTemplate;
  generation?: GenerationSettings;
  /** Model generations allowed in this run (default 8). */
  maxSteps?: number;
  /** For tools without a timeout of their own (default 30 s). */
  toolTimeoutMs?: number;
  /**
   * Calls run per step (default 16): the calls of one reply past it are not run, and each gets
   * an error result saying so, so that a reply of thousands of calls cannot run thousands of tools.
   */
  maxCallsPerStep?: number;
  signal?: AbortSignal;
  runId?: string;
  /** Set for a nested run (a sub-agent): the call it runs under. */
  parent?: ParentRef;
  /** Nesting depth, 0 for a top-level run. */
  depth?: number;
  /** Prefix of the generated run id when `runId` is not given. */
  idPrefix?: string;
  /**
   * Checks (and may coerce) a call's arguments before its tool runs. Default: against the
   * tool's JSON Schema.
   */
  checkArguments?: (args: Record<string, unknown>, tool: ExecutableTool) => ArgumentsCheck;
  /** "Constrain tool calls": each step sends the protocol's structural tag for this tool choice. */
  constrain?: { toolChoice: ToolChoiceSetting };
  /** What one step keeps of a reply before the loop stops it (default STEP_OUTPUT_LIMITS). */
  outputLimits?: StepOutputLimits;
  /** Alternatives recorded per generated token, with its probability (default DEFAULT_TOP_PROBABILITIES, at most MAX_TOP_PROBABILITIES; 0: none). */
  topProbabilities?: number;
  /**
   * After a step that opened no call, measure how likely each opening marker was at its first
   * token (one short grammar-bound completion per marker, on engines with `probeText`) and record
   * it in the step-end. Default: on wherever the step records probabilities.
   */
  probeOpeners?: boolean;
}

export interface LoopResult {
  status: RunStatus;
  /** The whole conversation after the run. */
  messages: ChatMessage[];
  /** The text of the run's last assistant message ("" if it wrote none). */
  finalText: string;
}

interface RunState {
  readonly runId: string;
  readonly options: RunToolLoopOptions;
  readonly template: ChatTemplate;
  readonly toolSpecs: ToolSpec[];
  /** The protocol's tool section for this run's tools, as recorded in run-start. */
  readonly toolSection: string | undefined;
  readonly maxSteps: number;
  readonly toolTimeoutMs: number;
  readonly maxCallsPerStep: number;
  readonly signal: AbortSignal;
  readonly stamp: StampEvent;
  readonly messages: ChatMessage[];
  readonly lateEvents: LoopEvent[];
  /** The step under way, so that an unexpected failure can still close it. */
  openStep?: { stepId: string; startedAt: number };
}

interface StepResult {
  status: StepStatus;
  /** Set when the run ends with this step. */
  runStatus?: RunStatus;
  error?: string;
  cutOff?: CutOffLimit;
  openerProbe?: OpenerProbe;
}

/** Why the complete calls of an unfinished output were not run, as the model is told. */
const NOT_RUN_REASON = {
  aborted: "the run was stopped before it ran",
  "engine-error": "the model's output failed before it ran",
  "cut-off": "the model's output was cut off at a length limit before it ran",
} as const;

export async function* runToolLoop(options: RunToolLoopOptions): AsyncGenerator<LoopEvent, LoopResult> {
  const runId = options.runId ?? newRunId(options.idPrefix);
  // Our own controller: it follows the caller's signal, and also stops the engine and the
  // tools when the consumer leaves the generator early.
  const controller = new AbortController();
  const followCaller = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) followCaller();
  else options.signal?.addEventListener("abort", followCaller, { once: true });

  const toolSpecs = options.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  // A protocol whose tool section its template writes renders it off the page's thread: awaited here.
  const toolSection = await settleRender(
    () => toolSectionOf(options.protocol, toolSpecs, (options.template ?? chatmlTemplate).controlTokens, options.template?.toolFraming),
    controller.signal,
  ).catch(() => undefined);
  const state: RunState = {
    runId,
    options,
    template: options.template ?? chatmlTemplate,
    toolSpecs,
    toolSection,
    maxSteps: Math.max(1, Math.floor(options.maxSteps ?? DEFAULT_MAX_STEPS)),
    toolTimeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    maxCallsPerStep: Math.max(1, Math.floor(options.maxCallsPerStep ?? DEFAULT_MAX_CALLS_PER_STEP)),
    signal: controller.signal,
    stamp: eventStamper(runId, options.parent),
    messages: [...options.messages],
    lateEvents: [],
  };
  const firstNewMessage = state.messages.length;

  yield state.stamp({
    type: "run-start",
    protocol: options.engine.native ? NATIVE_PROTOCOL : options.protocol.name,
    messages: [...state.messages],
    tools: state.toolSpecs,
    limits: { maxSteps: state.maxSteps, toolTimeoutMs: state.toolTimeoutMs, maxCallsPerStep: state.maxCallsPerStep },
    ...(state.toolSection !== undefined ? { toolSection: state.toolSection } : {}),
  });

  let status: RunStatus = "aborted";
  let error: string | undefined;
  try {
    for (let index = 1; ; index += 1) {
      if (state.signal.aborted) break;
      const step = yield* runStep(state, index);
      yield* state.lateEvents.splice(0);
      if (step.runStatus) {
        status = step.runStatus;
        error = step.error;
        break;
      }
    }
  } catch (thrown) {
    // A bug in a protocol's parser or renderer must still end the step and the run visibly. A
    // template that refused to render past its bounds says so in its own words.
    status = "engine-error";
    error = thrown instanceof PromptRenderRefused ? thrown.message : `Internal error: ${describeError(thrown)}`;
    const open = state.openStep;
    if (open) yield state.stamp({ type: "step-end", stepId: open.stepId, status: "engine-error", durationMs: performance.now() - open.startedAt, error });
  } finally {
    options.signal?.removeEventListener("abort", followCaller);
    // Reached early when the consumer stops iterating: stop whatever is still running.
    controller.abort();
  }
  yield* state.lateEvents.splice(0);

  const messages = [...state.messages];
  yield state.stamp({ type: "run-end", status, messages, ...(error !== undefined ? { error } : {}) });
  const lastAssistant = messages.slice(firstNewMessage).findLast((message) => message.role === "assistant");
  return { status, messages, finalText: lastAssistant?.content ?? "" };
}

async function* runStep(state: RunState, index: number): AsyncGenerator<LoopEvent, StepResult> {
  const { options, stamp, template, toolSpecs } = state;
  const { protocol } = options;
  const stepId = stepIdOf(state.runId, index);
  const startedAt = performance.now();

  // Native tool calling: the server renders the prompt and reads the calls; we send the
  // conversation and the tools and record the request body instead of a prompt.
  const native = options.engine.native;
  const systemPrompt = options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {};
  let rendered: { templateMessages: TemplateMessage[]; prompt: string };
  try {
    // A template that renders in a worker (a GGUF's own) is awaited; Stop ends the wait.
    rendered = native ? { templateMessages: [], prompt: "" } : await settleRender(() => renderPrompt({ ...systemPrompt, tools: toolSpecs, protocol, messages: state.messages, template }), state.signal);
  } catch (thrown) {
    if (state.signal.aborted) return { status: "aborted", runStatus: "aborted" };
    throw thrown;
  }
  const { templateMessages, prompt } = rendered;
  const requested = native ? (options.generation ?? {}) : withTemplateStops(options.generation ?? {}, template);
  const budget = await fitToContext(options.engine, prompt, requested.maxTokens, state.signal);
  const settings = "maxTokens" in budget ? { ...requested, maxTokens: budget.maxTokens } : requested;
  const nativeRequest = native?.request({ ...systemPrompt, ...forTheServer(state.messages, toolSpecs, protocol) }, settings);
  const serverPrompt = native && nativeRequest ? await askServerPrompt(native, nativeRequest, state.signal) : undefined;
  const protocolName = native ? NATIVE_PROTOCOL : protocol.name;
  // The same prompt as chat turns, for an engine whose chat path keeps its cache across steps.
  const chat = native ? undefined : template.chatTurns?.(templateMessages);
  const constrained = options.constrain && !native ? constrainStep(options.constrain.toolChoice, protocol, toolSpecs, options.engine, chat !== undefined) : undefined;
  const probabilities = probabilityRecording(options.engine, native !== undefined, options.topProbabilities);
  yield stamp({
    type: "step-start",
    stepId,
    index,
    protocol: protocolName,
    messages: [...state.messages],
    templateMessages,
    prompt,
    template: native ? NATIVE_TEMPLATE : template.name,
    settings,
    budget,
    ...toolSectionSpan(prompt, state.toolSection),
    controlTokens: native ? [] : [...template.controlTokens],
    ...(nativeRequest ? { request: nativeRequest } : {}),
    ...(serverPrompt ? { serverPrompt } : {}),
    ...(constrained ? { constraint: constrained.constraint } : {}),
    probabilities,
    ...recordedModelChatTemplate(native ? undefined : template.modelChatTemplate),
  });
  state.openStep = { stepId, startedAt };

  if (budget.kind === "prompt-too-long") {
    // Nothing would be generated: the engine would refuse the prompt or stop at once.
    return yield* endStep(state, stepId, startedAt, {
      status: "cut-off",
      runStatus: "cut-off",
      cutOff: "context-window",
      error: `${capitalise(describeBudget(budget))}. Start a new conversation, offer fewer tools, or use a model with a larger context window.`,
    });
  }

  const request = {
    ...(chat ? { chat, controlStops: template.stop } : {}),
    ...(constrained?.structuralTag ? { structuralTag: constrained.structuralTag } : {}),
    ...(probabilities.topK > 0 && probabilities.unsupported === undefined ? { topProbabilities: probabilities.topK } : {}),
  };
  const output = yield* streamStep({
    engine: options.engine,
    prompt,
    settings,
    request,
    signal: state.signal,
    parser: native ? plainTextParser() : template.opensReasoning ? parserStartedInReasoning(protocol, toolSpecs, template.opensReasoning) : protocol.createParser(toolSpecs),
    stepId,
    stamp,
    ...(nativeRequest ? { native: { request: nativeRequest, tools: toolSpecs } } : {}),
    ...(options.outputLimits ? { limits: options.outputLimits } : {}),
  });

  function* record(message: ChatMessage): Generator<LoopEvent> {
    state.messages.push(message);
    yield stamp({ type: "message", message });
  }
  // A step that opened no call (finished, or cut off at a limit: it decided at its first token
  // all the same): how likely a call was there, measured where the engine can.
  const decided = output.ending === "complete" || output.ending === "cut-off";
  const openerProbe =
    decided && output.calls.length === 0 && !native && options.probeOpeners !== false && probabilities.topK > 0 && probabilities.unsupported === undefined
      ? await measureOpeners(options.engine, prompt, openingMarkers(protocol, toolSpecs), state.signal)
      : undefined;
  const probed = openerProbe ? { openerProbe } : {};
  const end = (result: StepResult) => endStep(state, stepId, startedAt, { ...result, ...probed });

  if (output.ending !== "complete") {
    // Keep what was generated: the partial reply, and its complete calls marked as not run so
    // the history stays well-formed (every call has a result). A reply cut off at a length
    // limit is unfinished too: its calls are not run, and the run ends saying why.
    if (output.rawOutput !== "") {
      yield* record(assistantMessage(output, protocolName));
      const reason = NOT_RUN_REASON[output.ending];
      for (const call of output.calls) yield* record({ role: "tool", toolCallId: call.id, name: call.name, content: `Error: not run: ${reason}.`, isError: true });
    }
    return yield* end(
      output.ending === "aborted"
        ? { status: "aborted", runStatus: "aborted" }
        : output.ending === "cut-off"
          ? { status: "cut-off", runStatus: "cut-off", ...(output.cutOff !== undefined ? { cutOff: output.cutOff } : {}), ...(output.error !== undefined ? { error: output.error } : {}) }
          : { status: "engine-error", runStatus: "engine-error", ...(output.error !== undefined ? { error: output.error } : {}) },
    );
  }

  const lastStep = index >= state.maxSteps;
  if (output.calls.length === 0 && output.parseErrors.length === 0) {
    yield* record(assistantMessage(output, protocolName));
    return yield* end({ status: "final", runStatus: "final" });
  }

  if (output.calls.length > 0) {
    // Only the first maxCallsPerStep calls run; each one past it is shown and answered as not run.
    const limit = state.maxCallsPerStep;
    const outcomes: Array<ToolCallOutcome | undefined> = yield* runToolCalls({
      calls: output.calls.slice(0, limit),
      tools: options.tools,
      runId: state.runId,
      stepId,
      defaultTimeoutMs: state.toolTimeoutMs,
      signal: state.signal,
      subRun: subRunContext(state),
      stamp,
      lateEvents: state.lateEvents,
      checkArguments: options.checkArguments ?? checkAgainstSchema,
    });
    const overLimit = overCallLimit(output.calls.length, limit);
    for (const call of output.calls.slice(limit)) {
      yield stamp({ type: "tool-start", stepId, call });
      yield stamp({ type: "tool-end", stepId, callId: call.id, name: call.name, status: overLimit.status, content: overLimit.content, durationMs: 0, ...(overLimit.error !== undefined ? { error: overLimit.error } : {}) });
    }
    yield* record(assistantMessage(output, protocolName));
    for (const [position, call] of output.calls.entries()) yield* record(toolMessage(call.id, call.name, outcomes[position] ?? overLimit));
    if (state.signal.aborted) return yield* end({ status: "aborted", runStatus: "aborted" });
  } else {
    yield* record(assistantMessage(output, protocolName));
  }

  // Calls the parser could not use are named to the model so it can retry (not after the
  // last step: nothing would read the note).
  if (output.parseErrors.length > 0 && !lastStep) {
    // The note quotes tool names and the model's own text: escaped like a tool result, so that
    // neither can write a control token or a marker into the user turn it becomes.
    yield* record({ role: "user", content: promptEscaper(template.controlTokens, protocol)(correctionMessage(output.parseErrors, toolSpecs)) });
  }
  if (lastStep) return yield* end({ status: "max-steps", runStatus: "max-steps" });
  return yield* end({ status: output.calls.length > 0 ? "tool-calls" : "parse-error" });
}

function* endStep(state: RunState, stepId: string, startedAt: number, result: StepResult): Generator<LoopEvent, StepResult> {
  state.openStep = undefined;
  yield state.stamp({
    type: "step-end",
    stepId,
    status: result.status,
    durationMs: performance.now() - startedAt,
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.cutOff !== undefined ? { cutOff: result.cutOff } : {}),
    ...(result.openerProbe !== undefined ? { openerProbe: result.openerProbe } : {}),
  });
  return result;
}

/**
 * The protocol's tool section, recorded so that the debugger shows what this run's model read,
 * not what today's protocol code would write. A protocol that cannot write it fails the first
 * step visibly (rendering the prompt calls it again); here it is just not recorded.
 */
function toolSectionOf(protocol: Protocol, tools: ToolSpec[], controlTokens: readonly string[], framing: ToolFraming | undefined): string | undefined {
  if (tools.length === 0) return undefined;
  try {
    return renderToolSection(protocol, tools, controlTokens, framing);
  } catch (error) {
    rethrowPending(error);
    return undefined;
  }
}

/** Where the tool section sits in the prompt, when the prompt holds it verbatim. */
function toolSectionSpan(prompt: string, toolSection: string | undefined): { toolSectionAt?: Span } {
  const section = toolSection?.trim();
  if (!section) return {};
  const start = prompt.indexOf(section);
  return start >= 0 ? { toolSectionAt: { start, end: start + section.length } } : {};
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a tool that starts a sub-agent gets to know about the calling run. */
function subRunContext({ options, template }: RunState): SubRunContext {
  return {
    engine: options.engine,
    protocol: options.protocol.name,
    template,
    generation: options.generation ?? {},
    depth: options.depth ?? 0,
    tools: options.tools,
  };
}

function assistantMessage(output: StepOutput, protocol: string): Extract<ChatMessage, { role: "assistant" }> {
  return {
    role: "assistant",
    content: output.content,
    ...(output.reasoning !== "" ? { reasoning: output.reasoning } : {}),
    ...(output.calls.length > 0 ? { toolCalls: output.calls } : {}),
    protocol,
    // Where it differs from the text (reasoning, calls): the turn as generated, for the next step.
    ...(output.rawOutput !== output.content ? { rawOutput: output.rawOutput } : {}),
  };
}

/**
 * What native mode sends: the conversation and the tools with everything the lab did not write
 * itself (definitions, results, the model's own words and arguments) escaped as in a prompt.
 * The server renders them with its own template and tokenizer, which would read a typed
 * `<|im_end|>` as the control token just as ours would. Names escape too: a tool whose name holds
 * a marker cannot be called by it, as in prompt mode. The person's own messages are sent as typed.
 */
function forTheServer(messages: ChatMessage[], tools: ToolSpec[], protocol: Protocol): { messages: ChatMessage[]; tools: ToolSpec[] } {
  // The server's template is not ours to know: every `<|…` token and every protocol's marker.
  const escape = promptEscaper([], protocol);
  return {
    tools: escapeToolSpecs(tools, escape),
    messages: messages.map((message): ChatMessage => {
      if (message.role === "tool") return { ...message, content: escape(message.content) };
      if (message.role === "user" && message.source) return { ...message, content: escape(message.content) };
      if (message.role !== "assistant") return message;
      return {
        ...message,
        content: escape(message.content),
        ...(message.reasoning !== undefined ? { reasoning: escape(message.reasoning) } : {}),
        ...(message.toolCalls ? { toolCalls: message.toolCalls.map((call) => ({ ...call, name: escape(call.name), arguments: escapeJsonValue(call.arguments, escape) as Record<string, unknown> })) } : {}),
      };
    }),
  };
}

/** The outcome of a call past the per-step limit: not run, and the model is told why. */
function overCallLimit(calls: number, limit: number): ToolCallOutcome {
  const error = `not run: this reply made ${calls} tool calls and at most ${limit} are run per step (the "max calls per step" setting)`;
  return { status: "error", content: `Error: ${error}. Make at most ${limit} calls in one reply; call again for the rest once you have these results.`, isError: true, error, durationMs: 0 };
}

function toolMessage(toolCallId: string, name: string, outcome: ToolCallOutcome | undefined): ChatMessage {
  const content = outcome?.content ?? "Error: the tool produced no outcome.";
  return { role: "tool", toolCallId, name, content, ...(outcome?.isError !== false ? { isError: true } : {}) };
}

/** The caller's stop strings plus the template's end-of-turn strings, each once. */
function withTemplateStops(generation: GenerationSettings, template: ChatTemplate): GenerationSettings {
  return { ...generation, stop: [...new Set([...(generation.stop ?? []), ...template.stop])] };
}
