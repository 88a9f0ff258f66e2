// Edit and re-run: a step generated again from edited inputs, recorded as a branch — a run of
// its own whose run-start names the step it came from and what was changed. The branch never
// touches the original's events. Its one step streams through the same code as the loop's steps
// (streamStep: parse events, usage, cut-offs); the output comes from the engine, or, with the
// replay engine, is the text the person chose. The branch's run stays open until the person
// continues it (its calls run, then the loop goes on in a run that continues the branch) or
// discards it.
import { settleRender } from "toolcall-middleware/templates/render-pending.ts";
import { piecesOutsidePairs } from "toolcall-middleware/text/surrogate-pairs.ts";
import { describeBudget, fitToContext } from "toolcall-middleware/loop/fit-to-context.ts";
import { eventStamper, recordedModelChatTemplate } from "toolcall-middleware/loop/event-shapes.ts";
import { newRunId, stepIdOf } from "toolcall-middleware/loop/run-ids.ts";
import { runToolCalls } from "toolcall-middleware/loop/run-tool-calls.ts";
import { constrainStep } from "toolcall-middleware/loop/step-constraint.ts";
import { probabilityRecording } from "toolcall-middleware/loop/probability-recording.ts";
import { streamStep, type StepOutput } from "toolcall-middleware/loop/stream-step.ts";
import { runToolLoop, type RunToolLoopOptions } from "toolcall-middleware/loop/run-tool-loop.ts";
import type {
  BranchRef,
  ChatMessage,
  ChatTemplate,
  Engine,
  EngineChunk,
  ExecutableTool,
  GenerationSettings,
  LoopEvent,
  ParseEvent,
  Protocol,
  RunStatus,
  StepStatus,
  TemplateMessage,
  ToolChoiceSetting,
  ToolSpec,
} from "toolcall-middleware/types.ts";
import { templateOfRecordedStep } from "./recorded-template.ts";

export interface BranchRequest {
  /** The step re-run. */
  origin: { runId: string; stepId: string };
  protocol: Protocol;
  tools: ToolSpec[];
  /** The step's input conversation, as edited. */
  messages: ChatMessage[];
  /** The exact prompt to send (edited, or rendered from the edited parts). */
  prompt: string;
  templateMessages: TemplateMessage[];
  template: Pick<ChatTemplate, "name" | "controlTokens" | "modelChatTemplate">;
  settings: GenerationSettings;
  /** What was changed, in words (recorded in the branch's run-start). */
  changes: string[];
  toolTimeoutMs: number;
  /** "Constrain tool calls" for this re-run. */
  constrain?: { toolChoice: ToolChoiceSetting };
  /** Force the other token: the output starts with this prefix (the original's up to a token, then the chosen alternative) and the engine continues it. */
  forced?: NonNullable<BranchRef["forced"]>;
  /** Alternatives recorded per token (default DEFAULT_TOP_PROBABILITIES). */
  topProbabilities?: number;
  /** "Force no call": tokens the engine may not write first after the forced prefix (then it generates freely). */
  banned?: NonNullable<BranchRef["banned"]>;
  /** What kind of force this is, for the branch's label. */
  force?: NonNullable<BranchRef["force"]>;
}

/**
 * A forced branch of a step as its recorded step-start has it (the force buttons build theirs from
 * the step's view): its own conversation, prompt and settings without the step's grammar, tools
 * run with a 1 s timeout. For code that holds the loop's events: the real-model tests and benches.
 */
export function forcedBranchOfStepStart(start: Extract<LoopEvent, { type: "step-start" }>, protocol: Protocol, tools: ToolSpec[], force: Pick<BranchRequest, "forced" | "banned" | "force">): BranchRequest {
  return {
    origin: { runId: start.runId, stepId: start.stepId },
    protocol,
    tools,
    messages: start.messages,
    prompt: start.prompt,
    templateMessages: start.templateMessages,
    template: templateOfRecordedStep(start),
    settings: { ...start.settings, grammar: undefined },
    changes: ["forced"],
    toolTimeoutMs: 1000,
    ...(force.forced ? { forced: force.forced } : {}),
    ...(force.banned ? { banned: force.banned } : {}),
    ...(force.force ? { force: force.force } : {}),
  };
}

/** Where the output comes from: the engine, or (replay) a text the person chose. */
export type BranchSource = { engine: Engine } | { output: string };

export interface BranchResult {
  runId: string;
  stepId: string;
  output: StepOutput;
  status: StepStatus;
  /** The branch step's parse events, as recorded. */
  parseEvents: ParseEvent[];
  /** Set when the step was refused before anything was sent (the prompt does not fit). */
  refused?: string;
}

