// A conversation as the lab keeps it: its settings and its event log. The log is the single
// source of truth; messages, tool-call cards and step lists are derived from it.
import type { LoopEvent, ToolChoiceSetting } from "../middleware/types.ts";
import { DEFAULT_RESEARCH_TIMEOUT_MS, DELIVERABLE_FORMATS, type DeliverableFormat } from "../tools/index.ts";

export type { DeliverableFormat };
export const deliverableFormats: readonly DeliverableFormat[] = DELIVERABLE_FORMATS;

export interface ResearchSettings {
  /** Persona, language and format for the sub-agent; applied only when deep_research runs. */
  systemPrompt: string;
  /** Used when the model does not pass deliverable_format itself. */
  fallbackFormat: DeliverableFormat;
  /** The whole research run's limit, separate from the ordinary tool timeout. */
  timeoutMs: number;
}

/**
 * Sampling as the person set it; null (or absent, in conversations saved before a field
 * existed) means the model family's default (see sampling-defaults.ts). Every step sends and
 * records the values it used.
 */
export interface SamplingSettings {
  temperature: number | null;
  /** Asked for; each step caps it so that prompt + reply fit the context window. */
  maxTokens: number | null;
  topP: number | null;
  repetitionPenalty: number | null;
  presencePenalty: number | null;
  frequencyPenalty: number | null;
  /** null: a new random seed each turn (still sent and recorded, so the turn can be replayed). */
  seed: number | null;
}

export interface ConversationSettings extends SamplingSettings {
  maxSteps: number;
  toolTimeoutMs: number;
  /** "" means the loop's default system prompt. */
  systemPrompt: string;
  /** Tools switched off in this conversation (new tools are on by default). */
  disabledTools: string[];
  research: ResearchSettings;
  /**
   * "Constrain tool calls": each step sends the protocol's structural tag, so a call can only be
   * a call to an offered tool with valid arguments (absent in conversations saved before: off).
   */
  constrainToolCalls?: boolean;
  /** With constrainToolCalls: text or calls, at least one call, one named tool, or no call. */
  toolChoice?: ToolChoiceSetting;
}

export interface ConversationMeta {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  settings: ConversationSettings;
  /** Which replay script this conversation plays and at which generation it took over. */
  replayOrigin?: { engine: string; generation: number };
}

export interface Conversation extends ConversationMeta {
  events: LoopEvent[];
}

export const defaultSettings: ConversationSettings = {
  maxSteps: 8,
  toolTimeoutMs: 15_000,
  temperature: null,
  maxTokens: null,
  topP: null,
  repetitionPenalty: null,
  presencePenalty: null,
  frequencyPenalty: null,
  seed: null,
  systemPrompt: "",
  disabledTools: [],
  constrainToolCalls: false,
  toolChoice: "auto",
  research: {
    systemPrompt: "You are a careful researcher. Break the question down, use the tools to check facts, and answer concisely in the user's language.",
    fallbackFormat: "markdown_brief",
    timeoutMs: DEFAULT_RESEARCH_TIMEOUT_MS,
  },
};

/**
 * Settings saved before sampling followed the model held the lab's old fixed values (1,024
 * max tokens, temperature 0.6), which cut a thinking model's reasoning short; a conversation
 * that still has exactly those and no sampling fields of its own follows the model from now.
 */
export function upgradeSettings<T extends Partial<ConversationSettings>>(settings: T): T {
  const legacy = !("topP" in settings) && settings.maxTokens === 1024 && settings.temperature === 0.6;
  return legacy ? { ...settings, maxTokens: null, temperature: null } : settings;
}

export function newConversationId(): string {
  return `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export function createConversation(now = Date.now(), settings: ConversationSettings = defaultSettings): Conversation {
  return {
    id: newConversationId(),
    title: "New conversation",
    createdAt: now,
    updatedAt: now,
    settings: structuredClone(upgradeSettings(settings)),
    events: [],
  };
}

export function metaOf(conversation: Conversation): ConversationMeta {
  const { events: _events, ...meta } = conversation;
  return meta;
}
