// A case's event log as a results file carries it: the step's events (prompt, raw output with
// its token probabilities, parse events, verdict-making ending) in the shared-text encoding the
// lab's saved and exported conversations use (log-encoding/shared-text.ts: each long text once,
// token probabilities compact), so a case of a results file opens in the debugger as a case of
// a run made in the page does. Each case is encoded on its own (its own codec): it reads back
// alone, and a resumed run can keep the logs of the cases it does not run again.
//
// Bounded both ways: a log longer than CASE_LOG_MAX_CHARS is left out of the file (the entry
// says so and why), and reading a log from a file is reading untrusted input: its references
// may stand for at most CASE_LOG_EXPANSION_RATIO times its own length, and every event is
// checked against the log's schema before a view sees it.
import { z } from "zod";
import { EventLogChecker, loopEventSchema } from "toolcall-middleware/event-log-schema.ts";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { SharedTextCodec, type DecodeIssue } from "../log-encoding/shared-text.ts";

export const CASE_LOG_ENCODING = "shared-text-1";

export interface CaseLog {
  encoding: typeof CASE_LOG_ENCODING;
  /** The encoded records (an event each, or a stream record of many small ones). */
  events: unknown[];
}

/**
 * The most JSON characters one case's log may take in a results file. A case is one step: its
 * prompt (the tools and the question, a few kilobytes) and a reply bounded by the run's max
 * tokens, each token with its top 5 alternatives (about 160 characters a token: the
 * probabilities are kept exact, as recorded). 10 SmolLM2 cases at 256 tokens took 23–54 KB
 * each (42 KB on average), so a results file of 60 such cases stays under 3 MB. A reply that runs to the loop's own output limit (a million characters) would not
 * fit: its entry says the log was left out.
 */
export const CASE_LOG_MAX_CHARS = 400_000;

/** References in a log read from a file may stand for at most this many times its length (each step's prompt is written once). */
export const CASE_LOG_EXPANSION_RATIO = 64;

export const caseLogSchema = z.object({
  encoding: z.literal(CASE_LOG_ENCODING, { error: `log.encoding must be "${CASE_LOG_ENCODING}"` }),
  events: z.array(z.unknown()),
});

/** The case's log as a results file keeps it, or why it is left out. */
export function caseLogOf(events: readonly LoopEvent[], maxChars = CASE_LOG_MAX_CHARS): { log: CaseLog } | { logOmitted: string } | Record<string, never> {
  if (events.length === 0) return {};
  const log: CaseLog = { encoding: CASE_LOG_ENCODING, events: new SharedTextCodec().encodeAll(events) };
  const chars = JSON.stringify(log).length;
  if (chars > maxChars) return { logOmitted: `its encoded log took ${chars.toLocaleString("en-US")} characters, more than the ${maxChars.toLocaleString("en-US")} a results file keeps per case` };
  return { log };
}

/**
 * The events of a log read from a results file, checked: its references resolved within the
 * bound, each event against the log's schema, output offsets in order. Throws a message saying
 * where the log is wrong.
 */
export function readCaseLog(log: CaseLog): LoopEvent[] {
  const encodedChars = JSON.stringify(log.events).length;
  const referencedChars = CASE_LOG_EXPANSION_RATIO * Math.max(encodedChars, 1024);
  const codec = new SharedTextCodec({ referencedChars, bound: `${CASE_LOG_EXPANSION_RATIO} times the log's ${encodedChars.toLocaleString("en-US")} characters` });
  const issues: DecodeIssue[] = [];
  const decoded: unknown[] = [];
  for (const [index, record] of log.events.entries()) {
    for (const event of codec.decode(record, index, issues)) decoded.push(event);
    if (issues.length > 0) break;
  }
  const first = issues[0];
  if (first) throw new Error(`its log could not be read: event record ${first.index}${first.path.length ? `.${first.path.map(String).join(".")}` : ""}: ${first.message}`);
  const checked = z.array(loopEventSchema).safeParse(decoded);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new Error(`its log could not be read: event ${issue?.path.map(String).join(".") || "?"}: ${issue?.message ?? "unexpected shape"}`);
  }
  // The events as decoded, once checked: zod's copy would drop a `__proto__` key of a call's arguments.
  const events = decoded as LoopEvent[];
  const between = new EventLogChecker().check(events)[0];
  if (between) throw new Error(`its log could not be read: event ${between.index}.${between.path.map(String).join(".")}: ${between.message}`);
  return events;
}