/**
 * Characters of a given output handed to the parser per task. At once, a 1 MB output was parsed
 * in one task of 1.8 s (longer on pathological text); in pieces of this size, with a turn for the
 * page between them, each task is a small part of it.
 */
export const GIVEN_OUTPUT_PIECE_CHARS = 16_384;

/** A turn for the page (a macrotask), between two pieces of a given output. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** An engine that "generates" the given text: the replay engine's re-run output, in pieces. */
export function givenOutputEngine(text: string): Engine {
  return {
    name: "given output",
    async *generate(): AsyncIterable<EngineChunk> {
      let first = true;
      for (const piece of piecesOutsidePairs(text, GIVEN_OUTPUT_PIECE_CHARS)) {
        if (!first) await nextTask();
        first = false;
        yield { type: "text", text: piece };
      }
      yield { type: "usage", usage: { finishReason: "stop" } };
    },
  };
}

/** The engine's name and what it can do (probabilities, constraints, window, token counts), generating another way. */
function withGenerate(engine: Engine, replacement: Pick<Engine, "generate">): Engine {
  return {
    name: engine.name,
    ...(engine.tokenProbabilities ? { tokenProbabilities: engine.tokenProbabilities } : {}),
    ...(engine.constrains ? { constrains: engine.constrains } : {}),
    ...(engine.contextWindowSize !== undefined ? { contextWindowSize: engine.contextWindowSize } : {}),
    ...(engine.countPromptTokens ? { countPromptTokens: engine.countPromptTokens.bind(engine) } : {}),
    generate: replacement.generate,
  };
}

/**
 * The engine, continuing a prompt that ends with `prefix`: the prefix is the step's output first
 * (so the parser reads the whole reply), then what the engine generates after it.
 */
export function forcedPrefixEngine(engine: Engine, prefix: string): Engine {
  const { generate } = engine;
  return withGenerate(engine, {
    async *generate(prompt, settings, signal, request) {
      if (prefix !== "") yield { type: "text", text: prefix };
      yield* generate.call(engine, prompt, settings, signal, request);
    },
  });
}

/**
 * The engine, not allowed `ids` as its first token: one token is generated with them banned
 * (llama.cpp's logit_bias, Engine.bansTokens) and without stop strings (llama.cpp would hold a
 * possible stop string's start back and, at the one-token limit, never send it), then the rest
 * from the prompt with that token added, freely. A first token that ends the reply (the end of
 * turn, or a stop string) ends it.
 */
export function bannedFirstTokenEngine(engine: Engine, ids: readonly number[]): Engine {
  const { generate } = engine;
  return withGenerate(engine, {
    async *generate(prompt, settings, signal, request) {
      if (!engine.bansTokens) throw new Error(`${engine.name} cannot ban a token (only llama.cpp engines take a logit bias here), so it cannot be kept from opening the call.`);
      const { stop, ...unstopped } = settings;
      const first: EngineChunk[] = [];
      let firstText = "";
      let firstUsage: Extract<EngineChunk, { type: "usage" }> | undefined;
      for await (const chunk of generate.call(engine, prompt, { ...unstopped, maxTokens: 1 }, signal, { ...request, bannedTokenIds: [...ids] })) {
        if (chunk.type === "usage") firstUsage = chunk;
        else {
          if (chunk.type === "text") firstText += chunk.text;
          first.push(chunk);
        }
      }
      const stopAt = Math.min(...(stop ?? []).filter(Boolean).map((s) => (firstText.includes(s) ? firstText.indexOf(s) : Infinity)));
      if (Number.isFinite(stopAt)) {
        if (stopAt > 0) yield { type: "text", text: firstText.slice(0, stopAt) };
        yield { type: "usage", usage: { ...firstUsage?.usage, finishReason: "stop" } };
        return;
      }
      yield* first;
      const rest = settings.maxTokens !== undefined ? settings.maxTokens - 1 : undefined;
      if (signal.aborted || firstText === "" || firstUsage?.usage.finishReason !== "length" || rest === 0) {
        if (firstUsage) yield firstUsage;
        return;
      }
      yield* generate.call(engine, prompt + firstText, { ...settings, ...(rest !== undefined ? { maxTokens: rest } : {}) }, signal, request);
    },
  });
}

function stepStatusOf(output: StepOutput): StepStatus {
  if (output.ending === "aborted") return "aborted";
  if (output.ending === "engine-error") return "engine-error";
  if (output.ending === "cut-off") return "cut-off";
  if (output.calls.length > 0) return "tool-calls";
  return output.parseErrors.length > 0 ? "parse-error" : "final";
}

