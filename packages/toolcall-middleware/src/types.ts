// The shared vocabulary of the middleware: messages, tools, calls, parse events, engines.
// Everything here is plain data (JSON-serialisable) so that an event log can be stored,
// exported and replayed. What goes into the event log is defined once, as a zod schema
// (event-log-schema.ts); those types are inferred from it here.
import type { z } from "zod";
import type * as schema from "./event-log-schema.ts";

/** A JSON Schema object as tools describe their parameters. */
export type JsonSchema = z.infer<typeof schema.jsonSchemaSchema>;

/** A tool as the model is told about it. */
export type ToolSpec = z.infer<typeof schema.toolSpecSchema>;

/** What a running tool may use: its cancellation signal and a way to report nested work. */
export interface ToolContext {
  signal: AbortSignal;
  /** The id of the call being executed. */
  callId: string;
  /** The id of the loop step that made the call (nested runs hang under it). */
  stepId: string;
  /** Forwards events of nested work (a sub-agent's loop) into the calling run's event log. */
  emit: (event: LoopEvent) => void;
  /** The engine, protocol and template of the calling run, for tools that run a sub-agent. */
  run: SubRunContext;
  /**
   * Records a message the tool exchanged with something outside the page (an MCP server's
   * JSON-RPC request and response); the entries land on the call's tool-end event.
   */
  trace?: (entry: ToolTraceEntry) => void;
}

/** One message a tool sent or received while it ran, as the debugger shows it. */
export type ToolTraceEntry = z.infer<typeof schema.toolTraceEntrySchema>;

export interface SubRunContext {
  engine: Engine;
  protocol: string;
  template: ChatTemplate;
  generation: GenerationSettings;
  /** Depth of nesting: 0 for the top-level run. */
  depth: number;
  /** The tools of the calling run (a sub-agent picks from these). */
  tools: ExecutableTool[];
}

/** A tool the loop can run. */
export interface ExecutableTool extends ToolSpec {
  execute: (args: Record<string, unknown>, context: ToolContext) => Promise<unknown>;
  /** Per-tool timeout in ms, overriding the loop's default (e.g. a long research task). */
  timeoutMs?: number;
  /** The message the model sees when the tool fails; the event log keeps the real error. */
  safeErrorMessage?: string;
}

/** One tool call the model made, after parsing, repair and coercion. */
export type ToolCall = z.infer<typeof schema.toolCallSchema>;

/** The conversation as the application keeps it (protocol-independent). */
export type ChatMessage = z.infer<typeof schema.chatMessageSchema>;

export type MessageSource = z.infer<typeof schema.messageSourceSchema>;

/**
 * A message as a chat template sees it: roles and plain text only. Protocols turn the
 * conversation (with its tool calls and results) into these.
 */
export type TemplateMessage = z.infer<typeof schema.templateMessageSchema>;

/** A model's chat template: turns template messages into the exact prompt text. */
export interface ChatTemplate {
  name: string;
  render: (messages: TemplateMessage[], options: { addGenerationPrompt: boolean }) => string;
  /** Strings that end a turn; generation stops at them. */
  stop: string[];
  /** Control tokens of this template, for display (the debugger draws them as chips). */
  controlTokens: string[];
  /**
   * The same prompt as chat turns, where an engine's chat path renders this template exactly
   * (undefined where it cannot, e.g. the last turn is not the user's).
   */
  /**
   * The generation prompt ends inside a reasoning block this tag opened (Qwen3.5 with thinking on
   * writes "<think>\n"): the model's output starts in reasoning, without the tag.
   */
  opensReasoning?: string;
  chatTurns?: (messages: TemplateMessage[]) => ChatTurns | undefined;
  /** How this family's own template writes the protocol it was trained on, where that differs from the protocol's generic text. */
  toolFraming?: ToolFraming;
  /**
   * The model's own chat template as its file carries it (Jinja source), where the engine has it
   * (a GGUF's embedded template): each step records it, so that the step can be read again by the
   * call format derived from it. For a family the lab writes, this is not what renders the prompt.
   */
  modelChatTemplate?: string;
}

