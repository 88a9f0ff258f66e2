// Lenient JSON for tool-call arguments. Small models write JSON that is almost right: trailing
// commas, Python literals, single quotes, a quote inside a string left unescaped, a final brace
// forgotten. We parse strictly first; only when that fails does a hand-written tolerant scanner
// run, and every change it makes is reported so the user sees exactly what was repaired.
// The scanner is a single left-to-right pass (linear in the text); it refuses, with a message,
// whatever it cannot repair without guessing.
import type { Span } from "../types.ts";

/** One change made to the text so that it parses. */
export interface Repair {
  kind: string;
  message: string;
  /** The original snippet. */
  before: string;
  /** What it was read as. */
  after: string;
  /** Where the original snippet is, as offsets into the text given to the parser. */
  span?: Span;
}

export type LenientJsonResult = { ok: true; value: unknown; repairs: Repair[] } | { ok: false; message: string };

/** Deeper nesting than this is refused rather than risking the call stack. */
const MAX_DEPTH = 512;

/** How much context a missing-closer repair shows. */
const TAIL_CONTEXT = 24;

class RepairFailure extends Error {}

export function parseJsonLenient(text: string): LenientJsonResult {
  if (mayBeStrictJson(text)) {
    try {
      return { ok: true, value: JSON.parse(text), repairs: [] };
    } catch {
      // fall through to the tolerant scanner
    }
  }
  const repairs: Repair[] = [];
  const { start, end } = unfence(text, repairs);
  if (repairs.length > 0) {
    try {
      return { ok: true, value: JSON.parse(text.slice(start, end)), repairs };
    } catch {
      // the fenced content needs repairs of its own
    }
  }
  try {
    const value = new TolerantScanner(text, start, end, repairs).parseDocument();
    return { ok: true, value, repairs };
  } catch (error) {
    if (error instanceof RepairFailure) return { ok: false, message: error.message };
    throw error;
  }
}

/**
 * False when JSON.parse must fail on `text`, judged from its first and last characters past
 * whitespace: a value begins with one of `{["-`, a digit, `t`, `f` or `n`, ends with the
 * closer of what it opened (or a digit, `e`, `l` or `"`). A cut-off body (`{`, `{"a": 1,`) is
 * the common case for an unfinished call, and a thrown SyntaxError costs tens of microseconds:
 * 5 MB of `<tool_call>{` are 400,000 of them. True means only "JSON.parse may succeed".
 */
function mayBeStrictJson(text: string): boolean {
  let first = 0;
  while (first < text.length && isJsonBlank(text.charCodeAt(first))) first++;
  if (first === text.length) return false;
  let last = text.length - 1;
  while (isJsonBlank(text.charCodeAt(last))) last--;
  const open = text.charCodeAt(first);
  const close = text.charCodeAt(last);
  if (open === 123) return close === 125; // { … }
  if (open === 91) return close === 93; // [ … ]
  if (open === 34) return close === 34 && last > first; // " … "
  if (open === 45 || (open >= 48 && open <= 57)) return close >= 48 && close <= 57; // a number
  if (open === 116 || open === 102) return close === 101; // true, false
  if (open === 110) return close === 108; // null
  return false;
}

function isJsonBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

const FENCE_OPEN = /^\s*```[ \t]*([A-Za-z0-9_-]*)[ \t]*\r?\n/;
const FENCE_CLOSE = /\r?\n?[ \t]*```\s*$/;

/** Finds the content of a ```json fence wrapping the whole text, if there is one. */
function unfence(text: string, repairs: Repair[]): Span {
  const open = FENCE_OPEN.exec(text);
  if (!open) return { start: 0, end: text.length };
  const rest = text.slice(open[0].length);
  const close = FENCE_CLOSE.exec(rest);
  const end = close ? open[0].length + close.index : text.length;
  const openLine = open[0].trim();
  repairs.push({
    kind: "code-fence",
    message: close ? `removed the ${openLine} code fence around the JSON` : `removed an unclosed ${openLine} code fence before the JSON`,
    before: close ? `${openLine} … \`\`\`` : openLine,
    after: "",
    span: { start: 0, end: text.length },
  });
  return { start: open[0].length, end };
}

