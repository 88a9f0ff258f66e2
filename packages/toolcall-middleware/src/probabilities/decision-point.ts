// The decision point of a step: the token at which the model chose to call a tool or not. In a
// reply that made a call, it is the first token of the call's opening marker; in a reply without
// one, the reply's first token. What it reports are the engine's own numbers at that token (and,
// for a marker of several tokens, the product of their probabilities along the sampled path);
// where they were not recorded, it says so and estimates nothing.
import type { OpenerProbe, TokenAlternative } from "../types.ts";
import { tokenAt, type PlacedToken } from "./step-tokens.ts";

export type DecisionPoint =
  | {
      kind: "call";
      /** The token where the call's opening marker starts. */
      token: PlacedToken;
      /** The opening marker as the output wrote it. */
      marker: string;
      /** The tokens that wrote the marker, in order. */
      markerTokens: PlacedToken[];
      /** The probability of the whole marker along the sampled path (the product of its tokens'). */
      markerP: number;
      /** The most likely token at the decision point other than the one sampled. */
      alternative?: TokenAlternative;
    }
  | {
      kind: "no-call";
      token: PlacedToken;
      /** The alternative at the first token that would have opened a call (begins an opening marker), where one is among those recorded. */
      callOpener?: TokenAlternative & { marker: string };
      /** Alternatives recorded at the first token (the bound below which an unlisted opener lies). */
      recorded: number;
      /** The least probability among them: an opener not listed had at most this. */
      lowestRecorded?: number;
      /** The opening markers looked for. */
      markers: string[];
      /** The opener probe's measurement at this token, or why the engine could not measure it (absent: not probed). */
      measured?: OpenerProbe;
    }
  | { kind: "unknown"; reason: string };

export interface DecisionPointInput {
  output: string;
  tokens: readonly PlacedToken[];
  /** Where the step's calls opened in the output (their tool-call-start spans' starts), in order. */
  callStarts: readonly number[];
  /** The protocol's opening markers (openingMarkers). */
  markers: readonly string[];
  /** The step's opener probe, as recorded in its step-end. */
  probe?: OpenerProbe;
}

/** Whether a token's text would begin one of the markers (leading whitespace aside), and which. */
function opensMarker(text: string, markers: readonly string[]): string | undefined {
  const body = text.trimStart();
  if (body === "") return undefined;
  return markers.find((marker) => marker.startsWith(body) || body.startsWith(marker));
}

/**
 * Whether an alternative is the token that was sampled: the same id where the engine gives ids
 * (llama-server may send a token's text with a held-back piece of the one before, `<tool` for
 * `tool`, while its alternatives carry the token's own text), else the same text.
 */
function isSampled(alternative: TokenAlternative, sampled: TokenAlternative): boolean {
  if (alternative.id !== undefined && sampled.id !== undefined) return alternative.id === sampled.id;
  return alternative.text === sampled.text;
}

export function findDecisionPoint(input: DecisionPointInput): DecisionPoint {
  const { output, tokens, markers } = input;
  if (tokens.length === 0) return { kind: "unknown", reason: "This step recorded no token probabilities." };
  const callStart = input.callStarts[0];
  if (callStart !== undefined) {
    const first = tokenAt(tokens, callStart);
    if (!first) return { kind: "unknown", reason: "No recorded token covers the place where the call opened." };
    const marker = markers.find((m) => output.startsWith(m, callStart)) ?? output.slice(callStart, first.end);
    const markerEnd = callStart + marker.length;
    const markerTokens = tokens.slice(first.index).filter((t, i) => i === 0 || t.start < markerEnd);
    const markerP = markerTokens.reduce((product, t) => product * t.token.p, 1);
    const alternative = first.token.top.find((a) => !isSampled(a, first.token));
    return { kind: "call", token: first, marker, markerTokens, markerP, ...(alternative ? { alternative } : {}) };
  }
  const first = tokens[0]!;
  const top = first.token.top;
  const opener = top.map((a) => ({ a, marker: opensMarker(a.text, markers) })).find((x) => x.marker !== undefined);
  const lowest = top.length > 0 ? Math.min(...top.map((a) => a.p)) : undefined;
  return {
    kind: "no-call",
    token: first,
    ...(opener ? { callOpener: { ...opener.a, marker: opener.marker! } } : {}),
    recorded: top.length,
    ...(lowest !== undefined ? { lowestRecorded: lowest } : {}),
    markers: [...markers],
    ...(input.probe && ("unsupported" in input.probe || input.probe.at === first.start) ? { measured: input.probe } : {}),
  };
}

/** A probability as the lab writes it: two decimals, more where it is small. */
export function formatP(p: number): string {
  if (p === 0) return "0";
  if (p >= 0.01) return p.toFixed(2);
  return p.toPrecision(2);
}

/**
 * A token's text for a sentence: in backticks, with whitespace made visible. A token that holds a
 * backtick itself (a Markdown fence, "```") goes in curly quotes instead: in backticks it would
 * read as "`````", with no telling where the token starts.
 */
export function quoteToken(text: string): string {
  const visible = text.replace(/\n/g, "\\n").replace(/\t/g, "\\t");
  return visible.includes("`") ? `\u201c${visible}\u201d` : "`" + visible + "`";
}

/** The decision point in words: "opened a tool call with p = 0.62; the most likely alternative was `I` (0.21)". */
export function describeDecisionPoint(point: DecisionPoint): string {
  switch (point.kind) {
    case "unknown":
      return point.reason;
    case "call": {
      const several = point.markerTokens.length > 1 ? ` (the whole marker ${quoteToken(point.marker)}, ${point.markerTokens.length} tokens: p = ${formatP(point.markerP)})` : "";
      const alternative = point.alternative ? `; the most likely alternative was ${quoteToken(point.alternative.text)} (${formatP(point.alternative.p)})` : "; no alternative was recorded";
      return `opened a tool call with p = ${formatP(point.token.token.p)}${several}${alternative}`;
    }
    case "no-call": {
      const chose = `answered without a call, starting with ${quoteToken(point.token.token.text)} (p = ${formatP(point.token.token.p)})`;
      const measured = point.measured && "markers" in point.measured && point.measured.markers.length > 0 ? point.measured.markers : undefined;
      if (measured) {
        const tokens = (m: (typeof measured)[number]) => (m.tokens.length > 1 ? `the product of its ${m.tokens.length} tokens' probabilities` : "one token");
        if (measured.length === 1) return `${chose}; a call would have opened with ${quoteToken(measured[0]!.marker)} at p = ${formatP(measured[0]!.p)} (measured: ${tokens(measured[0]!)})`;
        const total = Math.min(1, measured.reduce((sum, m) => sum + m.p, 0));
        return `${chose}; a call would have opened at p = ${formatP(total)} (measured: ${measured.map((m) => `${quoteToken(m.marker)} ${formatP(m.p)}`).join(", ")})`;
      }
      const cannot = point.measured && "unsupported" in point.measured ? `; not measured exactly: ${point.measured.unsupported}` : "";
      if (point.callOpener) return `${chose}; a call would have opened with ${quoteToken(point.callOpener.text)} at p = ${formatP(point.callOpener.p)}`;
      if (point.markers.length === 0) return `${chose}; this protocol names no opening marker to look for`;
      const bound = point.lowestRecorded !== undefined ? ` (so p ≤ ${formatP(point.lowestRecorded)})` : "";
      return `${chose}; no call opener (${point.markers.map(quoteToken).join(", ")}) was among the ${point.recorded} alternatives recorded${bound}${cannot}`;
    }
  }
}
