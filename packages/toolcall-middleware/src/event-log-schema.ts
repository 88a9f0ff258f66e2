// The event log's schema, defined once: the TypeScript types of the log (LoopEvent and what it
// holds: messages, tool specs and calls, parse events, settings, usage) are inferred from it in
// types.ts, and an imported log is checked against it. A field added here is typed and checked
// at once; a view that needs a field only newer logs have must treat it as optional.
import { z } from "zod";

export const jsonSchemaSchema = z.record(z.string(), z.unknown());

export const toolSpecSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** JSON Schema of the arguments object. */
  parameters: jsonSchemaSchema,
});

export const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});

/**
 * Where a message came from when neither the person typed it nor the model wrote it: the
 * messages an MCP server's prompt returned, put into the conversation as turns. Such text is
 * escaped like a tool result when rendered (a server cannot write the template's control tokens
 * into the prompt), and views mark it with its origin. `insertion` tells one insertion's
 * messages from the next one's.
 */
export const messageSourceSchema = z.object({
  kind: z.literal("mcp-prompt"),
  server: z.string(),
  prompt: z.string(),
  insertion: z.string(),
});

export const chatMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string(), source: messageSourceSchema.optional() }),
  z.object({
    role: z.literal("assistant"),
    content: z.string(),
    source: messageSourceSchema.optional(),
    reasoning: z.string().optional(),
    toolCalls: z.array(toolCallSchema).optional(),
    protocol: z.string().optional(),
    /**
     * The turn exactly as the model generated it (reasoning and call markup included), so the
     * next step can show it the same tokens again and an engine can keep them in its KV cache.
     */
    rawOutput: z.string().optional(),
  }),
  z.object({ role: z.literal("tool"), toolCallId: z.string(), name: z.string(), content: z.string(), isError: z.boolean().optional() }),
]);

export const templateMessageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
  /** An assistant turn's reasoning; a template keeps or drops it as its family does (Qwen3). */
  reasoning: z.string().optional(),
  /**
   * An assistant turn as the model generated it, in this protocol. A template writes it instead
   * of `content` (and `reasoning`) where that is what its family would write anyway.
   */
  generated: z.string().optional(),
  /**
   * Text a family's tool framing puts before a turn's own text: at the very start of the system
   * turn (Llama 3.1's "Environment: ipython\n"), or before the last user turn (Mistral's tool list).
   */
  header: z.string().optional(),
});

/** One message a tool sent or received while it ran (an MCP server's JSON-RPC), secrets masked by the tool. */
export const toolTraceEntrySchema = z.object({
  direction: z.enum(["sent", "received"]),
  /** Milliseconds since the epoch. */
  at: z.number(),
  message: z.unknown(),
  /** Where it went or came from, e.g. "POST http://127.0.0.1:3000/mcp". */
  label: z.string().optional(),
});

/** A character offset: views index text with it, so it is a whole number, never negative. */
const offsetSchema = z.number().int().nonnegative();

/** A half-open range [start, end) of character offsets. */
export const spanSchema = z.object({ start: offsetSchema, end: offsetSchema });

/** Kinds the parsers report; other strings are allowed (a protocol may add its own). */
export const KNOWN_PARSE_ERROR_KINDS = ["invalid-json", "unknown-tool", "invalid-arguments", "unfinished-tool-call", "missing-tool-name", "unknown-protocol"] as const;
const parseErrorKindSchema = z.union([z.enum(KNOWN_PARSE_ERROR_KINDS), z.string()]);