export async function* runBranch(request: BranchRequest, source: BranchSource, signal: AbortSignal, runId = newRunId("branch")): AsyncGenerator<LoopEvent, BranchResult> {
  const stamp = eventStamper(runId, undefined);
  const stepId = stepIdOf(runId, 1);
  const forced = "engine" in source ? request.forced : undefined;
  const banned = "engine" in source && request.banned?.length ? request.banned : undefined;
  const continuing = "engine" in source ? (banned ? bannedFirstTokenEngine(source.engine, banned.map((b) => b.id)) : source.engine) : undefined;
  const engine = continuing ? (forced ? forcedPrefixEngine(continuing, forced.prefix) : continuing) : givenOutputEngine("output" in source ? source.output : "");
  // A forced branch's prompt is the original's followed by the kept prefix: what the engine continues.
  const prompt = forced ? request.prompt + forced.prefix : request.prompt;
  const branch: BranchRef = {
    runId: request.origin.runId,
    stepId: request.origin.stepId,
    changes: request.changes,
    ...(forced ? { forced } : {}),
    ...(banned ? { banned } : {}),
    ...(request.force ? { force: request.force } : {}),
  };
  // Awaited: a derived protocol's tool section is written by its template, in a worker.
  const toolSection = request.tools.length > 0 ? await settleRender(() => request.protocol.systemPrompt(request.tools)).catch(() => undefined) : undefined;
  yield stamp({
    type: "run-start",
    protocol: request.protocol.name,
    messages: request.messages,
    tools: request.tools,
    limits: { maxSteps: 1, toolTimeoutMs: request.toolTimeoutMs },
    ...(toolSection !== undefined ? { toolSection } : {}),
    branch,
  });
  const startedAt = performance.now();
  // The context check counts with the engine's own tokenizer where it has one (never an estimate).
  const budget = "engine" in source ? await fitToContext(engine, prompt, request.settings.maxTokens, signal) : ({ kind: "unknown", reason: "the output was given, not generated" } as const);
  const settings = "maxTokens" in budget ? { ...request.settings, maxTokens: budget.maxTokens } : request.settings;
  const constrained = request.constrain && "engine" in source ? constrainStep(request.constrain.toolChoice, request.protocol, request.tools, engine, false) : undefined;
  const section = toolSection?.trim();
  const sectionStart = section ? prompt.indexOf(section) : -1;
  const probabilities = "engine" in source ? probabilityRecording(engine, false, request.topProbabilities) : { topK: 0 };
  yield stamp({
    type: "step-start",
    stepId,
    index: 1,
    protocol: request.protocol.name,
    messages: request.messages,
    templateMessages: request.templateMessages,
    prompt,
    template: request.template.name,
    settings,
    budget,
    ...(section && sectionStart >= 0 ? { toolSectionAt: { start: sectionStart, end: sectionStart + section.length } } : {}),
    controlTokens: [...request.template.controlTokens],
    ...(constrained ? { constraint: constrained.constraint } : {}),
    probabilities,
    ...recordedModelChatTemplate(request.template.modelChatTemplate),
  });
  if (budget.kind === "prompt-too-long") {
    const refused = `Not sent: ${describeBudget(budget)}.`;
    yield stamp({ type: "step-end", stepId, status: "cut-off", cutOff: "context-window", durationMs: performance.now() - startedAt, error: refused });
    const output: StepOutput = { rawOutput: "", content: "", reasoning: "", calls: [], parseErrors: [], ending: "cut-off", cutOff: "context-window" };
    return { runId, stepId, output, status: "cut-off", parseEvents: [], refused };
  }
  const stream = streamStep({
    engine,
    prompt,
    settings,
    request: {
      ...(constrained?.structuralTag ? { structuralTag: constrained.structuralTag } : {}),
      ...(probabilities.topK > 0 && probabilities.unsupported === undefined ? { topProbabilities: probabilities.topK } : {}),
    },
    signal,
    parser: request.protocol.createParser(request.tools),
    stepId,
    stamp,
  });
  const parseEvents: ParseEvent[] = [];
  let output: StepOutput;
  for (;;) {
    const next = await stream.next();
    if (next.done) {
      output = next.value;
      break;
    }
    if (next.value.type === "parse") parseEvents.push(next.value.event);
    yield next.value;
  }
  const status = stepStatusOf(output);
  yield stamp({
    type: "step-end",
    stepId,
    status,
    durationMs: performance.now() - startedAt,
    ...(output.error !== undefined ? { error: output.error } : {}),
    ...(output.cutOff !== undefined ? { cutOff: output.cutOff } : {}),
  });
  return { runId, stepId, output, status, parseEvents };
}

