// What a protocol tells the streaming core about its format: which markers open a call, what
// ends it, how its body is read, and whether an output may be a call with no marker at all.
// The core (call-scanner.ts) knows nothing else about any format; the reasoning tags are read
// by the stage in front of it (reasoning-stage.ts).
import type { ToolSpec } from "../types.ts";
import type { BodyReading } from "./call-candidate.ts";
import type { ReasoningTags } from "./reasoning-stage.ts";

/** Reads a call's body (the text between its markers) into calls, or says why it is not one. */
export type BodyReader = (body: string, tools: readonly ToolSpec[], knownName?: string) => BodyReading;

/**
 * How the core follows a body while it streams, to know whether a close marker inside it is
 * really the close, and whether a body cut off by the end of the output is whole:
 * - "auto": decided by the first character — `{`, `[` or a fence: JSON; `<`: markup; anything
 *   else: prose (a literal mention of the marker, unless the marker is closed);
 * - "json": JSON-like from the first character (`"` strings, brackets), names allowed before it;
 * - "python": like json, with strings in either quote style;
 * - "raw": no tracking; the body ends at the first close marker.
 */
export type BodyKindHint = "auto" | "json" | "python" | "raw";

export interface CallMarker {
  /** The text that opens a call. */
  open: string;
  /** The text that closes it; without one the call runs to `ends`, a new call or the end of the output. */
  close?: string;
  /** Texts that also end the call (a turn's end marker), consumed with it. */
  ends?: readonly string[];
  /** The tool, when the opener itself names it (`<get_weather>`). */
  toolName?: string;
  /** Text the body is read with in front (`<function=` is both the opener and part of the call). */
  bodyPrefix?: string;
  /** Text the body is read with at its end when the close marker was seen. */
  bodySuffix?: string;
  body?: BodyKindHint;
  read: BodyReader;
  /** A call opening with this marker closes one still open. */
  interrupts?: boolean;
  /** A call may open with this marker inside reasoning (a model may call from its think block); default: `interrupts`. */
  inReasoning?: boolean;
  /** This marker's close, met with no call open, is dropped with a repair instead of kept as text. */
  dropStrayClose?: boolean;
  /** The same marker inside the body nests (a tool and its parameter may share a name: `<s><s>1</s></s>`). */
  nests?: boolean;
  /**
   * A call without a close marker ends where its JSON-like body's top value ends (Phi-4-mini's
   * `functools[…]`), so that text can follow it. Brackets opened by `bodyPrefix` count.
   */
  endsWithValue?: boolean;
  /** Finds the tool's name early in the body's first characters, to announce the call while it streams. */
  nameOf?: (head: string) => string | undefined;
  /**
   * A "raw" body's string delimiter (Gemma 4's `<|"|>`): between two of them a marker is the
   * string's text. A string still open at the end of the output ends the call at its first
   * close marker after all.
   */
  stringDelimiter?: string;
  /**
   * The marker opens a call only as the very first characters of the output: the rest of a
   * header the prompt began (Harmony's ` to=functions.NAME` after `<|start|>assistant`).
   * Anywhere else it is text.
   */
  atStart?: boolean;
  /**
   * A call is made only when its close marker was seen: a body the output ended in is an
   * unfinished call even when it reads whole (vLLM's GLM parser extracts no call there).
   */
  requiresClose?: boolean;
  /**
   * The reader is also given a body cut off by the end of the output (or, without a close
   * marker, ended by a turn's end or a new call) and says itself which of its calls are whole:
   * a cut one is an outcome of kind "unfinished-tool-call", the whole ones before it are calls.
   * Without it such a body is a call only if all of it is whole.
   */
  readsCutOff?: boolean;
}

/** Follows an output that began like a markerless call, one character at a time. */
export interface BareCallTracker {
  /** Feeds `text[from, to)`; returns the index of the first character it does not take (a bare call is ruled out there, or ended before it), or -1. */
  feed: (text: string, from: number, to: number) => number;
  /** Whether what was fed is a whole call (and nothing but blanks after it). */
  readonly complete: boolean;
  /**
   * For a call that may stand in text ("start" and "anywhere" placements): whether a call has
   * surely begun (`[get_weather(`, `{"name"`). Before that the text is not the call's: a
   * reasoning tag there counts, and a rule-out makes it text at once.
   */
  readonly committed?: boolean;
  /** For a call that may stand in text: how many of the characters fed are the whole call (list), once it ended; else -1. */
  readonly callLength?: number;
}

/** An output that is nothing but a call, without markers (a bare JSON object, a pythonic list). */
export interface BareCallSyntax {
  /** Characters that may begin such an output (after blanks). */
  startsWith: string;
  tracker: () => BareCallTracker;
  /** Reads the whole output; undefined when it is not a call after all (then it is text). */
  read: (text: string, tools: readonly ToolSpec[]) => BodyReading | undefined;
  /** For the repair that says the markers were missing: "a call object", "a pythonic call list". */
  describe: (text: string) => string;
  /**
   * The protocol's own prompt asks for calls written this way (pythonic's `[f(a=1)]`, Llama 3's
   * bare JSON objects, xLAM's array): such a call is read as written, with no "bare-call" repair.
   * Without it, a markerless call is a lenient reading of a model that left the markers out.
   */
  ownForm?: boolean;
  /**
   * Where such a call may stand: "whole" (the default) — it is the whole output, nothing but
   * blanks around it; "start" — at the start of the output (after blanks and reasoning), text may
   * follow it; "anywhere" — also after text, as often as it comes (pythonic lists in prose, as
   * SGLang reads them). The last two need a tracker that says `committed` and `callLength`.
   */
  placement?: "whole" | "start" | "anywhere";
  /** For a call that may stand in text: finds the first call's tool early, to announce it while it streams. */
  nameOf?: (head: string) => string | undefined;
}

export interface CallSyntax {
  markers: readonly CallMarker[];
  bare?: BareCallSyntax;
  /** Reasoning tags, for the reasoning stage in front of the call scanner; null for a format without them. Default <think></think>. */
  reasoning?: ReasoningTags | null;
}

export const THINK_TAGS = { open: "<think>", close: "</think>" } as const;