export const parseEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string(), span: spanSchema }),
  z.object({ type: z.literal("reasoning"), text: z.string(), span: spanSchema }),
  z.object({ type: z.literal("tool-call-start"), id: z.string(), name: z.string(), span: spanSchema }),
  z.object({ type: z.literal("tool-call-delta"), id: z.string(), argumentsDelta: z.string(), span: spanSchema }),
  z.object({ type: z.literal("tool-call-end"), id: z.string(), call: toolCallSchema, span: spanSchema }),
  z.object({ type: z.literal("repair"), id: z.string().optional(), kind: z.string(), message: z.string(), before: z.string(), after: z.string(), span: spanSchema }),
  z.object({
    type: z.literal("parse-error"),
    id: z.string().optional(),
    kind: parseErrorKindSchema,
    message: z.string(),
    raw: z.string(),
    span: spanSchema,
    /**
     * The call as it was read, where reading it succeeded and only checking it failed (an unknown
     * tool, arguments outside the schema): what a caller that validates on its own (the AI SDK)
     * needs to report the error its own way. Absent in older logs.
     */
    call: z.object({ name: z.string(), arguments: z.unknown() }).optional(),
  }),
]);

export const generationSettingsSchema = z.object({
  maxTokens: z.number().optional(),
  temperature: z.number().optional(),
  /** Nucleus sampling; sent explicitly so a run can be reproduced. */
  topP: z.number().optional(),
  /** Multiplies down the logits of tokens already seen (1 = off). */
  repetitionPenalty: z.number().optional(),
  /** OpenAI-style additive penalties (0 = off). */
  presencePenalty: z.number().optional(),
  frequencyPenalty: z.number().optional(),
  /** Sampling seed, where the engine honours one. */
  seed: z.number().optional(),
  stop: z.array(z.string()).optional(),
  /** An EBNF grammar to constrain output, where the engine supports it. */
  grammar: z.string().optional(),
});

/**
 * The limit that cut a generation short: its max_tokens budget, the model's context window, or
 * the lab's own bound on what one step keeps of a reply ("output-limit": a server may ignore
 * max_tokens and stream without end; the loop stops it there).
 */
export const cutOffLimitSchema = z.enum(["max-tokens", "context-window", "output-limit"]);

export const engineUsageSchema = z.object({
  promptTokens: z.number().optional(),
  completionTokens: z.number().optional(),
  timeToFirstTokenMs: z.number().optional(),
  decodeTokensPerSecond: z.number().optional(),
  prefillTokensPerSecond: z.number().optional(),
  finishReason: z.union([z.enum(["stop", "length", "abort"]), z.string()]).optional(),
  /** With finishReason "length": what ran out — the max_tokens budget or the context window. */
  cutOff: cutOffLimitSchema.optional(),
  /** Tokens of the prompt run through prefill in this step. */
  prefilledTokens: z.number().optional(),
  /** Tokens of the prompt already in the engine's KV cache from the step before (not prefilled again). */
  reusedTokens: z.number().optional(),
  /** Why the engine prefilled the whole prompt although the step before left a cache (absent when it reused it, or had none). */
  fullPrefillReason: z.string().optional(),
  /** What the model keeps between steps: "kv_cache", or "hybrid" (a KV cache and a recurrent state, e.g. Qwen3.5); absent in older logs. */
  kvState: z.enum(["kv_cache", "hybrid"]).optional(),
  /** XGrammar's time to compile the step's grammar, and per generated token (constrained steps). */
  grammarInitMs: z.number().optional(),
  grammarPerTokenMs: z.number().optional(),
  /**
   * How the engine sent the step's structural tag: as the OpenAI-style `response_format` (WebLLM's
   * XGrammar, vLLM, SGLang) or written as one GBNF grammar (llama.cpp: `grammar`). Absent in older logs.
   */
  constraintSentAs: z.enum(["response_format", "grammar"]).optional(),
  /** Why the step has no token probabilities although it asked for them (the engine sent none). */
  probabilitiesMissing: z.string().optional(),
});

/**
 * How far the engine has read a step's prompt, as it reports it while prefilling (llama.cpp's
 * prompt_progress): the prompt's tokens, how many of them came from its prompt cache, how many are
 * read so far (the cached ones included) and the time spent reading.
 */
export const promptProgressSchema = z.object({
  totalTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative(),
  processedTokens: z.number().int().nonnegative(),
  elapsedMs: z.number().nonnegative(),
});