/**
 * A family's own writing of its trained protocol (its official chat template's, byte for byte):
 * where the tool list goes and in which words, how calls and results are written back. Only the
 * text changes; the protocol's parser still reads the model's calls. Used when the conversation's
 * protocol is `protocol`; any other protocol keeps its own wording inside the family's framing.
 */
export interface ToolFraming {
  /** The protocol (registry name) this is the family's writing of. */
  protocol: string;
  /** The tool section in the template's words (default: the protocol's). */
  toolSection?: (tools: ToolSpec[]) => string;
  /** The system text the template writes with the tool section when the conversation has none (Qwen2.5's "You are Qwen, …"). */
  defaultSystem?: string;
  /**
   * "system": after the system text (the default); "system-start": before it (Qwen3.5);
   * "first-user": before the first user message's text (Llama 3.1); "last-user": as the `header`
   * of the last user message, which the template writes before that turn (Mistral's
   * [AVAILABLE_TOOLS] before the last [INST]); "before-first-user": as the `header` of the first
   * user message (Ministral 3's [AVAILABLE_TOOLS] before the first [INST]).
   */
  placement?: "system" | "system-start" | "first-user" | "last-user" | "before-first-user";
  /** The role of a result's turn, where the template's differs from the protocol's. */
  toolResultRole?: "user" | "tool";
  /**
   * What joins the system text and the tool section (default a blank line; Phi-4-mini's and
   * Gemma 4's templates write none, LFM2's a newline; Hermes's closes the tool section's system
   * turn and opens another for the system text).
   */
  systemJoin?: string;
  /** Written first in the system turn when tools are offered (Llama 3.1's "Environment: ipython\n"). */
  systemHeader?: string;
  /** An assistant turn as the template writes it (default: the protocol's). */
  renderAssistant?: Protocol["renderAssistant"];
  /** A tool result as the template writes it (default: the protocol's). */
  renderToolResult?: Protocol["renderToolResult"];
  /**
   * Where the template writes the results of one assistant turn in one turn of `toolResultRole`
   * (Hermes's single `tool` turn of <tool_response> blocks): what joins them. Without it a tool
   * role gives each result a turn of its own.
   */
  joinToolResults?: (rendered: string[]) => string;
}

/** A half-open range [start, end) of character offsets into a step's raw output. */
export type Span = z.infer<typeof schema.spanSchema>;

/** What the streaming parser makes of the raw output, in order. */
export type ParseEvent = z.infer<typeof schema.parseEventSchema>;

export type ParseErrorKind = (typeof schema.KNOWN_PARSE_ERROR_KINDS)[number] | (string & {});

/** A streaming parser: feed chunks, then end. Each call returns the events it decided. */
export interface StreamParser {
  push: (chunk: string) => ParseEvent[];
  end: () => ParseEvent[];
}

/** One way of teaching a model to call tools in plain text, and of reading its calls back. */
export interface Protocol {
  /** Registry name: "hermes", "xml", "qwen3-coder", "llama3-json", … */
  name: string;
  /** Human label for the UI. */
  label: string;
  /** The tool section of the system prompt, for these tools. */
  systemPrompt: (tools: ToolSpec[]) => string;
  /** How an assistant turn that made calls is written back into the history. */
  renderAssistant: (message: Extract<ChatMessage, { role: "assistant" }>) => string;
  /**
   * How a tool result is written back. `escape` makes text inert in the prompt (no control token
   * of the template, no marker of any protocol); without it the protocol escapes on its own.
   */
  renderToolResult: (message: Extract<ChatMessage, { role: "tool" }>, escape?: (text: string) => string) => string;
  /**
   * The role of the turn that carries tool results: "tool" for a format trained on a tool turn
   * (Llama 3's `ipython`; a template without a tool role makes it a user turn), else "user"
   * (the default). Results of one assistant turn share one user turn; each has its own tool turn.
   */
  toolResultRole?: "user" | "tool";
  /** Joins the rendered results of one assistant turn into their shared user turn (default: one a line). */
  joinToolResults?: (rendered: string[]) => string;
  /**
   * The texts that delimit this protocol's calls, results and turns: no tool result and no
   * written-back value may forge them, whatever protocol reads the prompt. (Not the scanner's
   * CallSyntax.markers, which say how a call opens and closes.)
   */
  reservedMarkers?: readonly string[];
  /** A fresh streaming parser for one model output. */
  createParser: (tools: ToolSpec[]) => StreamParser;
  /** The XGrammar structural tag that constrains decoding to this format's calls (WebLLM's response_format). */
  structuralTag?: (tools: ToolSpec[], choice: ToolChoice) => StructuralTag;
}