/** What continuing needs of a branch: its step, its recorded output, its protocol and input. */
export interface BranchToContinue {
  runId: string;
  stepId: string;
  output: Pick<StepOutput, "content" | "reasoning" | "calls" | "rawOutput">;
  protocol: Protocol;
  /** The branch step's input conversation. */
  messages: ChatMessage[];
  toolTimeoutMs: number;
  /** The branch's own system prompt and tools (as edited): the continuation keeps them. */
  systemPrompt?: string;
  toolSpecs?: ToolSpec[];
}

export interface ContinueRequest {
  branch: BranchToContinue;
  /** The executable tools (the branch's calls run with them). */
  tools: ExecutableTool[];
  engine: Engine;
  template: ChatTemplate;
  generation: GenerationSettings;
  /** Steps the continuing run may take after the branch's own. */
  maxSteps: number;
  systemPrompt?: string;
  signal: AbortSignal;
}

function assistantOf(output: BranchToContinue["output"], protocol: string): Extract<ChatMessage, { role: "assistant" }> {
  return {
    role: "assistant",
    content: output.content,
    ...(output.reasoning !== "" ? { reasoning: output.reasoning } : {}),
    ...(output.calls.length > 0 ? { toolCalls: output.calls } : {}),
    protocol,
    ...(output.rawOutput !== output.content ? { rawOutput: output.rawOutput } : {}),
  };
}

/**
 * Goes on from a branch: its calls run (recorded under the branch's step), then the loop
 * continues in a run that names the branch; the branch's run ends with how that went.
 */
export async function* continueBranch(input: ContinueRequest): AsyncGenerator<LoopEvent, RunStatus> {
  const { branch } = input;
  const request = branch;
  const stamp = eventStamper(branch.runId, undefined);
  const messages: ChatMessage[] = [...request.messages];
  const record = (message: ChatMessage) => {
    messages.push(message);
    return stamp({ type: "message", message });
  };
  const calls = branch.output.calls;
  let status: RunStatus = "final";
  if (calls.length === 0) {
    yield record(assistantOf(branch.output, request.protocol.name));
  } else {
    const lateEvents: LoopEvent[] = [];
    const outcomes = yield* runToolCalls({
      calls,
      tools: input.tools,
      runId: branch.runId,
      stepId: branch.stepId,
      defaultTimeoutMs: request.toolTimeoutMs,
      signal: input.signal,
      subRun: { engine: input.engine, protocol: request.protocol.name, template: input.template, generation: input.generation, depth: 0, tools: input.tools },
      stamp,
      lateEvents,
    });
    yield* lateEvents.splice(0);
    yield record(assistantOf(branch.output, request.protocol.name));
    for (const [i, call] of calls.entries()) {
      const outcome = outcomes[i];
      yield record({ role: "tool", toolCallId: call.id, name: call.name, content: outcome?.content ?? "Error: the tool produced no outcome.", ...(outcome?.isError !== false ? { isError: true } : {}) });
    }
    if (input.signal.aborted) status = "aborted";
    else if (input.maxSteps < 1) status = "max-steps";
    else {
      const options: RunToolLoopOptions = {
        engine: input.engine,
        protocol: request.protocol,
        tools: withBranchSpecs(input.tools, branch.toolSpecs),
        messages: [...messages],
        template: input.template,
        generation: input.generation,
        maxSteps: input.maxSteps,
        toolTimeoutMs: request.toolTimeoutMs,
        signal: input.signal,
        idPrefix: "branch",
        // The branch's system prompt (as edited) where it has one; else the conversation's.
        ...(branch.systemPrompt !== undefined ? { systemPrompt: branch.systemPrompt } : input.systemPrompt !== undefined ? { systemPrompt: input.systemPrompt } : {}),
      };
      const continuing: BranchRef = { runId: branch.runId, stepId: branch.stepId, changes: [], continues: true };
      for await (const event of runToolLoop(options)) {
        if (event.type === "run-start" && !event.parent) yield { ...event, branch: continuing };
        else yield event;
        if (event.type === "run-end" && !event.parent) {
          status = event.status;
          messages.splice(0, messages.length, ...event.messages);
        }
      }
    }
  }
  yield stamp({ type: "run-end", status, messages: [...messages] });
  return status;
}

/** The executable tools the branch offered, described as the branch described them (edited descriptions and schemas kept). */
function withBranchSpecs(tools: ExecutableTool[], specs: ToolSpec[] | undefined): ExecutableTool[] {
  if (!specs) return tools;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return specs.flatMap((spec) => {
    const tool = byName.get(spec.name);
    return tool ? [{ ...tool, description: spec.description, parameters: spec.parameters }] : [];
  });
}

/** Closes a branch the person does not want: kept in the log, marked discarded, off the timeline. */
export function discardBranchEvent(runId: string, messages: ChatMessage[]): LoopEvent {
  return { type: "run-end", runId, at: Date.now(), status: "aborted", error: "Discarded by the person.", messages, discarded: true };
}