const IDENTIFIER_START = /[A-Za-z_$]/;
const IDENTIFIER_PART = /[A-Za-z0-9_$-]/;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const PYTHON_LITERALS: Record<string, { json: string; value: unknown }> = {
  True: { json: "true", value: true },
  False: { json: "false", value: false },
  None: { json: "null", value: null },
};

class TolerantScanner {
  private pos: number;

  constructor(
    private readonly text: string,
    start: number,
    private readonly end: number,
    private readonly repairs: Repair[],
  ) {
    this.pos = start;
  }

  parseDocument(): unknown {
    this.skipWhitespace();
    if (this.pos >= this.end) throw new RepairFailure("no JSON value: the text is empty");
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.pos < this.end) this.handleTrailingText();
    return value;
  }

  private parseValue(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new RepairFailure(`JSON nested deeper than ${MAX_DEPTH} levels`);
    const ch = this.text[this.pos];
    if (ch === "{") return this.parseObject(depth);
    if (ch === "[") return this.parseArray(depth);
    if (ch === '"') return this.parseString('"');
    if (ch === "'") return this.parseSingleQuoted();
    if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) return this.parseNumber();
    if (ch !== undefined && IDENTIFIER_START.test(ch)) return this.parseLiteral();
    throw this.unexpected("a value");
  }

  private parseObject(depth: number): Record<string, unknown> {
    const open = this.pos;
    this.pos++; // {
    const result: Record<string, unknown> = {};
    let afterComma = -1;
    let members = 0;
    for (;;) {
      this.skipWhitespace();
      if (this.pos >= this.end) {
        this.closeAtEnd("}", open, afterComma);
        return result;
      }
      const ch = this.text[this.pos];
      if (ch === "}") {
        if (afterComma >= 0) this.reportTrailingComma(afterComma);
        this.pos++;
        return result;
      }
      if (members > 0 && afterComma < 0) this.missingComma("}");
      const key = this.parseKey();
      this.skipWhitespace();
      if (this.text[this.pos] !== ":") throw this.unexpected(`":" after the key ${JSON.stringify(key)}`);
      this.pos++;
      this.skipWhitespace();
      if (this.pos >= this.end) throw new RepairFailure(`the value of ${JSON.stringify(key)} is missing: the text ends after its ":"`);
      // defineProperty keeps a "__proto__" key an own property instead of changing the prototype.
      Object.defineProperty(result, key, { value: this.parseValue(depth + 1), enumerable: true, writable: true, configurable: true });
      members++;
      afterComma = -1;
      this.skipWhitespace();
      if (this.text[this.pos] === ",") {
        afterComma = this.pos;
        this.pos++;
      }
    }
  }

  private parseArray(depth: number): unknown[] {
    const open = this.pos;
    this.pos++; // [
    const result: unknown[] = [];
    let afterComma = -1;
    for (;;) {
      this.skipWhitespace();
      if (this.pos >= this.end) {
        this.closeAtEnd("]", open, afterComma);
        return result;
      }
      const ch = this.text[this.pos];
      if (ch === "]") {
        if (afterComma >= 0) this.reportTrailingComma(afterComma);
        this.pos++;
        return result;
      }
      if (result.length > 0 && afterComma < 0) this.missingComma("]");
      result.push(this.parseValue(depth + 1));
      afterComma = -1;
      this.skipWhitespace();
      if (this.text[this.pos] === ",") {
        afterComma = this.pos;
        this.pos++;
      }
    }
  }

  /** Two values with nothing between them: a forgotten comma, but only where the next one clearly starts. */
  private missingComma(closer: string): void {
    const ch = this.text[this.pos];
    if (ch !== '"' && ch !== "'" && ch !== "{" && ch !== "[") throw this.unexpected(`"," or "${closer}"`);
    const before = this.text.slice(Math.max(0, this.pos - 8), this.pos + 1);
    this.repairs.push({
      kind: "missing-comma",
      message: `inserted a missing "," at offset ${this.pos}`,
      before,
      after: `${before.slice(0, -1).trimEnd()}, ${ch}`,
      span: { start: this.pos, end: this.pos },
    });
  }

  private reportTrailingComma(comma: number): void {
    const before = this.text.slice(comma, this.pos + 1);
    this.repairs.push({
      kind: "trailing-comma",
      message: `removed a trailing comma before "${this.text[this.pos]}"`,
      before,
      after: before.slice(1),
      span: { start: comma, end: this.pos + 1 },
    });
  }

  /** The text ended inside an object or array: close it, unless a member was cut off. */
  private closeAtEnd(closer: "}" | "]", open: number, afterComma: number): void {
    if (afterComma >= 0) {
      this.repairs.push({
        kind: "trailing-comma",
        message: "removed a trailing comma at the end of the text",
        before: ",",
        after: "",
        span: { start: afterComma, end: afterComma + 1 },
      });
    }
    const tail = this.text.slice(Math.max(open, this.end - TAIL_CONTEXT), this.end);
    this.repairs.push({
      kind: closer === "}" ? "missing-closing-brace" : "missing-closing-bracket",
      message: `added the missing "${closer}" closing the ${closer === "}" ? "object" : "array"} opened at offset ${open}`,
      before: tail,
      after: tail + closer,
      span: { start: this.end, end: this.end },
    });
  }

  private parseKey(): string {
    const ch = this.text[this.pos];
    if (ch === '"') return this.parseString('"');
    if (ch === "'") return this.parseSingleQuoted();
    if (ch !== undefined && IDENTIFIER_START.test(ch)) {
      const start = this.pos;
      while (this.pos < this.end && IDENTIFIER_PART.test(this.text[this.pos] as string)) this.pos++;
      const key = this.text.slice(start, this.pos);
      this.repairs.push({
        kind: "unquoted-key",
        message: `quoted the key ${key}`,
        before: key,
        after: JSON.stringify(key),
        span: { start, end: this.pos },
      });
      return key;
    }
    throw this.unexpected("a key");
  }

  private parseSingleQuoted(): string {
    const start = this.pos;
    const value = this.parseString("'");
    this.repairs.push({
      kind: "single-quotes",
      message: "replaced single quotes around a string with double quotes",
      before: this.text.slice(start, this.pos),
      after: JSON.stringify(value),
      span: { start, end: this.pos },
    });
    return value;
  }

  /**
   * A string up to its closing quote. A quote that is not followed (after spaces) by one of
   * , } ] : or the end of the text cannot close the string, so it is read as a quote inside it.
   */
  private parseString(quote: '"' | "'"): string {
    const start = this.pos;
    this.pos++;
    let value = "";
    let chunkStart = this.pos;
    const innerQuotes: number[] = [];
    let valueBeforeFirstInnerQuote = "";
    let repairsBeforeFirstInnerQuote = 0;
    const controls: number[] = [];
    for (;;) {
      if (this.pos >= this.end) {
        if (innerQuotes.length === 0) {
          throw new RepairFailure(`unterminated string starting at offset ${start}: ${clip(this.text.slice(start, this.end))}`);
        }
        // No quote could close the string by the rule above, so the rule guessed wrong: let the
        // first quote close it, and whatever follows fail (or parse) on its own terms.
        const firstInner = innerQuotes[0] as number;
        this.repairs.length = repairsBeforeFirstInnerQuote;
        this.pos = firstInner + 1;
        this.reportControls(start, controls.filter((at) => at < firstInner), valueBeforeFirstInnerQuote);
        return valueBeforeFirstInnerQuote;
      }
      const ch = this.text[this.pos] as string;
      if (ch === quote) {
        if (this.closesString(this.pos + 1)) {
          value += this.text.slice(chunkStart, this.pos);
          this.pos++;
          break;
        }
        if (innerQuotes.length === 0) {
          valueBeforeFirstInnerQuote = value + this.text.slice(chunkStart, this.pos);
          repairsBeforeFirstInnerQuote = this.repairs.length;
        }
        innerQuotes.push(this.pos);
        this.pos++;
        continue;
      }
      if (ch === "\\") {
        value += this.text.slice(chunkStart, this.pos);
        value += this.parseEscape(quote);
        chunkStart = this.pos;
        continue;
      }
      if (ch < " ") controls.push(this.pos);
      this.pos++;
    }
    const literal = this.text.slice(start, this.pos);
    // In a single-quoted string the single-quotes repair already shows the rewrite.
    if (innerQuotes.length > 0 && quote === '"') {
      this.repairs.push({
        kind: "unescaped-quote",
        message: `escaped ${innerQuotes.length} unescaped quote${innerQuotes.length > 1 ? "s" : ""} inside a string`,
        before: literal,
        after: JSON.stringify(value),
        span: { start, end: this.pos },
      });
    }
    this.reportControls(start, controls, value);
    return value;
  }

  private reportControls(start: number, controls: number[], value: string): void {
    if (controls.length === 0) return;
    this.repairs.push({
      kind: "control-character",
      message: `escaped ${controls.length} raw control character${controls.length > 1 ? "s" : ""} (such as a line break) inside a string`,
      before: this.text.slice(start, this.pos),
      after: JSON.stringify(value),
      span: { start, end: this.pos },
    });
  }

  private closesString(from: number): boolean {
    let i = from;
    while (i < this.end && isWhitespace(this.text.charCodeAt(i))) i++;
    if (i >= this.end) return true;
    const next = this.text[i];
    return next === "," || next === "}" || next === "]" || next === ":";
  }

  private parseEscape(quote: '"' | "'"): string {
    const start = this.pos;
    const ch = this.text[this.pos + 1];
    if (ch === undefined || this.pos + 1 >= this.end) throw new RepairFailure(`the text ends inside an escape sequence at offset ${start}`);
    if (ch === "u") {
      const hex = this.text.slice(this.pos + 2, this.pos + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new RepairFailure(`invalid \\u escape at offset ${start}: ${clip(this.text.slice(start, start + 6))}`);
      this.pos += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    this.pos += 2;
    const simple = SIMPLE_ESCAPES[ch];
    if (simple !== undefined) return simple;
    if (ch !== quote) {
      this.repairs.push({
        kind: "invalid-escape",
        message: `read the invalid escape \\${ch} as ${JSON.stringify(ch)}`,
        before: `\\${ch}`,
        after: JSON.stringify(ch).slice(1, -1),
        span: { start, end: this.pos },
      });
    }
    return ch;
  }

  private parseNumber(): number {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match || match[0] === "-") throw this.unexpected("a number");
    const end = this.pos + match[0].length;
    const next = this.text[end];
    if (end < this.end && next !== undefined && /[0-9A-Za-z_.]/.test(next)) throw this.unexpected("a number", end);
    this.pos = end;
    return Number(match[0]);
  }

  private parseLiteral(): unknown {
    const start = this.pos;
    while (this.pos < this.end && /[A-Za-z0-9_]/.test(this.text[this.pos] as string)) this.pos++;
    const word = this.text.slice(start, this.pos);
    if (word === "true") return true;
    if (word === "false") return false;
    if (word === "null") return null;
    const python = PYTHON_LITERALS[word];
    if (python) {
      this.repairs.push({
        kind: "python-literal",
        message: `read the Python literal ${word} as ${python.json}`,
        before: word,
        after: python.json,
        span: { start, end: this.pos },
      });
      return python.value;
    }
    throw new RepairFailure(`unexpected word ${JSON.stringify(clip(word))} at offset ${start}: expected a value`);
  }

  /** Stray closing brackets after the value (a common slip) are dropped; anything else is refused. */
  private handleTrailingText(): void {
    const start = this.pos;
    const rest = this.text.slice(start, this.end);
    if (/^[\s}\]]+$/.test(rest)) {
      this.repairs.push({
        kind: "extra-closing-bracket",
        message: `removed extra closing bracket(s) after the JSON value: ${rest.trim()}`,
        before: rest,
        after: "",
        span: { start, end: this.end },
      });
      this.pos = this.end;
      return;
    }
    throw new RepairFailure(`unexpected text after the JSON value at offset ${start}: ${clip(rest)}`);
  }

  private skipWhitespace(): void {
    while (this.pos < this.end && isWhitespace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  private unexpected(expected: string, at = this.pos): RepairFailure {
    if (at >= this.end) return new RepairFailure(`the text ends where ${expected} was expected`);
    return new RepairFailure(`unexpected ${JSON.stringify(this.text[at])} at offset ${at}: expected ${expected} (near ${clip(this.text.slice(Math.max(0, at - 12), at + 12))})`);
  }
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
