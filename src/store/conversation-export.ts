// A conversation as a file: the event log with its title and settings, to inspect later or
// elsewhere; and a replay transcript made from a log (each step's raw output, in order), so a
// run seen once can be played again without a model.
import { z } from "zod";
import type { LoopEvent } from "../middleware/types.ts";
import { defaultSettings, newConversationId, type Conversation, type ConversationSettings } from "./conversation.ts";
import { createYieldPoint } from "./yield-to-page.ts";

export const EXPORT_FORMAT = "toolcall-lab/conversation";


const span = z.object({ start: z.number(), end: z.number() });
const message = z.looseObject({ role: z.enum(["system", "user", "assistant", "tool"]), content: z.string() });
const base = { runId: z.string().min(1), at: z.number(), parent: z.object({ runId: z.string(), stepId: z.string(), callId: z.string() }).optional() };

// Each event type's fields that the views rely on; anything else is kept as it is.
const eventSchema = z.discriminatedUnion("type", [
  z.looseObject({ ...base, type: z.literal("run-start"), protocol: z.string(), messages: z.array(message), tools: z.array(z.looseObject({ name: z.string() })) }),
  z.looseObject({ ...base, type: z.literal("step-start"), stepId: z.string(), index: z.number(), protocol: z.string(), prompt: z.string(), messages: z.array(message) }),
  z.looseObject({ ...base, type: z.literal("output-delta"), stepId: z.string(), text: z.string(), offset: z.number() }),
  z.looseObject({ ...base, type: z.literal("parse"), stepId: z.string(), event: z.looseObject({ type: z.string(), span }) }),
  z.looseObject({ ...base, type: z.literal("usage"), stepId: z.string(), usage: z.looseObject({}) }),
  z.looseObject({ ...base, type: z.literal("tool-start"), stepId: z.string(), call: z.looseObject({ id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) }) }),
  z.looseObject({
    ...base,
    type: z.literal("tool-end"),
    stepId: z.string(),
    callId: z.string(),
    name: z.string(),
    status: z.string(),
    content: z.string(),
    durationMs: z.number(),
    trace: z.array(z.looseObject({ direction: z.enum(["sent", "received"]), at: z.number(), label: z.string().optional() })).optional(),
  }),
  z.looseObject({ ...base, type: z.literal("message"), message }),
  z.looseObject({ ...base, type: z.literal("step-end"), stepId: z.string(), status: z.string(), durationMs: z.number() }),
  z.looseObject({ ...base, type: z.literal("run-end"), status: z.string(), messages: z.array(message) }),
]);

// The file's fields; its events are checked apart, a slice at a time (see importConversation).
const exportSchema = z.object({
  format: z.literal(EXPORT_FORMAT, { error: `format must be "${EXPORT_FORMAT}"` }),
  version: z.literal(1),
  title: z.string(),
  createdAt: z.number().optional(),
  settings: z.looseObject({}).optional(),
  events: z.array(z.unknown()),
});
const eventsSchema = z.array(eventSchema);
/** Events checked in one go: a few milliseconds' work, after which the page gets a turn. */
const EVENTS_PER_SLICE = 250;

export interface ConversationFile {
  format: typeof EXPORT_FORMAT;
  version: 1;
  title: string;
  createdAt: number;
  exportedAt: number;
  settings: ConversationSettings;
  events: LoopEvent[];
}

export function exportConversation(conversation: Conversation, now = Date.now()): ConversationFile {
  return {
    format: EXPORT_FORMAT,
    version: 1,
    title: conversation.title,
    createdAt: conversation.createdAt,
    exportedAt: now,
    settings: conversation.settings,
    events: conversation.events,
  };
}

export class ImportError extends Error {
  override name = "ImportError";
}

/**
 * Reads an exported file back as a new conversation; a bad file gets a message naming what is
 * wrong. The events of a large file are checked in slices with `pause()` between them (by
 * default, a turn for the page whenever 10 ms of work have passed).
 */
export async function importConversation(text: string, now = Date.now(), pause: () => Promise<void> = createYieldPoint()): Promise<Conversation> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ImportError(`This file is not JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  const result = exportSchema.safeParse(json);
  const issues: { path: PropertyKey[]; message: string }[] = result.success ? [] : [...result.error.issues];
  const events = result.success ? result.data.events : [];
  for (let at = 0; at < events.length; at += EVENTS_PER_SLICE) {
    await pause();
    const slice = eventsSchema.safeParse(events.slice(at, at + EVENTS_PER_SLICE));
    if (slice.success) continue;
    for (const issue of slice.error.issues) issues.push({ ...issue, path: ["events", at + (issue.path[0] as number), ...issue.path.slice(1)] });
  }
  if (!result.success || issues.length > 0) {
    const problems = issues.slice(0, 5).map((issue) => {
      const where = issue.path.length ? issue.path.map(String).join(".") : "(top level)";
      return `${where}: ${issue.message}`;
    });
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : "";
    throw new ImportError(`This is not a Toolcall Lab conversation export — ${problems.join("; ")}${more}. Expected a file saved with "Export JSON".`);
  }
  const file = result.data;
  const settings = { ...defaultSettings, ...(file.settings as Partial<ConversationSettings> | undefined) };
  return {
    id: newConversationId(),
    title: `${file.title} (imported)`,
    createdAt: file.createdAt ?? now,
    updatedAt: now,
    settings: { ...settings, research: { ...defaultSettings.research, ...settings.research } },
    events: file.events as LoopEvent[],
  };
}

export interface TranscriptFile {
  title: string;
  protocol?: string;
  description: string;
  turns: string[];
  /** Token counts of each turn, where the run had them. */
  usage?: ({ promptTokens?: number; completionTokens?: number } | null)[];
}

/**
 * A replay transcript of a log: the raw output of every step (sub-agent steps included), in the
 * order the steps started — the order in which a replay engine hands out turns.
 * `runId` limits it to one top-level run and the runs nested under it.
 */
export function transcriptFromEvents(events: readonly LoopEvent[], title: string, runId?: string): TranscriptFile {
  const belongs = new Set<string>(runId ? [runId] : []);
  const stepOrder: string[] = [];
  const outputs = new Map<string, string>();
  const counts = new Map<string, { promptTokens?: number; completionTokens?: number }>();
  let protocol: string | undefined;
  for (const event of events) {
    if (runId) {
      if (event.runId !== runId && !(event.parent && belongs.has(event.parent.runId))) continue;
      belongs.add(event.runId);
    }
    if (event.type === "step-start") {
      stepOrder.push(event.stepId);
      outputs.set(event.stepId, "");
      if (!event.parent) protocol ??= event.protocol;
    } else if (event.type === "output-delta") {
      outputs.set(event.stepId, (outputs.get(event.stepId) ?? "") + event.text);
    } else if (event.type === "usage") {
      const { promptTokens, completionTokens } = event.usage;
      if (promptTokens !== undefined || completionTokens !== undefined) counts.set(event.stepId, { promptTokens, completionTokens });
    }
  }
  // A step that produced nothing (the engine failed before its first token) is not a turn.
  const played = stepOrder.filter((id) => (outputs.get(id) ?? "") !== "");
  const turns = played.map((id) => outputs.get(id) ?? "");
  const transcript: TranscriptFile = {
    title,
    description: `Made from a Toolcall Lab run: ${turns.length} model output${turns.length === 1 ? "" : "s"}.`,
    turns,
  };
  if (protocol) transcript.protocol = protocol;
  if (played.some((id) => counts.has(id))) transcript.usage = played.map((id) => counts.get(id) ?? null);
  return transcript;
}