/** The most alternatives a step records per token (an engine or a file may offer more; the rest is not kept). */
export const MAX_TOP_PROBABILITIES = 20;
/** How many alternatives a step records per token unless the run asks for another number. */
export const DEFAULT_TOP_PROBABILITIES = 5;

const probabilitySchema = z.number().min(0).max(1);

/** A token the model could have generated at a position, with its probability there. */
export const tokenAlternativeSchema = z.object({
  text: z.string(),
  p: probabilitySchema,
  /** The token's id in the model's vocabulary, where the engine says. */
  id: z.number().int().optional(),
});

/**
 * One generated token as the engine reported it: its text, its probability and the most likely
 * tokens at its position (the engine's own numbers; nothing is estimated). The texts of a delta's
 * tokens, in order, make up the delta's text where the engine's token texts are whole characters.
 */
export const tokenProbabilitySchema = z.object({
  text: z.string(),
  p: probabilitySchema,
  id: z.number().int().optional(),
  top: z.array(tokenAlternativeSchema).max(MAX_TOP_PROBABILITIES),
});

/**
 * What a step asked for its tokens' probabilities and whether it got them: `topK` alternatives
 * per token (0: not asked), or why the engine could not give them (`unsupported`).
 */
export const probabilityRecordingSchema = z.object({
  topK: z.number().int().min(0).max(MAX_TOP_PROBABILITIES),
  unsupported: z.string().optional(),
});

/**
 * What an opener probe measured at a step's decision point: for each of the protocol's opening
 * markers, the probability that the model writes it there — the product along the tokens the
 * engine wrote it with (llama.cpp: a grammar allowing only the marker; each token's probability
 * is the model's own, taken before the grammar) — or why the engine could not measure it.
 */
export const openerProbeSchema = z.union([
  z.object({
    /** Where in the output the probe was taken (the decision point's offset). */
    at: z.number().int().min(0),
    markers: z
      .array(
        z.object({
          marker: z.string(),
          p: probabilitySchema,
          tokens: z.array(z.object({ text: z.string(), p: probabilitySchema, id: z.number().int().optional() })).max(256),
        }),
      )
      .max(32),
  }),
  z.object({ unsupported: z.string() }),
]);

/** The tool choice of a constrained step: text or calls, at least one call, this tool, no call. */
export const toolChoiceSchema = z.union([z.enum(["auto", "required", "none"]), z.object({ name: z.string() })]);

/** A step's "Constrain tool calls" setting and what was sent for it. */
export const constraintSchema = z.object({
  toolChoice: toolChoiceSchema,
  /** The structural tag sent as the engine's response_format (absent when none could be). */
  structuralTag: z.unknown().optional(),
  /** Why the step ran unconstrained although the setting is on (the engine or protocol cannot). */
  unsupported: z.string().optional(),
});

/**
 * How a step's max tokens were fitted to the model's context window (prompt + reply must fit).
 * "unknown" when the engine cannot say: nothing is estimated.
 */
export const contextBudgetSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.enum(["fits", "capped"]), requested: z.number().optional(), maxTokens: z.number(), promptTokens: z.number(), contextWindow: z.number() }),
  z.object({ kind: z.literal("prompt-too-long"), requested: z.number().optional(), promptTokens: z.number(), contextWindow: z.number() }),
  z.object({ kind: z.literal("unknown"), requested: z.number().optional(), reason: z.string() }),
]);

export const stepStatusSchema = z.enum(["final", "tool-calls", "parse-error", "aborted", "max-steps", "engine-error", "cut-off"]);
export const runStatusSchema = z.enum(["final", "max-steps", "aborted", "engine-error", "cut-off"]);
export const toolExecutionStatusSchema = z.enum(["ok", "error", "timeout", "aborted", "invalid-arguments", "unknown-tool"]);

/**
 * A re-run of a step ("Edit and re-run"): a run of its own, recorded beside the original, which
 * it never rewrites. It names the step it came from and, in words, what was changed. A run that
 * continues a branch (its calls run, the loop goes on) names the branch's step and `continues`.
 */
