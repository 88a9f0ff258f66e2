// A conversation as the lab keeps it: its settings and its event log. The log is the single
// source of truth; messages, tool-call cards and step lists are derived from it.
import type { LoopEvent } from "../middleware/types.ts";
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

export interface ConversationSettings {
  maxSteps: number;
  toolTimeoutMs: number;
  temperature: number;
  maxTokens: number;
  /** "" means the loop's default system prompt. */
  systemPrompt: string;
  /** Tools switched off in this conversation (new tools are on by default). */
  disabledTools: string[];
  research: ResearchSettings;
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
  temperature: 0.6,
  maxTokens: 1024,
  systemPrompt: "",
  disabledTools: [],
  research: {
    systemPrompt: "You are a careful researcher. Break the question down, use the tools to check facts, and answer concisely in the user's language.",
    fallbackFormat: "markdown_brief",
    timeoutMs: DEFAULT_RESEARCH_TIMEOUT_MS,
  },
};

export function newConversationId(): string {
  return `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export function createConversation(now = Date.now(), settings: ConversationSettings = defaultSettings): Conversation {
  return {
    id: newConversationId(),
    title: "New conversation",
    createdAt: now,
    updatedAt: now,
    settings: structuredClone(settings),
    events: [],
  };
}

export function metaOf(conversation: Conversation): ConversationMeta {
  const { events: _events, ...meta } = conversation;
  return meta;
}
