// "Which format is this output?": every registered protocol's parser reads the output, and
// those that find calls are named with the calls they found. Each parser is the streaming one
// the loop uses, given the whole output at once: linear in the output, so all of them together
// stay fast (bench/detect-format.ts). A parser that cannot find a call in the output is not
// run at all: a pre-scan looks for the texts every call of its format must begin with
// (could-open.ts), so an output in one format costs about one parser, not eighteen.
import type { CallSyntax } from "../parser/call-syntax.ts";
import { ToolCallScanner } from "../parser/scanner.ts";
import { listProtocols } from "../protocols/registry.ts";
import type { ToolSpec } from "../types.ts";
import { mayHoldCall } from "./could-open.ts";

export interface FoundCall {
  name: string;
  arguments: unknown;
  /** False where the call was read but failed its checks (an unknown tool, arguments outside the schema). */
  valid: boolean;
}

export interface DetectedFormat {
  protocol: string;
  label: string;
  /** The first calls it found (at most MAX_DETECTED_CALLS). */
  calls: FoundCall[];
  /** Set when it stopped reading before the end (at MAX_DETECTED_CALLS calls, or at `maxChars`): more may follow. */
  more?: true;
}

/** Calls enough to name a format and show what it found; a parser that reached them reads no further. */
export const MAX_DETECTED_CALLS = 20;
/** The output is given to each parser in pieces this long, so one that has found enough stops early. */
export const PIECE_CHARS = 4096;

export interface DetectOptions {
  /**
   * Read at most this many characters of the output (each parser reads whole pieces, so up to
   * a piece more): a view on the main thread bounds its work on a huge output this way.
   */
  maxChars?: number;
  /**
   * False: run every protocol's parser, also where the pre-scan shows it cannot find a call
   * (the reference the pre-scan is tested against; the result is the same).
   */
  prescan?: boolean;
}

/**
 * The protocols whose parsers find calls in `output`, most calls first (ties in registry order).
 * With `tools`, a call to a tool not among them still counts (its format is what is asked
 * about), marked not valid.
 */
export function detectFormats(output: string, tools: readonly ToolSpec[] = [], options: DetectOptions = {}): DetectedFormat[] {
  const reading = readFormats(output, tools, options);
  for (let step = reading.next(); ; step = reading.next()) if (step.done) return step.value;
}

/**
 * `detectFormats` with `pause` awaited after each piece a parser reads: on a huge output (the
 * Evaluate view's 1,000,000-character replies, read by every protocol) the page gets turns, and
 * no task reads more than a piece per parser. Same result as `detectFormats`.
 */
export async function detectFormatsPaced(output: string, tools: readonly ToolSpec[], pause: () => Promise<void>, options: DetectOptions = {}): Promise<DetectedFormat[]> {
  const reading = readFormats(output, tools, options);
  for (let step = reading.next(); ; step = reading.next()) {
    if (step.done) return step.value;
    await pause();
  }
}

/** The reading itself, one yield after each piece given to a parser (the drivers above decide what a yield is). */
function* readFormats(output: string, tools: readonly ToolSpec[], options: DetectOptions): Generator<void, DetectedFormat[]> {
  const readable = Math.min(output.length, options.maxChars ?? output.length);
  // Each parser reads whole pieces: what it may see is the readable part rounded up to a piece.
  const seen = Math.min(output.length, Math.ceil(readable / PIECE_CHARS) * PIECE_CHARS);
  const scanned = seen === output.length ? output : output.slice(0, seen);
  const prescan = options.prescan ?? true;
  const found: DetectedFormat[] = [];
  for (const protocol of listProtocols()) {
    const parser = protocol.createParser([...tools]);
    const syntax: CallSyntax | undefined = parser instanceof ToolCallScanner ? parser.syntax : undefined;
    if (prescan && syntax && !mayHoldCall(scanned, syntax)) continue;
    const calls: FoundCall[] = [];
    const take = (events: ReturnType<typeof parser.push>) => {
      for (const event of events) {
        if (event.type === "tool-call-end") calls.push({ name: event.call.name, arguments: event.call.arguments, valid: true });
        else if (event.type === "parse-error" && event.call) calls.push({ name: event.call.name, arguments: event.call.arguments, valid: false });
      }
    };
    let at = 0;
    for (; at < readable && calls.length < MAX_DETECTED_CALLS; at += PIECE_CHARS) {
      take(parser.push(output.slice(at, at + PIECE_CHARS)));
      yield;
    }
    const more = at < output.length;
    // A parser stopped before the end is not ended: what it holds is not the output's end.
    if (!more && at >= output.length) take(parser.end());
    if (calls.length > 0) found.push({ protocol: protocol.name, label: protocol.label, calls: calls.slice(0, MAX_DETECTED_CALLS), ...(more || calls.length > MAX_DETECTED_CALLS ? { more: true as const } : {}) });
  }
  return found.sort((a, b) => b.calls.length - a.calls.length);
}

/**
 * Format drift: the protocol in use found no call in the output, but others did. Returns those
 * others (empty when the protocol in use found a call, or nobody did).
 */
export function formatDrift(output: string, protocolInUse: string, tools: readonly ToolSpec[] = [], options: DetectOptions = {}): DetectedFormat[] {
  return driftAmong(detectFormats(output, tools, options), protocolInUse);
}

/** `formatDrift` read with `detectFormatsPaced`: the page gets a turn (`pause`) after each piece. */
export async function formatDriftPaced(output: string, protocolInUse: string, tools: readonly ToolSpec[], pause: () => Promise<void>, options: DetectOptions = {}): Promise<DetectedFormat[]> {
  return driftAmong(await detectFormatsPaced(output, tools, pause, options), protocolInUse);
}

function driftAmong(formats: DetectedFormat[], protocolInUse: string): DetectedFormat[] {
  return formats.some((f) => f.protocol === protocolInUse) ? [] : formats;
}

/** "the model wrote calls in the llama3-json format" (or in several). */
export function describeDrift(drift: readonly DetectedFormat[]): string | undefined {
  if (drift.length === 0) return undefined;
  const names = drift.map((f) => f.protocol);
  const list = names.length === 1 ? `the ${names[0]} format` : `the ${names.slice(0, -1).join(", ")} or ${names.at(-1)} formats`;
  return `the model wrote calls in ${list}`;
}