export const branchSchema = z.object({
  runId: z.string(),
  stepId: z.string(),
  changes: z.array(z.string()),
  continues: z.boolean().optional(),
  /**
   * "Force the other token": the branch kept the original output up to `offset`, put `token` (an
   * alternative the engine recorded there) in place of `replaced`, and generated on from it; its
   * prompt is the original prompt followed by that prefix.
   */
  forced: z.object({ offset: offsetSchema, token: z.string(), replaced: z.string(), prefix: z.string() }).optional(),
  /**
   * "Force no call": at the end of the forced prefix the engine was not allowed these tokens (the
   * call opener's first token; llama.cpp's logit_bias) for the first token only, then generated on freely.
   */
  banned: z.array(z.object({ id: z.number().int(), text: z.string() })).max(64).optional(),
  /** What the branch forced, in kind: a call opened here, no call here, a text typed at a token (absent: an alternative token). */
  force: z.enum(["call", "no-call", "text", "token"]).optional(),
});

/** The longest model chat template a step records (the largest of llama.cpp's 69 vendor templates is about 17,000 characters). */
export const MODEL_CHAT_TEMPLATE_CHARS = 200_000;

/** Fields every event has. Nested runs (a sub-agent) carry `parent`: the step and call they run under. */
const eventBase = {
  runId: z.string().min(1),
  /** Milliseconds since the epoch. */
  at: z.number(),
  parent: z.object({ runId: z.string(), stepId: z.string(), callId: z.string() }).optional(),
};

