// A conversation as a file: the event log with its title and settings, to inspect later or
// elsewhere; and a replay transcript made from a log (each step's raw output, in order), so a
// run seen once can be played again without a model.
//
// A file of version 2 holds its events in the shared-text encoding (log-encoding/shared-text.ts):
// each long text once, repeats written as references to it, so a 1,000,000-character reply
// makes a file of about that size rather than five times it. Files of version 1 (events as
// they are) still import. Either way the events read are checked against the log's schema.
import { z } from "zod";
import { EventLogChecker, loopEventSchema } from "toolcall-middleware/event-log-schema.ts";
import { NATIVE_PROTOCOL } from "toolcall-middleware/loop/loop-defaults.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { STEP_OUTPUT_LIMITS } from "toolcall-middleware/loop/stream-step.ts";
import { boundRecordedServerPrompt } from "toolcall-middleware/native/server-prompt.ts";
import { parseJsonLenient } from "toolcall-middleware/repair/json-repair.ts";
import type { CutOffLimit, LoopEvent, ParseEvent, Protocol, ToolCall } from "toolcall-middleware/types.ts";
import { defaultSettings, newConversationId, upgradeSettings, type Conversation, type ConversationSettings } from "../domain/conversation.ts";
import { createYieldPoint } from "./yield-to-page.ts";
import { SharedTextCodec, encodeEventLog, type DecodeIssue } from "../log-encoding/shared-text.ts";

export const EXPORT_FORMAT = "toolcall-lab/conversation";


// The file's fields; its events are checked apart, a slice at a time (see importConversation).
const exportSchema = z.object({
  format: z.literal(EXPORT_FORMAT, { error: `format must be "${EXPORT_FORMAT}"` }),
  version: z.union([z.literal(1), z.literal(2)], { error: "version must be 1 or 2 (a newer Toolcall Lab may have written this file)" }),
  title: z.string(),
  createdAt: z.number().optional(),
  settings: z.looseObject({}).optional(),
  events: z.array(z.unknown()),
});
// Every event is checked against the log's one schema, the one its TypeScript type comes from.
const eventsSchema = z.array(loopEventSchema);
/** Events checked in one go: a few milliseconds' work, after which the page gets a turn. */
const EVENTS_PER_SLICE = 250;
/**
 * How many characters the references of one file may stand for in all (a 1,000,000-character
 * reply repeated in 50 steps' conversations is 10^8): past it a small file could make the page
 * hold, and views draw, a text many thousand times over.
 */
export const IMPORT_REFERENCED_CHARS = 2 ** 28;
/**
 * And at most this many times the file's own length: an export holds each long text once, so its
 * references stand for what the conversation repeats (each step's prompt holds the one before it:
 * a 200-step conversation's prompts are about 100 times its file). A 22 KB file whose every
 * prompt is the one before it twice over stands for 70 million characters: refused here, before
 * anything is decoded further or stored.
 */
export const IMPORT_EXPANSION_RATIO = 256;

/** How many characters the references of a file of this length may stand for. */
export function importReferencedChars(fileChars: number): number {
  return Math.min(IMPORT_REFERENCED_CHARS, IMPORT_EXPANSION_RATIO * fileChars);
}

export interface ConversationFile {
  format: typeof EXPORT_FORMAT;
  version: 2;
  title: string;
  createdAt: number;
  exportedAt: number;
  settings: ConversationSettings;
  /** The log in the shared-text encoding (see above). */
  events: unknown[];
}

export function exportConversation(conversation: Conversation, now = Date.now()): ConversationFile {
  return {
    format: EXPORT_FORMAT,
    version: 2,
    title: conversation.title,
    createdAt: conversation.createdAt,
    exportedAt: now,
    settings: conversation.settings,
    events: encodeEventLog(conversation.events),
  };
}

/** Events encoded between turns for the page while a file is made (a few milliseconds' work). */
const ENCODED_PER_SLICE = 1_000;

