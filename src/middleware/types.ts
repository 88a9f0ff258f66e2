// The shared vocabulary of the middleware: messages, tools, calls, parse events, engines.
// Everything here is plain data (JSON-serialisable) so that an event log can be stored,
// exported and replayed.

/** A JSON Schema object as tools describe their parameters. */
export type JsonSchema = { [key: string]: unknown };

/** A tool as the model is told about it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

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
}

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
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** The conversation as the application keeps it (protocol-independent). */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; reasoning?: string; toolCalls?: ToolCall[]; protocol?: string }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError?: boolean };

/**
 * A message as a chat template sees it: roles and plain text only. Protocols turn the
 * conversation (with its tool calls and results) into these.
 */
export interface TemplateMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
}

/** A model's chat template: turns template messages into the exact prompt text. */
export interface ChatTemplate {
  name: string;
  render: (messages: TemplateMessage[], options: { addGenerationPrompt: boolean }) => string;
  /** Strings that end a turn; generation stops at them. */
  stop: string[];
  /** Control tokens of this template, for display (the debugger draws them as chips). */
  controlTokens: string[];
}

/** A half-open range [start, end) of character offsets into a step's raw output. */
export interface Span {
  start: number;
  end: number;
}

/** What the streaming parser makes of the raw output, in order. */
export type ParseEvent =
  | { type: "text"; text: string; span: Span }
  | { type: "reasoning"; text: string; span: Span }
  | { type: "tool-call-start"; id: string; name: string; span: Span }
  | { type: "tool-call-delta"; id: string; argumentsDelta: string; span: Span }
  | { type: "tool-call-end"; id: string; call: ToolCall; span: Span }
  | { type: "repair"; id?: string; kind: string; message: string; before: string; after: string; span: Span }
  | { type: "parse-error"; id?: string; kind: ParseErrorKind; message: string; raw: string; span: Span };

export type ParseErrorKind =
  | "invalid-json"
  | "unknown-tool"
  | "invalid-arguments"
  | "unfinished-tool-call"
  | "missing-tool-name"
  | "unknown-protocol"
  | (string & {});

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
  /** The texts that delimit this protocol's calls and results: no tool result may forge them. */
  markers?: readonly string[];
  /** A fresh streaming parser for one model output. */
  createParser: (tools: ToolSpec[]) => StreamParser;
  /** The XGrammar structural tag that constrains decoding to this format's calls (WebLLM's response_format). */
  structuralTag?: (tools: ToolSpec[], choice: ToolChoice) => StructuralTag;
}

/** Whether the model may answer in text ("auto"), must call a tool ("required"), or must call this one. */
export type ToolChoice = "auto" | "required" | { name: string };

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
export interface GenerationSettings {
  maxTokens?: number;
  temperature?: number;
  /** Nucleus sampling; sent explicitly so a run can be reproduced. */
  topP?: number;
  /** Multiplies down the logits of tokens already seen (1 = off). */
  repetitionPenalty?: number;
  /** OpenAI-style additive penalties (0 = off). */
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** Sampling seed, where the engine honours one. */
  seed?: number;
  stop?: string[];
  /** An EBNF grammar to constrain output, where the engine supports it. */
  grammar?: string;
}

/** Usage and timing of one generation, as far as the engine knows them. */
export interface EngineUsage {
  promptTokens?: number;
  completionTokens?: number;
  timeToFirstTokenMs?: number;
  decodeTokensPerSecond?: number;
  prefillTokensPerSecond?: number;
  finishReason?: "stop" | "length" | "abort" | (string & {});
  /** With finishReason "length": what ran out — the max_tokens budget or the context window. */
  cutOff?: "max-tokens" | "context-window";
}

export type EngineChunk = { type: "text"; text: string } | { type: "usage"; usage: EngineUsage };

/**
 * A model runtime. It takes the fully rendered prompt (special tokens included) and streams raw
 * text. When `signal` aborts, the stream ends promptly (it may end normally or throw an
 * AbortError). Other failures are thrown from the iterator.
 */
export interface Engine {
  readonly name: string;
  generate: (prompt: string, settings: GenerationSettings, signal: AbortSignal) => AsyncIterable<EngineChunk>;
  /** The model's context window in tokens (prompt + output), where the engine knows it. */
  readonly contextWindowSize?: number;
  /** Counts a rendered prompt's tokens with the model's own tokenizer, where the engine has one. */
  countPromptTokens?: (prompt: string, signal?: AbortSignal) => Promise<number>;
}

/** How a loop step ended. */
export type StepStatus = "final" | "tool-calls" | "parse-error" | "aborted" | "max-steps" | "engine-error" | "cut-off";

/** How a whole run ended. */
export type RunStatus = "final" | "max-steps" | "aborted" | "engine-error" | "cut-off";

export type ToolExecutionStatus = "ok" | "error" | "timeout" | "aborted" | "invalid-arguments" | "unknown-tool";

/**
 * The event log of a run: the single source of truth for chat, debugger, persistence, export.
 * `runId` names the run; nested runs (a sub-agent) carry `parent` = the step and call they
 * run under.
 */
export type LoopEvent = (
  | { type: "run-start"; protocol: string; messages: ChatMessage[]; tools: ToolSpec[]; limits: { maxSteps: number; toolTimeoutMs: number } }
  | {
      type: "step-start";
      stepId: string;
      index: number;
      protocol: string;
      messages: ChatMessage[];
      templateMessages: TemplateMessage[];
      prompt: string;
      template: string;
      settings: GenerationSettings;
    }
  | { type: "output-delta"; stepId: string; text: string; offset: number }
  | { type: "parse"; stepId: string; event: ParseEvent }
  | { type: "usage"; stepId: string; usage: EngineUsage }
  | { type: "tool-start"; stepId: string; call: ToolCall }
  | {
      type: "tool-end";
      stepId: string;
      callId: string;
      name: string;
      status: ToolExecutionStatus;
      /** The tool's return value (ok) — as returned, if JSON-serialisable. */
      result?: unknown;
      /** The real error, for the debugger. */
      error?: string;
      /** The text the model is given back. */
      content: string;
      durationMs: number;
    }
  | { type: "message"; message: ChatMessage }
  | { type: "step-end"; stepId: string; status: StepStatus; durationMs: number; error?: string }
  | { type: "run-end"; status: RunStatus; error?: string; messages: ChatMessage[] }
) & {
  runId: string;
  /** Milliseconds since the epoch. */
  at: number;
  parent?: { runId: string; stepId: string; callId: string };
};

export type LoopEventType = LoopEvent["type"];
