// A tool's result is text the model did not write and we do not control (a web page, a file,
// an error message). Written back into the prompt, it must not be able to close the block it
// sits in, open a tool call, or end the turn. So every marker that could do that — the active
// template's control tokens and every registered protocol's markers — is broken by writing its
// first character as a character reference (`<` as `&lt;`, `[` as `&#91;`). Other text,
// including other tags, is left alone.
import { escapeRegExp } from "../text/escape-regexp.ts";

/**
 * Markers escaped even when the caller names none: the tags of the Qwen-style protocols and the
 * turn markers of common templates. The loop adds the template's and every protocol's own.
 */
export const DEFAULT_RESULT_MARKERS: readonly string[] = [
  "<tool_response>",
  "</tool_response>",
  "<tool_call>",
  "</tool_call>",
  "<tool_name>",
  "<tools>",
  "<think>",
  "</think>",
  "<function=",
  "</function>",
  "<parameter=",
  "</parameter>",
  "<invoke",
  "<start_of_turn>",
  "<end_of_turn>",
  "<s>",
  "</s>",
];

const TAG_MARKER = /^<\/?([A-Za-z_][\w.-]*)(?:[>=\s/]|$)/;

function reference(char: string): string {
  if (char === "<") return "&lt;";
  if (char === "&") return "&amp;";
  return `&#${char.codePointAt(0)};`;
}

/** Breaks a marker found in the text: its first character becomes a character reference. */
function breakMarker(found: string): string {
  const first = String.fromCodePoint(found.codePointAt(0)!);
  return reference(first) + found.slice(first.length);
}

function buildEscaper(markers: readonly string[]): (text: string) => string {
  const tagNames = new Set<string>();
  const literals = new Set<string>();
  for (const marker of markers) {
    if (marker.length === 0) continue;
    const tag = TAG_MARKER.exec(marker);
    if (tag) tagNames.add(tag[1]!);
    else if (!marker.startsWith("<|")) literals.add(marker);
  }
  const alternatives = [
    // Every `<|…` token of ChatML, Llama and Phi templates, listed or not.
    "<(?=\\|)",
  ];
  // `<tag`, `</tag` followed by the end of the name (`>`, `=`, `/`, a blank or the end).
  if (tagNames.size > 0) alternatives.push(`<(?=/?(?:${[...tagNames].map(escapeRegExp).join("|")})(?:[\\s>=/]|$))`);
  // Longest first, so that a marker is broken whole rather than a shorter one inside it.
  const sorted = [...literals].sort((a, b) => b.length - a.length);
  if (sorted.length > 0) alternatives.push(...sorted.map(escapeRegExp));
  const pattern = new RegExp(alternatives.join("|"), "gu");
  return (text) => text.replace(pattern, breakMarker);
}

/**
 * An escaper for exactly these literal markers — no tag names, no whole `<|…` family — for text
 * where other markers must stay as they are (the model's own reply, whose calls are its
 * protocol's markers). Longest first, so that a marker is broken whole.
 */
export function exactMarkerEscaper(markers: readonly string[]): (text: string) => string {
  const sorted = [...new Set(markers.filter((marker) => marker.length > 0))].sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return (text) => text;
  const pattern = new RegExp(sorted.map(escapeRegExp).join("|"), "gu");
  return (text) => text.replace(pattern, breakMarker);
}

const escapers = new Map<string, (text: string) => string>();

/** An escaper for these markers (cached: the loop asks for the same set every step). */
export function toolResultEscaper(markers: readonly string[]): (text: string) => string {
  const all = [...new Set([...DEFAULT_RESULT_MARKERS, ...markers])].sort();
  const key = all.join("\u0000");
  let escaper = escapers.get(key);
  if (!escaper) {
    if (escapers.size > 32) escapers.clear();
    escaper = buildEscaper(all);
    escapers.set(key, escaper);
  }
  return escaper;
}

/** Any opening or closing tag. */
const ANY_TAG = /<(\/?)(?=[A-Za-z_])/g;

/** Escapes every tag: for a protocol where any tag may name a tool (xml), as tools are not known here. */
export function escapeAllTags(text: string): string {
  return text.replace(ANY_TAG, "&lt;$1");
}

/**
 * Escapes `content` so that it is inert inside a tool-result block: the default markers and the
 * tags named in `extraTags`, or "all" tags.
 */
export function escapeToolResult(content: string, extraTags: readonly string[] | "all" = []): string {
  if (extraTags === "all") return escapeAllTags(toolResultEscaper([])(content));
  return toolResultEscaper(extraTags.map((name) => `<${name}>`))(content);
}
