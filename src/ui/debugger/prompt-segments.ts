// The prompt view's pieces: control tokens (drawn as chips), the tool block of the system
// prompt (collapsible), plain text; and what a step's prompt added to the previous one's.
import { escapeRegExp } from "toolcall-middleware/text/escape-regexp.ts";

export type PromptPiece =
  | { kind: "text"; text: string; start: number }
  | { kind: "token"; text: string; start: number }
  | { kind: "tools"; start: number; pieces: PromptPiece[]; length: number };

/** Any `<|…|>` token, the spelling nearly every chat template uses for its special tokens. */
const GENERIC_TOKEN = String.raw`<\|[^|<>\s]{1,64}\|>`;

/** A matcher for the generic `<|…|>` form and the template's own control tokens (longest first). */
export function controlTokenPattern(controlTokens: readonly string[] = []): RegExp {
  const own = [...new Set(controlTokens.filter((t) => t.length > 0))]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  return new RegExp([...own, GENERIC_TOKEN].join("|"), "g");
}

/** Splits text into plain text and control tokens; `start` offsets are into the whole prompt. */
export function splitControlTokens(text: string, pattern: RegExp, offset = 0): PromptPiece[] {
  const pieces: PromptPiece[] = [];
  let last = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    if (match.index > last) pieces.push({ kind: "text", text: text.slice(last, match.index), start: offset + last });
    pieces.push({ kind: "token", text: match[0], start: offset + match.index });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ kind: "text", text: text.slice(last), start: offset + last });
  return pieces;
}

/**
 * Where the tool block sits in the prompt: the protocol's own tool section if the prompt holds
 * it verbatim, else the first `<tools>…</tools>` block. Null when there is none.
 */
export function findToolBlock(prompt: string, toolSection?: string | null): { start: number; end: number } | null {
  const section = toolSection?.trim();
  if (section) {
    const at = prompt.indexOf(section);
    if (at >= 0) return { start: at, end: at + section.length };
  }
  const open = prompt.indexOf("<tools>");
  if (open >= 0) {
    const close = prompt.indexOf("</tools>", open);
    if (close >= 0) return { start: open, end: close + "</tools>".length };
  }
  return null;
}

/**
 * `toolBlock` is where the tool block sits (as a step recorded it), or a tool section's text to
 * look for (older logs), or nothing (look for a `<tools>` block).
 */
export function segmentPrompt(prompt: string, controlTokens: readonly string[] = [], toolBlock?: string | Span | null): PromptPiece[] {
  const pattern = controlTokenPattern(controlTokens);
  const block = typeof toolBlock === "object" && toolBlock !== null ? clampSpan(toolBlock, prompt.length) : findToolBlock(prompt, toolBlock);
  if (!block) return splitControlTokens(prompt, pattern);
  return [
    ...splitControlTokens(prompt.slice(0, block.start), pattern),
    {
      kind: "tools",
      start: block.start,
      length: block.end - block.start,
      pieces: splitControlTokens(prompt.slice(block.start, block.end), pattern, block.start),
    },
    ...splitControlTokens(prompt.slice(block.end), pattern, block.end),
  ];
}

export interface Span {
  start: number;
  end: number;
}

/** A recorded span that does not fit the text (a hand-edited log) is not used. */
function clampSpan(span: Span, length: number): Span | null {
  return span.start >= 0 && span.end <= length && span.start < span.end ? span : null;
}

export interface PromptChanges {
  /** Characters at the start shared with the previous prompt, cut back to a line start. */
  hiddenChars: number;
  hiddenLines: number;
  /** What this prompt has after the shared part. */
  added: string;
  /** Characters of the previous prompt after the shared part that this prompt does not have. */
  droppedChars: number;
}

/** A common-prefix diff: enough for chat prompts, which grow at the end between steps. */
export function promptChangesSince(previous: string, current: string): PromptChanges {
  const limit = Math.min(previous.length, current.length);
  let shared = 0;
  while (shared < limit && previous.charCodeAt(shared) === current.charCodeAt(shared)) shared++;
  // Start the shown part on a fresh line so it reads as whole lines, never mid-token.
  const lineStart = shared === current.length && shared === previous.length ? shared : current.lastIndexOf("\n", shared - 1) + 1;
  const cut = Math.max(0, Math.min(shared, lineStart));
  let hiddenLines = 0;
  for (let i = 0; i < cut; i++) if (current.charCodeAt(i) === 10) hiddenLines++;
  return { hiddenChars: cut, hiddenLines, added: current.slice(cut), droppedChars: previous.length - shared };
}

/** A text piece's MCP resource markers (`<mcp-resource server="…" uri="…">`, `</mcp-resource>`), to draw as chips naming the server. */
export type MarkedText = { kind: "text"; text: string } | { kind: "resource-open"; text: string; server: string; uri: string } | { kind: "resource-close"; text: string };

const RESOURCE_MARKER = /<mcp-resource server="([^"\n]{0,200})" uri="([^"\n]{0,2000})">|<\/mcp-resource>/g;
const unescapeAttribute = (text: string) => text.replace(/&(quot|lt|gt|amp);/g, (_m, name: string) => ({ quot: '"', lt: "<", gt: ">", amp: "&" })[name] ?? "");

export function markMcpResources(text: string): MarkedText[] {
  if (!text.includes("mcp-resource")) return [{ kind: "text", text }];
  const parts: MarkedText[] = [];
  let last = 0;
  for (const match of text.matchAll(RESOURCE_MARKER)) {
    const at = match.index ?? 0;
    if (at > last) parts.push({ kind: "text", text: text.slice(last, at) });
    parts.push(match[1] !== undefined ? { kind: "resource-open", text: match[0], server: unescapeAttribute(match[1]), uri: unescapeAttribute(match[2] ?? "") } : { kind: "resource-close", text: match[0] });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

/** Where a message an MCP prompt gave sits in the prompt text, and what to call it. */
export interface PromptOriginSpan extends Span {
  role: string;
  server: string;
  prompt: string;
}

/**
 * The spans of a step's prompt that hold messages an MCP prompt gave (marked in the step's
 * messages), found in order where the prompt holds their text verbatim; a text the template or
 * the escaping changed is not found, and so not marked (never marked in the wrong place).
 */
export function promptOriginSpans(prompt: string, messages: ReadonlyArray<{ role: string; content: string; source?: { server: string; prompt: string } }>): PromptOriginSpan[] {
  const spans: PromptOriginSpan[] = [];
  let from = 0;
  for (const message of messages) {
    if (!message.source || message.content.length === 0) continue;
    const at = prompt.indexOf(message.content, from);
    if (at < 0) continue;
    spans.push({ start: at, end: at + message.content.length, role: message.role, server: message.source.server, prompt: message.source.prompt });
    from = at + message.content.length;
  }
  return spans;
}

/** A text piece (starting at `start` in the prompt) cut where it enters and leaves the spans. */
export function cutAtSpans(text: string, start: number, spans: readonly PromptOriginSpan[]): Array<{ text: string; span?: PromptOriginSpan; opens: boolean }> {
  const end = start + text.length;
  const parts: Array<{ text: string; span?: PromptOriginSpan; opens: boolean }> = [];
  let at = start;
  for (const span of spans) {
    if (span.end <= at || span.start >= end) continue;
    if (span.start > at) parts.push({ text: text.slice(at - start, span.start - start), opens: false });
    const from = Math.max(span.start, at);
    const to = Math.min(span.end, end);
    parts.push({ text: text.slice(from - start, to - start), span, opens: from === span.start });
    at = to;
  }
  if (at < end) parts.push({ text: text.slice(at - start), opens: false });
  return parts;
}