/**
 * What the shared tests and the benchmark need of a protocol beside its definition: its
 * `protocols/<name>/samples.ts` exports one as `samples`.
 */
export interface ProtocolSamples {
  /** The protocol's call marker around a body that is not a call: one parse error, no text. */
  notACall: string;
  /** Values that try to close their call and write a `run_javascript` call in this format. */
  forgeries: readonly string[];
  /** Outputs that make a parser work hard (deep nesting, long repetition of this format's markers); `n` is the depth or the number of repetitions. */
  hostileShapes: (n: number) => Record<string, string>;
  /** One call as a model writes it in this format, with what ends it so that prose can follow (the benchmark's outputs). */
  benchOutput: (call: ToolCall) => string;
  /**
   * One call as the protocol's own prompt asks the model to write it, where that differs from
   * what the history writes (`benchOutput`): pythonic's bare `[f(a=1)]`, Llama 3's JSON without
   * <|python_tag|>, xLAM's array. Read as written: no repair (the eval's strict scoring checks it).
   */
  promptedOutput?: (call: ToolCall) => string;
  /** Tags the parser consumes without an event (reasoning and framing tags other than <think></think>), for the fuzz test's accounting. */
  consumedTags?: readonly string[];
}

/** Whether the model may answer in text ("auto"), must call a tool ("required"), or must call this one. */
export type ToolChoice = "auto" | "required" | { name: string };

/** The "Constrain tool calls" setting's choice: a protocol's choices, or "none" (no call can be written). */
export type ToolChoiceSetting = z.infer<typeof schema.toolChoiceSchema>;

/** A step's constraint as recorded in its step-start. */
export type StepConstraint = z.infer<typeof schema.constraintSchema>;

/**
 * A structural tag as @mlc-ai/web-xgrammar 0.1.27 takes it (WebLLM's
 * `response_format: {type: "structural_tag", structural_tag}`): text is free outside the
 * triggered tags; inside one, the content must match its format.
 */
export interface StructuralTag {
  type: "structural_tag";
  format: StructuralTagFormat;
}

export type StructuralTagFormat =
  | { type: "any_text" }
  | { type: "const_string"; value: string }
  | { type: "json_schema"; json_schema: JsonSchema | boolean }
  | { type: "qwen_xml_parameter"; json_schema: JsonSchema | boolean }
  | { type: "regex"; pattern: string }
  | { type: "grammar"; grammar: string }
  | { type: "sequence"; elements: StructuralTagFormat[] }
  | { type: "or"; elements: StructuralTagFormat[] }
  | StructuralTagItem
  | { type: "triggered_tags"; triggers: string[]; tags: StructuralTagItem[]; at_least_one?: boolean; stop_after_first?: boolean }
  | { type: "tags_with_separator"; tags: StructuralTagItem[]; separator: string; at_least_one?: boolean; stop_after_first?: boolean };

export interface StructuralTagItem {
  type: "tag";
  begin: string;
  content: StructuralTagFormat;
  end: string;
}

