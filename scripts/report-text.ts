// What `npm run eval-report` prints comes partly from results files, which anyone can write: a
// model id, a machine's name, a protocol or category, a file name. Printed as they are, an ESC
// sequence in one would drive the terminal (retitle it, hide lines, fake output), and HTML or a
// `javascript:` link would go live in the Markdown meant for the docs. Every such text is made
// inert here: each terminal control character (C0 with the newline, DEL, C1), each bidi control,
// and each character that opens HTML, a link, a code span or a table cell (`<` `>` `[` `]` `` ` ``
// `|`, and `\`, which could forge an escape) is written as its code, `\u{1b}`; any other text is
// left as it was (`Intel(R) Xeon(R)`, `q4_1` stay readable: without `[` `]` no link can form).

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069<>[\]`|\\]/g;

/** `text` with terminal controls and Markdown/HTML characters written as `\u{…}`. */
export function inertReportText(text: string): string {
  return text.replace(ACTIVE, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);
}

/** Every string in `value` made inert (objects and arrays walked), except under the keys in `skip`. */
export function inertReportValue<T>(value: T, skip: ReadonlySet<string> = new Set()): T {
  if (typeof value === "string") return inertReportText(value) as T;
  if (Array.isArray(value)) return value.map((item) => inertReportValue(item, skip)) as T;
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) copy[inertReportText(key)] = skip.has(key) ? field : inertReportValue(field, skip);
    return copy as T;
  }
  return value;
}