/**
 * `exportConversation`, made a slice of events at a time with `pause()` between slices (by
 * default, a turn for the page whenever 10 ms of work have passed): a log of a hundred thousand
 * small events would otherwise be encoded in one long task. A stream record never spans two
 * slices; the file reads the same.
 */
export async function exportConversationInSlices(conversation: Conversation, now = Date.now(), pause: () => Promise<void> = createYieldPoint()): Promise<ConversationFile> {
  const codec = new SharedTextCodec();
  const events: unknown[] = [];
  // Within a slice too, a turn every 10 ms: one delta may hold thousands of tokens with alternatives.
  const withinSlice = createYieldPoint();
  for (let at = 0; at < conversation.events.length; at += ENCODED_PER_SLICE) {
    await pause();
    for (const record of await codec.encodeAllPaced(conversation.events.slice(at, at + ENCODED_PER_SLICE), withinSlice)) events.push(record);
  }
  return { ...exportConversation({ ...conversation, events: [] }, now), events };
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
  const records = result.success ? result.data.events : [];
  const between = new EventLogChecker();
  // Version 2: references are resolved (and checked) first, then the events are checked. An
  // issue is named by where it is in the file: its record, and the item of a stream record.
  const codec = result.success && result.data.version === 2 ? new SharedTextCodec({ referencedChars: importReferencedChars(text.length), bound: `${IMPORT_EXPANSION_RATIO} times the file's ${text.length.toLocaleString("en-US")} characters, at most ${IMPORT_REFERENCED_CHARS.toLocaleString("en-US")}` }) : null;
  const events: unknown[] = [];
  const where: PropertyKey[][] = [];
  const tokenFlood = new StepTokenCounter();
  let record = 0;
  while (record < records.length) {
    await pause();
    const start = events.length;
    const refIssues: DecodeIssue[] = [];
    // Records are read until the slice holds EVENTS_PER_SLICE events (a stream record holds many).
    while (record < records.length && events.length - start < EVENTS_PER_SLICE) {
      const stored = records[record];
      if (!codec) {
        events.push(stored);
        where.push(["events", record]);
      } else {
        const isStream = typeof stored === "object" && stored !== null && (stored as { $?: unknown }).$ === "stream";
        for (const [item, event] of codec.decode(stored, record, refIssues).entries()) {
          events.push(event);
          where.push(isStream ? ["events", record, "items", item] : ["events", record]);
        }
      }
      record += 1;
    }
    for (const issue of refIssues) issues.push({ path: ["events", issue.index, ...issue.path], message: issue.message });
    // Counted before the schema reads every token of the slice: a file may hold millions.
    for (let at = start; at < events.length && issues.length === 0; at++) {
      const issue = tokenFlood.count(events[at]);
      if (issue) issues.push({ path: [...where[at]!, "tokens"], message: issue });
    }
    if (issues.length > 0) break;
    const slice = eventsSchema.safeParse(events.slice(start));
    if (slice.success) {
      for (const issue of between.check(slice.data, start)) issues.push({ path: [...where[issue.index]!, ...issue.path], message: issue.message });
      continue;
    }
    for (const issue of slice.error.issues) issues.push({ ...issue, path: [...where[start + (issue.path[0] as number)]!, ...issue.path.slice(1)] });
  }
  if (!result.success || issues.length > 0) {
    const problems = issues.slice(0, 5).map((issue) => {
      const where = issue.path.length ? issue.path.map(String).join(".") : "(top level)";
      return `${where}: ${issue.message}`;
    });
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : "";
    throw new ImportError(`This is not a Toolcall Lab conversation export — ${problems.join("; ")}${more}. Expected a file saved with the Conversations pane's "Export" button.`);
  }
  const file = result.data;
  const settings = { ...defaultSettings, ...upgradeSettings((file.settings ?? {}) as Partial<ConversationSettings>) };
  return {
    id: newConversationId(),
    title: `${file.title} (imported)`,
    createdAt: file.createdAt ?? now,
    updatedAt: now,
    settings: { ...settings, research: { ...defaultSettings.research, ...settings.research } },
    events: (events as LoopEvent[]).map(withinRecordedBounds),
  };
}