/** Generation settings an engine honours. */
export type GenerationSettings = z.infer<typeof schema.generationSettingsSchema>;

/** The limit that cut a generation short: its max_tokens budget or the model's context window. */
export type CutOffLimit = z.infer<typeof schema.cutOffLimitSchema>;

/** Usage and timing of one generation, as far as the engine knows them. */
export type EngineUsage = z.infer<typeof schema.engineUsageSchema>;

/** A generated token with its probability and its most likely alternatives, as recorded. */
export type TokenProbability = z.infer<typeof schema.tokenProbabilitySchema>;
export type TokenAlternative = z.infer<typeof schema.tokenAlternativeSchema>;
/** What a step asked for its tokens' probabilities, and whether the engine could give them. */
export type ProbabilityRecording = z.infer<typeof schema.probabilityRecordingSchema>;

/** How far the engine has read a step's prompt (see promptProgressSchema). */
export type PromptProgress = z.infer<typeof schema.promptProgressSchema>;

export type EngineChunk =
  /** Before the first token: how far the prompt is read, where the engine reports it (llama.cpp). */
  | { type: "prompt-progress"; progress: PromptProgress }
  /** Text the model generated; `tokens` are its tokens with their probabilities where the engine gives them (asked for with `GenerationRequest.topProbabilities`). */
  | { type: "text"; text: string; tokens?: TokenProbability[] }
  | { type: "usage"; usage: EngineUsage }
  /** Native tool calling only: reasoning the server's parser took out of the text (vLLM's reasoning_content). */
  | { type: "reasoning"; text: string }
  /** Native tool calling only: a piece of the server's structured call number `index`. */
  | { type: "tool-call-delta"; index: number; id?: string; name?: string; argumentsDelta: string };

/** What native tool calling sends instead of a prompt: the conversation and the tools. */
export interface NativeChatInput {
  systemPrompt?: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
}

/**
 * Tool calling done by the server (OpenAI-compatible `tools`): its own template writes the
 * prompt and its own parser reads the calls. The request body is built first so the event log
 * records exactly what was sent; no prompt text exists on our side.
 */
export interface NativeToolCalling {
  /** The request body exactly as it will be sent. */
  request: (input: NativeChatInput, settings: GenerationSettings) => Record<string, unknown>;
  /** Streams the answer to a body made by `request`: text, call deltas, usage. */
  generate: (request: Record<string, unknown>, signal: AbortSignal) => AsyncIterable<EngineChunk>;
  /**
   * The prompt the server renders from a body made by `request`, where the server can say so
   * (llama.cpp's /apply-template): then the step records the text the model read, and whether the
   * server's template kept the tools in it.
   */
  renderPrompt?: (request: Record<string, unknown>, signal: AbortSignal) => Promise<string>;
}

/**
 * The prompt as a chat: the turns a template renders into it, each exactly as the template
 * writes it, for an engine whose chat path renders them itself (and keeps its KV cache when a
 * request extends the conversation it saw). Rendered by `ChatTemplate.chatTurns`, so the prompt
 * the engine builds from them is the prompt string it is given beside them.
 */
export interface ChatTurns {
  /** The system turn's text (the template's own when absent). */
  system?: string;
  turns: Array<{ role: "user" | "assistant" | "tool"; content: string }>;
  /** Qwen3's thinking switch as the prompt was rendered with it. */
  enableThinking?: boolean;
  /** What the template writes after an assistant turn (WebLLM's cache keeps the turn without it). */
  turnEnd: string;
  /** The role string of a user turn (its separator follows). */
  userRole: string;
}

/** What an engine may use beyond the prompt string; an engine that cannot says so in its usage. */
export interface GenerationRequest {
  chat?: ChatTurns;
  /** The template's own stop strings (single control tokens): only these may end a reply whose cache is continued. */
  controlStops?: string[];
  /** Constrains the output to this structural tag (XGrammar), where the engine can. */
  structuralTag?: StructuralTag;
  /** Report each generated token's probability and this many alternatives (where `Engine.tokenProbabilities` says it can). */
  topProbabilities?: number;
  /** Token ids the engine must not generate (llama.cpp's logit_bias false), where `Engine.bansTokens` says it can. */
  bannedTokenIds?: number[];
}

