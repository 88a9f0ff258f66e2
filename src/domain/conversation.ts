// A conversation as the lab keeps it: its settings and its event log. The log is the single
// source of truth; messages, tool-call cards and step lists are derived from it.
import { z } from "zod";
import { toolChoiceSchema } from "toolcall-middleware/event-log-schema.ts";
import { DEFAULT_MAX_CALLS_PER_STEP } from "toolcall-middleware/loop/loop-defaults.ts";
import type { LoopEvent, ToolChoiceSetting } from "toolcall-middleware/types.ts";
import { DEFAULT_RESEARCH_TIMEOUT_MS, DELIVERABLE_FORMATS, type DeliverableFormat } from "../tools/index.ts";

export type { DeliverableFormat };
/** The highest "max calls per step" the Settings panel allows. */
export const MAX_CALLS_PER_STEP_SETTING = 256;
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
 * existed) means the model family's default (see packages/toolcall-middleware/src/families/). Every step sends and
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
  /** Tool calls run per step; the calls of one reply past it get an error result instead. */
  maxCallsPerStep: number;
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
  maxCallsPerStep: DEFAULT_MAX_CALLS_PER_STEP,
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

// Settings come back from IndexedDB and from imported files, so each field is checked on its own
// (type and the range the Settings panel allows): one bad field falls back to its default and is
// named in a notice; the others are kept.
const settingFields = {
  maxSteps: z.number().int().min(1).max(50),
  toolTimeoutMs: z.number().min(1_000).max(600_000),
  maxCallsPerStep: z.number().int().min(1).max(MAX_CALLS_PER_STEP_SETTING),
  temperature: z.number().min(0).max(2).nullable(),
  maxTokens: z.number().int().min(16).max(32_768).nullable(),
  topP: z.number().min(0.05).max(1).nullable(),
  repetitionPenalty: z.number().min(0.5).max(2).nullable(),
  presencePenalty: z.number().min(-2).max(2).nullable(),
  frequencyPenalty: z.number().min(-2).max(2).nullable(),
  seed: z.number().int().min(0).max(2 ** 32 - 1).nullable(),
  systemPrompt: z.string(),
  disabledTools: z.array(z.string()),
  constrainToolCalls: z.boolean().optional(),
  toolChoice: toolChoiceSchema.optional(),
} satisfies { [K in Exclude<keyof ConversationSettings, "research">]: z.ZodType<ConversationSettings[K]> };

const researchFields = {
  systemPrompt: z.string(),
  fallbackFormat: z.enum(DELIVERABLE_FORMATS as [DeliverableFormat, ...DeliverableFormat[]]),
  timeoutMs: z.number().min(5_000).max(3_600_000),
} satisfies { [K in keyof ResearchSettings]: z.ZodType<ResearchSettings[K]> };

/** The whole settings object, strict, for code that wants a plain yes or no. */
export const conversationSettingsSchema = z.object({ ...settingFields, research: z.object(researchFields) });

/** A field that was not usable and what was put in its place. */
export interface SettingProblem {
  /** The field's path, e.g. "maxSteps" or "research.timeoutMs". */
  field: string;
  message: string;
}

function describeValue(value: unknown): string {
  if (value === undefined) return "missing";
  const json = (() => {
    try {
      return JSON.stringify(value);
    } catch {
      return undefined;
    }
  })();
  const shown = json ?? String(value);
  return shown.length > 40 ? `${shown.slice(0, 40)}…` : shown;
}

function readFields<T extends object>(
  raw: Record<string, unknown>,
  fields: { [K in keyof T]: z.ZodType<T[K]> },
  defaults: T,
  prefix: string,
  problems: SettingProblem[],
): T {
  const out = { ...defaults };
  for (const key of Object.keys(fields) as (keyof T & string)[]) {
    if (!(key in raw)) continue; // a setting added after the record was saved takes its default quietly
    const result = fields[key].safeParse(raw[key]);
    if (result.success) out[key] = result.data;
    else problems.push({ field: prefix + key, message: `${describeValue(raw[key])} is not valid (${result.error.issues[0]?.message ?? "wrong type"}); using ${describeValue(defaults[key])}` });
  }
  return out;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads settings from storage or a file field by field: each usable field is kept, each
 * unusable one falls back to its default and is reported. Fields it does not know are dropped.
 */
export function readSettings(raw: unknown): { settings: ConversationSettings; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  if (raw === undefined) return { settings: structuredClone(defaultSettings), problems };
  if (!isRecord(raw)) {
    problems.push({ field: "settings", message: `${describeValue(raw)} is not a settings object; using the defaults` });
    return { settings: structuredClone(defaultSettings), problems };
  }
  const { research: _research, ...defaultsWithoutResearch } = defaultSettings;
  const top = readFields(raw, settingFields, defaultsWithoutResearch, "", problems);
  let research = { ...defaultSettings.research };
  if ("research" in raw) {
    if (isRecord(raw.research)) research = readFields(raw.research, researchFields, defaultSettings.research, "research.", problems);
    else problems.push({ field: "research", message: `${describeValue(raw.research)} is not a settings object; using the defaults` });
  }
  return { settings: { ...top, disabledTools: [...top.disabledTools], research }, problems };
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