/**
 * Counts the tokens each step records with their probabilities: a live step stops at
 * STEP_OUTPUT_LIMITS.tokens, so a file past it was not written by a run, and 2,000,000 tokens (a
 * 33 MB file) held the import 12 s and the Probabilities view a minute.
 */
class StepTokenCounter {
  private readonly perStep = new Map<string, number>();

  /** Adds a (not yet checked) event's tokens; says why the file is refused once a step passes the bound. */
  count(event: unknown): string | undefined {
    const { type, runId, stepId, tokens } = (event ?? {}) as { type?: unknown; runId?: unknown; stepId?: unknown; tokens?: unknown };
    if (type !== "output-delta" || !Array.isArray(tokens)) return undefined;
    const key = `${String(runId)}\u241f${String(stepId)}`;
    const total = (this.perStep.get(key) ?? 0) + tokens.length;
    this.perStep.set(key, total);
    if (total <= STEP_OUTPUT_LIMITS.tokens) return undefined;
    return `step ${JSON.stringify(stepId)} records more than ${STEP_OUTPUT_LIMITS.tokens.toLocaleString("en-US")} tokens with their probabilities, the most a step records (a live step is stopped there)`;
  }
}

/**
 * An imported event kept within the bounds a live run records by: a file may carry a server's
 * rendered prompt of any length (a 2.4 MB file held 16 million characters the debugger drew whole).
 */
function withinRecordedBounds(event: LoopEvent): LoopEvent {
  if (event.type !== "step-start" || !event.serverPrompt) return event;
  const serverPrompt = boundRecordedServerPrompt(event.serverPrompt);
  return serverPrompt === event.serverPrompt ? event : { ...event, serverPrompt };
}

export interface TranscriptFile {
  title: string;
  protocol?: string;
  description: string;
  turns: string[];
  /** Token counts of each turn, where the run had them. */
  usage?: ({ promptTokens?: number; completionTokens?: number } | null)[];
  /** Turns that were cut off at a length limit in the run, so the replay ends them the same way. */
  cutOff?: (CutOffLimit | null)[];
}

/**
 * A replay transcript of a log: the raw output of every step (sub-agent steps included), in the
 * order the steps started — the order in which a replay engine hands out turns.
 * `runId` limits it to one top-level run and the runs nested under it.
 *
 * A native-mode step (the server made its calls; no call is in its raw text) is written in
 * `replayProtocol` (default hermes), so the replay, which reads text, makes the same calls: its
 * reasoning as a <think> block, its text, and its calls as the protocol writes calls. A call the
 * lab refused is written too when its arguments were an object (the replay refuses it the same
 * way); one whose arguments were not JSON at all cannot be, and the description says so.
 */