/** What an opener probe measured (`Engine.probeText`). */
export type OpenerProbe = z.infer<typeof schema.openerProbeSchema>;

/** The probability that a text comes next, along the tokens the engine wrote it with. */
export interface TextProbe {
  text: string;
  /** The product of the tokens' probabilities. */
  p: number;
  tokens: Array<{ text: string; p: number; id?: number }>;
  /** The probe's prompt tokens as the engine read them: prefilled now, and reused from its prompt cache (where it reports them). */
  read?: { prefilledTokens: number; reusedTokens: number };
}

/**
 * A model runtime. It takes the fully rendered prompt (special tokens included) and streams raw
 * text. When `signal` aborts, the stream ends promptly (it may end normally or throw an
 * AbortError). Other failures are thrown from the iterator.
 */
export interface Engine {
  readonly name: string;
  generate: (prompt: string, settings: GenerationSettings, signal: AbortSignal, request?: GenerationRequest) => AsyncIterable<EngineChunk>;
  /**
   * Whether the engine can constrain its output to a structural tag (and if not, why). With
   * `needsChatTurns` it can only when the prompt comes as chat turns too (WebLLM takes a grammar
   * on its chat path only); without, it constrains the raw prompt's continuation (llama.cpp's
   * grammar in a completion), which is what a forced branch's prompt (the original plus a kept
   * prefix) needs.
   */
  readonly constrains?: { supported: true; needsChatTurns?: true } | { supported: false; reason: string };
  /** Whether the engine reports its tokens' probabilities (and if not, why); absent: it cannot. */
  readonly tokenProbabilities?: { supported: true } | { supported: false; reason: string };
  /** The model's context window in tokens (prompt + output), where the engine knows it. */
  readonly contextWindowSize?: number;
  /** Counts a rendered prompt's tokens with the model's own tokenizer, where the engine has one. */
  countPromptTokens?: (prompt: string, signal?: AbortSignal) => Promise<number>;
  /** Set when the server makes the tool calls (native mode): the loop sends messages and tools. */
  readonly native?: NativeToolCalling;
  /**
   * Measures the probability that `text` comes next after `prompt`, where the engine can give it
   * exactly (llama.cpp: a grammar allowing only that text, whose recorded probabilities are the
   * model's own, taken before the grammar); absent where it cannot.
   */
  probeText?: (prompt: string, text: string, signal: AbortSignal) => Promise<TextProbe>;
  /** Whether `generate` honours `GenerationRequest.bannedTokenIds`. */
  readonly bansTokens?: boolean;
}

/**
 * How a step's max tokens were fitted to the model's context window (prompt + reply must fit),
 * as recorded in its step-start. "unknown" when the engine cannot say: nothing is estimated.
 */
export type ContextBudget = z.infer<typeof schema.contextBudgetSchema>;

/** How a loop step ended. */
export type StepStatus = z.infer<typeof schema.stepStatusSchema>;

/** How a whole run ended. */
export type RunStatus = z.infer<typeof schema.runStatusSchema>;

export type ToolExecutionStatus = z.infer<typeof schema.toolExecutionStatusSchema>;

/**
 * The event log of a run: the single source of truth for chat, debugger, persistence, export.
 * `runId` names the run; nested runs (a sub-agent) carry `parent` = the step and call they
 * run under. Its schema (event-log-schema.ts) is the one definition; this type is inferred.
 */
export type LoopEvent = z.infer<typeof schema.loopEventSchema>;

export type LoopEventType = LoopEvent["type"];

/** A re-run of a step (a branch), as its run-start records it. */
export type BranchRef = z.infer<typeof schema.branchSchema>;
