// The parser playground's work, pure (it runs in a worker, in Node tests, or on the page): parse
// a raw output with a protocol and tools, streamed as the chosen chunking cuts it, and check it
// against one pass over the whole output. A parser must give the same calls, text and errors
// however its input was cut; where it does not, the first difference is named.
import { collectParse, parseChunks, type ParseResult } from "toolcall-middleware/parser/collect.ts";
import { detectFormats } from "toolcall-middleware/probabilities/detect-format.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ParseEvent, Protocol, ToolSpec } from "toolcall-middleware/types.ts";
import { chunksOf, describeChunking, type Chunking } from "./chunking.ts";
import { readStrictly } from "./reparse.ts";

export interface PlaygroundInput {
  output: string;
  protocol: string;
  tools: ToolSpec[];
  chunking: Chunking;
  /** Read as the debugger's strict re-parse reads: no repairs, no lenient readings (absent: lenient). */
  strict?: boolean;
  /** With the protocol TEMPLATE_PROTOCOL: the chat template (Jinja) the protocol is derived from. */
  template?: string;
}

export interface PlaygroundResult {
  protocol: string;
  /** The parse events of the chunked stream (only the first `shownEvents` are kept: a megabyte can make a million). */
  events: ParseEvent[];
  eventCount: number;
  result: ParseResult;
  chunkCount: number;
  /** Whether the chunked stream gave what one pass gives (always true for "whole"). */
  agrees: boolean;
  /** Where they differ, in words. */
  difference?: string;
  /** A protocol that is not registered, or a parser that threw. */
  error?: string;
  /** Milliseconds the parse took (both passes). */
  ms: number;
  /** With the "auto" choice: the protocols whose parsers found calls (most calls first); the result is the first one's, or hermes's where none did. */
  detected?: string[];
  /** With the TEMPLATE_PROTOCOL choice: the derived format in words, or why it cannot be derived. */
  derivation?: { ok: boolean; lines: string[] };
}

/** The protocol choice that names the format itself: every registered parser reads the output. */
export const AUTO_PROTOCOL = "auto";

/** The protocol choice whose protocol is derived from a pasted chat template (the page derives it: ui/playground/playground-with-template.ts). */
export const TEMPLATE_PROTOCOL = "template";

export const SHOWN_EVENTS = 2_000;

/** `given`: a protocol that is not registered (one derived from a template), used instead of looking `input.protocol` up. */
export function runPlayground(input: PlaygroundInput, now: () => number = () => performance.now(), given?: Protocol): PlaygroundResult {
  if (input.protocol === AUTO_PROTOCOL) {
    const started = now();
    const detected = detectFormats(input.output, input.tools).map((f) => f.protocol);
    const result = runPlayground({ ...input, protocol: detected[0] ?? "hermes" }, now);
    return { ...result, detected, ms: now() - started };
  }
  const started = now();
  const empty: ParseResult = { text: "", reasoning: "", calls: [], errors: [], repairs: [] };
  const protocol = given ?? getProtocol(input.protocol);
  if (!protocol) return { protocol: input.protocol, events: [], eventCount: 0, result: empty, chunkCount: 0, agrees: true, error: `No protocol is registered as "${input.protocol}".`, ms: 0 };
  try {
    let chunkCount = 0;
    const counted = (function* () {
      for (const chunk of chunksOf(input.output, input.chunking)) {
        chunkCount += 1;
        yield chunk;
      }
    })();
    const events = parseChunks(protocol, input.tools, counted);
    const collected = collectParse(events);
    // Strictness is a reading of the events, the same for any cut: both passes are read alike.
    const read = (found: ParseResult, from: ParseEvent[]) => (input.strict ? readStrictly(protocol, input.output, from, found).result : found);
    const result = read(collected, events);
    let agrees = true;
    let difference: string | undefined;
    if (input.chunking.kind !== "whole") {
      const onePassEvents = parseChunks(protocol, input.tools, input.output === "" ? [] : [input.output]);
      const onePass = read(collectParse(onePassEvents), onePassEvents);
      difference = firstDifference(onePass, result);
      agrees = difference === undefined;
      if (difference) difference = `${describeChunking(input.chunking)} differs from one pass: ${difference}`;
    }
    return {
      protocol: protocol.name,
      events: events.slice(0, SHOWN_EVENTS),
      eventCount: events.length,
      result,
      chunkCount,
      agrees,
      ...(difference !== undefined ? { difference } : {}),
      ms: now() - started,
    };
  } catch (thrown) {
    return { protocol: protocol.name, events: [], eventCount: 0, result: empty, chunkCount: 0, agrees: false, error: `The ${protocol.name} parser failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`, ms: now() - started };
  }
}

/** The first way two parse results differ, in words; undefined when they are the same. */
export function firstDifference(expected: ParseResult, actual: ParseResult): string | undefined {
  if (expected.calls.length !== actual.calls.length) return `${actual.calls.length} call(s) instead of ${expected.calls.length}`;
  for (const [i, call] of expected.calls.entries()) {
    const other = actual.calls[i]!;
    if (call.name !== other.name) return `call ${i + 1} is ${other.name} instead of ${call.name}`;
    if (JSON.stringify(call.arguments) !== JSON.stringify(other.arguments)) return `call ${i + 1} (${call.name}) has other arguments`;
  }
  if (expected.errors.length !== actual.errors.length) return `${actual.errors.length} parse error(s) instead of ${expected.errors.length}`;
  for (const [i, error] of expected.errors.entries()) if (error.kind !== actual.errors[i]!.kind) return `error ${i + 1} is ${actual.errors[i]!.kind} instead of ${error.kind}`;
  if (expected.repairs.length !== actual.repairs.length) return `${actual.repairs.length} repair(s) instead of ${expected.repairs.length}`;
  if (expected.text !== actual.text) return "the text differs";
  if (expected.reasoning !== actual.reasoning) return "the reasoning differs";
  return undefined;
}