/** The event log of a run: the single source of truth for chat, debugger, persistence, export. */
export const loopEventSchema = z.discriminatedUnion("type", [
  z.object({
    ...eventBase,
    type: z.literal("run-start"),
    protocol: z.string(),
    messages: z.array(chatMessageSchema),
    tools: z.array(toolSpecSchema),
    limits: z.object({ maxSteps: z.number(), toolTimeoutMs: z.number(), maxCallsPerStep: z.number().optional() }),
    /** The tool section of the system prompt as this run's protocol wrote it (absent without tools, and in older logs). */
    toolSection: z.string().optional(),
    /** Set on a re-run of a step (a branch) and on a run that continues one. */
    branch: branchSchema.optional(),
  }),
  z.object({
    ...eventBase,
    type: z.literal("step-start"),
    stepId: z.string(),
    index: z.number(),
    protocol: z.string(),
    messages: z.array(chatMessageSchema),
    templateMessages: z.array(templateMessageSchema),
    prompt: z.string(),
    template: z.string(),
    /** The settings sent to the engine (max tokens after fitting to the context window). */
    settings: generationSettingsSchema,
    /** How max tokens was fitted to the context window (absent in logs made before it was recorded). */
    budget: contextBudgetSchema.optional(),
    /** Where the run's tool section sits in this prompt (absent where the prompt does not hold it verbatim, and in older logs). */
    toolSectionAt: spanSchema.optional(),
    /** The template's control tokens, as the debugger draws them (absent in older logs). */
    controlTokens: z.array(z.string()).optional(),
    /** Native tool calling: the request body sent instead of a prompt (`prompt` is then ""). */
    request: z.record(z.string(), z.unknown()).optional(),
    /**
     * Native tool calling on a server that can say what it renders (llama.cpp's /apply-template,
     * asked with the very request body): the prompt text, or why it could not be had. Absent where
     * the server cannot say, and in older logs.
     */
    serverPrompt: z
      .union([
        z.object({
          text: z.string(),
          /** How many characters of the server's answer were left out past SERVER_PROMPT_CHARS (native/server-prompt.ts); absent when none were. */
          cutChars: z.number().int().positive().optional(),
        }),
        z.object({ error: z.string() }),
      ])
      .optional(),
    /** With "Constrain tool calls" on: the tool choice and the structural tag sent. */
    constraint: constraintSchema.optional(),
    /** Whether this step records its tokens' probabilities, and how many alternatives (absent in older logs). */
    probabilities: probabilityRecordingSchema.optional(),
    /**
     * The model's own chat template (Jinja source) where the engine had it, whether or not it wrote
     * this prompt: the debugger derives a call format from it to read the step with. Absent
     * elsewhere, past MODEL_CHAT_TEMPLATE_CHARS, and in older logs.
     */
    modelChatTemplate: z.string().max(MODEL_CHAT_TEMPLATE_CHARS).optional(),
  }),
  z.object({
    ...eventBase,
    type: z.literal("output-delta"),
    stepId: z.string(),
    text: z.string(),
    offset: offsetSchema,
    /** The delta's tokens with their probabilities, where the engine gave them (absent otherwise, and in older logs). */
    tokens: z.array(tokenProbabilitySchema).max(100_000).optional(),
  }),
  z.object({ ...eventBase, type: z.literal("parse"), stepId: z.string(), event: parseEventSchema }),
  z.object({ ...eventBase, type: z.literal("usage"), stepId: z.string(), usage: engineUsageSchema }),
  /** The engine's report of how far it has read the step's prompt (before the first token; absent where it does not report). */
  z.object({ ...eventBase, type: z.literal("prompt-progress"), stepId: z.string(), progress: promptProgressSchema }),
  z.object({ ...eventBase, type: z.literal("tool-start"), stepId: z.string(), call: toolCallSchema }),
  z.object({
    ...eventBase,
    type: z.literal("tool-end"),
    stepId: z.string(),
    callId: z.string(),
    name: z.string(),
    status: toolExecutionStatusSchema,
    /** The tool's return value (ok) — as returned, if JSON-serialisable. */
    result: z.unknown().optional(),
    /** The real error, for the debugger. */
    error: z.string().optional(),
    /** The text the model is given back. */
    content: z.string(),
    durationMs: z.number(),
    /** What the tool exchanged with the outside while it ran (e.g. MCP JSON-RPC), in order. */
    trace: z.array(toolTraceEntrySchema).optional(),
  }),
  z.object({ ...eventBase, type: z.literal("message"), message: chatMessageSchema }),
  z.object({
    ...eventBase,
    type: z.literal("step-end"),
    stepId: z.string(),
    status: stepStatusSchema,
    durationMs: z.number(),
    error: z.string().optional(),
    /** With status "cut-off": which limit cut the output, where known. */
    cutOff: cutOffLimitSchema.optional(),
    /** A step without a call: the probability of each opening marker at its decision point, measured after it ended (absent in older logs and where not asked). */
    openerProbe: openerProbeSchema.optional(),
  }),
  z.object({
    ...eventBase,
    type: z.literal("run-end"),
    status: runStatusSchema,
    error: z.string().optional(),
    messages: z.array(chatMessageSchema),
    /** A branch the person discarded: kept in the log, hidden from the timeline. */
    discarded: z.boolean().optional(),
  }),
]);

/** A problem the schema cannot see alone: it needs the events before it. `index` is the event's place in the log. */
export interface EventLogIssue {
  index: number;
  path: PropertyKey[];
  message: string;
}

/**
 * Checks what holds between events: an output delta starts inside or at the end of the text its
 * step has so far (the loop records each at the end). A delta placed past the end would leave
 * a gap the debugger would have to fill, and a file can claim any gap (an offset of 6e8 asked
 * a view for a 600-million-character string). `start` counts the events of earlier slices.
 */
export class EventLogChecker {
  private readonly outputLength = new Map<string, number>();

  check(events: readonly LoopEvent[], start = 0): EventLogIssue[] {
    const issues: EventLogIssue[] = [];
    for (const [position, event] of events.entries()) {
      if (event.type !== "output-delta") continue;
      const key = `${event.runId}\u241f${event.stepId}`;
      const length = this.outputLength.get(key) ?? 0;
      if (event.offset > length) {
        issues.push({ index: start + position, path: ["offset"], message: `${event.offset} is past the end of its step's output so far (${length} characters)` });
        continue;
      }
      this.outputLength.set(key, Math.max(length, event.offset + event.text.length));
    }
    return issues;
  }
}

type LoopEvent = z.infer<typeof loopEventSchema>;
