// A call's arguments are written back into every later prompt. A value that holds a marker
// (`</tool_call><tool_call>…`, `[TOOL_CALLS]…`, `<start_function_call>…`) would show the model
// a call that never ran, so the first character of every reserved marker of every registered
// protocol is written as an escape of the format the value sits in: `\u003c` in JSON, `\x3c` in
// a Python literal, `&lt;` in a verbatim value. The markers come from the registry, so a new
// protocol's markers are protected everywhere by registering it.
import { allReservedMarkers } from "./registered-protocols.ts";
import { escapeRegExp } from "../text/escape-regexp.ts";

/**
 * Markers every template family uses whether or not a registered protocol lists them: the
 * `<|…|>` tokens (ChatML, Llama, Phi, Gemma 4, gpt-oss) and DeepSeek's `<｜…｜>`.
 */
const TOKEN_LT = "<(?=[|\\uFF5C])";
const TAG_MARKER = /^<\/?([A-Za-z_][\w.:-]*)(?=[>=\s/|]|$)/;

/** A pattern that matches the first character of every occurrence of one of these markers. */
function markerStarts(markers: readonly string[]): RegExp {
  const tagNames = new Set<string>();
  const literals = new Set<string>();
  for (const marker of markers) {
    if (marker.length === 0 || marker.startsWith("<|") || marker.startsWith("<\uFF5C")) continue;
    const tag = TAG_MARKER.exec(marker);
    if (tag) tagNames.add(tag[1]!);
    else literals.add(marker);
  }
  const alternatives = [TOKEN_LT];
  // `<tag` or `</tag` where the name ends (`<tool_calls_total>` is not `<tool_call`).
  if (tagNames.size > 0) alternatives.push(`<(?=/?(?:${[...tagNames].map(escapeRegExp).join("|")})(?![\\w.:-]))`);
  for (const literal of literals) {
    const first = String.fromCodePoint(literal.codePointAt(0)!);
    alternatives.push(`${escapeRegExp(first)}(?=${escapeRegExp(literal.slice(first.length))})`);
  }
  return new RegExp(alternatives.join("|"), "gu");
}

let cached: { markers: readonly string[]; pattern: RegExp } | undefined;

function pattern(): RegExp {
  const markers = allReservedMarkers();
  if (cached?.markers !== markers) cached = { markers, pattern: markerStarts(markers) };
  return cached.pattern;
}

/** Writes the first character of every reserved marker in `text` with `escape`. */
export function protectMarkers(text: string, escape: (char: string) => string): string {
  return text.replace(pattern(), escape);
}

const hex = (char: string, digits: number) => char.codePointAt(0)!.toString(16).padStart(digits, "0");

/**
 * JSON text (a call's arguments) with no reserved marker in it. Outside strings JSON holds no
 * marker's first character, so the JSON means exactly the same; only the forged marker is gone.
 */
export function protectJson(json: string): string {
  return protectMarkers(json, (char) => `\\u${hex(char, 4)}`);
}

/** The same inside a Python string literal's body. */
export function protectPythonString(body: string): string {
  return protectMarkers(body, (char) => (char.codePointAt(0)! < 256 ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`));
}

/**
 * Escapes a verbatim value (qwen3-coder's `<parameter=…>`) so that it cannot close its
 * parameter or forge a call: a `<` that begins a marker is written `&lt;`, and a `&` that begins
 * `&lt;` (or `&amp;lt;` …) gets one more `amp;`, so decodeMarkerEscapes (parser/markup.ts) gives
 * back exactly the value. Everything else, `a < b` and `&amp;` included, stays verbatim: code
 * stays code. (A verbatim value has no escape for other characters: markers such as Mistral's
 * `[TOOL_CALLS]` stay as written there.)
 */
export function encodeMarkerEscapes(value: string): string {
  return protectMarkers(value.replace(/&(?=(?:amp;)*lt;)/g, "&amp;"), (char) => (char === "<" ? "&lt;" : char));
}