export function transcriptFromEvents(events: readonly LoopEvent[], title: string, runId?: string, replayProtocol = "hermes"): TranscriptFile {
  const belongs = new Set<string>(runId ? [runId] : []);
  const stepOrder: string[] = [];
  const outputs = new Map<string, string>();
  const nativeSteps = new Map<string, NativeStep>();
  const counts = new Map<string, { promptTokens?: number; completionTokens?: number }>();
  const cutOffs = new Map<string, CutOffLimit>();
  let protocol: string | undefined;
  // Branches (re-runs of a step) are experiments beside the conversation, not turns a replay plays.
  const branches = new Set<string>();
  for (const event of events) {
    if ((event.type === "run-start" && event.branch) || (event.parent && branches.has(event.parent.runId))) branches.add(event.runId);
    if (branches.has(event.runId)) continue;
    if (runId) {
      if (event.runId !== runId && !(event.parent && belongs.has(event.parent.runId))) continue;
      belongs.add(event.runId);
    }
    if (event.type === "step-start") {
      stepOrder.push(event.stepId);
      outputs.set(event.stepId, "");
      if (event.protocol === NATIVE_PROTOCOL) nativeSteps.set(event.stepId, { reasoning: "", calls: [], unwritable: 0 });
      if (!event.parent) protocol ??= event.protocol === NATIVE_PROTOCOL ? replayProtocol : event.protocol;
    } else if (event.type === "output-delta") {
      outputs.set(event.stepId, (outputs.get(event.stepId) ?? "") + event.text);
    } else if (event.type === "parse") {
      const native = nativeSteps.get(event.stepId);
      if (native) collectNative(native, event.event);
    } else if (event.type === "usage") {
      const { promptTokens, completionTokens } = event.usage;
      if (promptTokens !== undefined || completionTokens !== undefined) counts.set(event.stepId, { promptTokens, completionTokens });
    } else if (event.type === "step-end" && event.status === "cut-off" && event.cutOff) {
      cutOffs.set(event.stepId, event.cutOff);
    }
  }
  const writer = getProtocol(replayProtocol);
  let unwritable = 0;
  for (const [stepId, native] of nativeSteps) {
    if (!writer) continue;
    unwritable += native.unwritable;
    outputs.set(stepId, writeNativeStep(writer, outputs.get(stepId) ?? "", native));
  }
  // A step that produced nothing (the engine failed before its first token) is not a turn.
  const played = stepOrder.filter((id) => (outputs.get(id) ?? "") !== "");
  const turns = played.map((id) => outputs.get(id) ?? "");
  const nativeNote =
    nativeSteps.size === 0
      ? ""
      : !writer
        ? ` Its native-mode steps' calls could not be written: there is no protocol "${replayProtocol}".`
        : ` Native-mode steps (the server's own tool calling) are written in ${replayProtocol}${unwritable > 0 ? `; ${unwritable} call${unwritable === 1 ? "" : "s"} whose arguments were not JSON could not be written` : ""}.`;
  const transcript: TranscriptFile = {
    title,
    description: `Made from a Toolcall Lab run: ${turns.length} model output${turns.length === 1 ? "" : "s"}.${nativeNote}`,
    turns,
  };
  if (protocol) transcript.protocol = protocol;
  if (played.some((id) => counts.has(id))) transcript.usage = played.map((id) => counts.get(id) ?? null);
  if (played.some((id) => cutOffs.has(id))) transcript.cutOff = played.map((id) => cutOffs.get(id) ?? null);
  return transcript;
}

/** What a native-mode step made besides its text: reasoning and calls, in order. */
interface NativeStep {
  reasoning: string;
  calls: ToolCall[];
  /** Calls the server sent whose arguments were not JSON: no protocol can write them. */
  unwritable: number;
}

function collectNative(step: NativeStep, event: ParseEvent): void {
  if (event.type === "reasoning") step.reasoning += event.text;
  else if (event.type === "tool-call-end") step.calls.push(event.call);
  else if (event.type === "parse-error" && event.id !== undefined) {
    // The native call assembler records a refused call as {"name", "arguments": <the text received>}.
    const refused = readRefusedCall(event.raw);
    if (refused) step.calls.push({ id: event.id, ...refused });
    else step.unwritable += 1;
  }
}

function readRefusedCall(raw: string): { name: string; arguments: Record<string, unknown> } | null {
  try {
    const recorded = JSON.parse(raw) as { name?: unknown; arguments?: unknown };
    if (typeof recorded.name !== "string" || typeof recorded.arguments !== "string") return null;
    const text = recorded.arguments.trim() === "" ? "{}" : recorded.arguments;
    const parsed = parseJsonLenient(text);
    if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value)) return null;
    return { name: recorded.name, arguments: parsed.value as Record<string, unknown> };
  } catch {
    return null;
  }
}

function writeNativeStep(protocol: Protocol, text: string, step: NativeStep): string {
  // Nothing between the block and the text: the replay's parser would keep it as text.
  const reasoning = step.reasoning === "" ? "" : `<think>${step.reasoning}</think>`;
  const body = step.calls.length > 0 ? protocol.renderAssistant({ role: "assistant", content: text, toolCalls: step.calls }) : text;
  return reasoning + body;
}
