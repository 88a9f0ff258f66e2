// Reads pythonic tool calls, `[get_weather(location="Paris", days=2), get_time(tz='UTC')]`, the
// form Llama 3.2/4 and many small models write: keyword arguments with Python literals (either
// quote style, numbers, True/False/None, lists, tuples, dicts). A recursive-descent reader with
// a depth limit; it never evaluates anything.
import type { Repair } from "../repair/json-repair.ts";
import type { BodyReading, CandidateOutcome } from "./call-candidate.ts";
import type { BareCallTracker } from "./call-syntax.ts";

/** Deeper nesting than this is refused rather than risking the call stack. */
const MAX_DEPTH = 64;

class PythonSyntaxError extends Error {}

class Reader {
  pos = 0;
  constructor(
    readonly text: string,
    /** Whether a raw line break may stand inside a quoted string (LFM2 writes them so). */
    readonly multilineStrings = false,
  ) {}

  fail(what: string): never {
    const near = this.text.slice(this.pos, this.pos + 20);
    throw new PythonSyntaxError(`${what} at character ${this.pos}${near ? ` (near ${JSON.stringify(near)})` : " (at the end)"}`);
  }

  blanks(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  peek(): string {
    return this.text[this.pos] ?? "";
  }

  eat(char: string): boolean {
    this.blanks();
    if (this.text[this.pos] !== char) return false;
    this.pos++;
    return true;
  }

  expect(char: string, what: string): void {
    if (!this.eat(char)) this.fail(`expected ${what}`);
  }

  name(): string {
    this.blanks();
    const m = /[A-Za-z_][\w.]*/y;
    m.lastIndex = this.pos;
    const found = m.exec(this.text);
    if (!found) this.fail("expected a name");
    this.pos += found[0].length;
    return found[0];
  }

  /**
   * One call. A call whose arguments do not read (a variable, `b'…'`, a positional argument)
   * fails alone, as vLLM and SGLang read a list: its outcome is the error, and reading goes on
   * after its closing parenthesis. Only when that parenthesis is not there (the list was cut off
   * or is broken past repair) does the error end the whole list.
   */
  call(): CandidateOutcome {
    const name = this.name();
    this.expect("(", `"(" after ${name}`);
    const open = this.pos - 1;
    try {
      return { ok: true, call: { name, arguments: this.callArguments(name), repairs: [] } };
    } catch (error) {
      if (!(error instanceof PythonSyntaxError)) throw error;
      const end = closingParenthesis(this.text, open);
      if (end < 0) throw error;
      this.pos = end + 1;
      return { ok: false, kind: "invalid-call", name, message: `the call of ${name} is not a pythonic call: ${error.message}` };
    }
  }

  private callArguments(name: string): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    this.blanks();
    while (!this.eat(")")) {
      const key = this.name();
      if (!this.eat("=")) this.fail(`expected "=" after ${key} (only keyword arguments are allowed)`);
      args[key] = this.value(1);
      if (!this.eat(",")) {
        this.expect(")", `"," or ")" in the call of ${name}`);
        break;
      }
    }
    return args;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail("nested too deep");
    this.blanks();
    const c = this.peek();
    if (c === "'" || c === '"') return this.string();
    if (c === "[" || c === "(") return this.sequence(c === "[" ? "]" : ")", depth);
    if (c === "{") return this.dict(depth);
    const word = /-?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[A-Za-z_]\w*/y;
    word.lastIndex = this.pos;
    const m = word.exec(this.text);
    if (!m) this.fail("expected a value");
    this.pos += m[0].length;
    const literal = m[0];
    if (literal === "True" || literal === "true") return true;
    if (literal === "False" || literal === "false") return false;
    if (literal === "None" || literal === "null") return null;
    const number = Number(literal.replace(/_/g, ""));
    if (/^[-\d.]/.test(literal) && Number.isFinite(number)) return number;
    this.pos -= literal.length;
    return this.fail(`${literal} is not a literal (variables and expressions are not allowed)`);
  }

  sequence(close: string, depth: number): unknown[] {
    this.pos++;
    const items: unknown[] = [];
    while (!this.eat(close)) {
      items.push(this.value(depth + 1));
      if (!this.eat(",")) {
        this.expect(close, `"," or "${close}"`);
        break;
      }
    }
    return items;
  }

  dict(depth: number): Record<string, unknown> {
    this.pos++;
    const object: Record<string, unknown> = {};
    while (!this.eat("}")) {
      const key = this.value(depth + 1);
      if (typeof key !== "string" && typeof key !== "number") this.fail("a dict key must be a string or a number");
      this.expect(":", '":" after a dict key');
      object[String(key)] = this.value(depth + 1);
      if (!this.eat(",")) {
        this.expect("}", '"," or "}"');
        break;
      }
    }
    return object;
  }

  string(): string {
    const quote = this.text[this.pos]!;
    const triple = this.text.startsWith(quote.repeat(3), this.pos);
    const end = triple ? quote.repeat(3) : quote;
    this.pos += end.length;
    let out = "";
    for (;;) {
      if (this.pos >= this.text.length) this.fail("a string is not closed");
      if (this.text.startsWith(end, this.pos)) {
        this.pos += end.length;
        return out;
      }
      const c = this.text[this.pos]!;
      if (c === "\\") {
        out += this.escape();
        continue;
      }
      if (c === "\n" && !triple && !this.multilineStrings) this.fail("a line break inside a string");
      out += c;
      this.pos++;
    }
  }

  escape(): string {
    const c = this.text[this.pos + 1] ?? "";
    const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0", "\n": "" };
    if (c in simple) {
      this.pos += 2;
      return simple[c]!;
    }
    const digits = c === "x" ? 2 : c === "u" ? 4 : c === "U" ? 8 : 0;
    if (digits > 0) {
      const hex = this.text.slice(this.pos + 2, this.pos + 2 + digits);
      const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === digits ? parseInt(hex, 16) : NaN;
      if (Number.isFinite(code) && code <= 0x10ffff) {
        this.pos += 2 + digits;
        return String.fromCodePoint(code);
      }
    }
    // An unknown escape keeps its backslash, as Python does.
    this.pos += 1;
    return "\\";
  }
}

/**
 * Where the `)` that closes the parenthesis at `open` is (brackets counted outside strings of
 * either quote), or -1 when the text ends first.
 */
function closingParenthesis(text: string, open: number): number {
  let depth = 0;
  let quote = "";
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && --depth === 0) return c === ")" ? i : -1;
  }
  return -1;
}

/**
 * Reads `[call, …]` (or one call without the brackets, as a repair). `multilineStrings`: a raw
 * line break inside a quoted string is part of it (LFM2's calls between their tags).
 */
export function readPythonicCalls(body: string, options: { multilineStrings?: boolean } = {}): BodyReading {
  const reader = new Reader(body, options.multilineStrings);
  const repairs: Repair[] = [];
  const outcomes: CandidateOutcome[] = [];
  try {
    if (reader.eat("[")) {
      while (!reader.eat("]")) {
        outcomes.push(reader.call());
        if (!reader.eat(",")) {
          reader.expect("]", '"," or "]" between calls');
          break;
        }
      }
    } else {
      outcomes.push(reader.call());
      repairs.push({ kind: "missing-brackets", message: "read a call written without the [ ] around the list", before: "", after: "[ ]" });
    }
  } catch (error) {
    if (!(error instanceof PythonSyntaxError)) throw error;
    // Failing at the very end means the list was cut off, not written wrong.
    if (reader.pos >= body.trimEnd().length) return { ok: false, kind: "unfinished-tool-call", message: `the call list was cut off: ${error.message}` };
    return { ok: false, kind: "invalid-call", message: `the call is not a pythonic call list: ${error.message}` };
  }
  if (outcomes.length === 0) return { ok: false, kind: "missing-tool-name", message: "the call list is empty" };
  // Text after the list (inside the tags) is the model's text, not the call's.
  reader.blanks();
  return { ok: true, outcomes, repairs, complete: true, ...(reader.pos < body.length ? { textAfter: reader.pos } : {}) };
}

/** The tool a pythonic call list begins with, if it names one of `tools`. */
export function firstCallNamesTool(text: string, tools: readonly { name: string }[]): boolean {
  const name = /^\s*\[?\s*([A-Za-z_][\w.]*)\s*\(/.exec(text)?.[1];
  return name !== undefined && tools.some((t) => t.name === name);
}

const enum Phase {
  /** Before the `[` that opens the list. */
  Open,
  /** After `[` or a `,` between calls: blanks, then a name. */
  BeforeName,
  Name,
  /** After a name: blanks, then `(`. */
  AfterName,
  /** Inside a call's parentheses. */
  Args,
  /** After a call's `)`: `,` and the next call, or the `]` that ends the list. */
  AfterCall,
  /** The list ended: the next character is not the call's. */
  Done,
}

const OPENERS: Record<number, number> = { 40: 41, 91: 93, 123: 125 };

function isBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * Follows a pythonic call list, `[name(…), name(…)]`, which may stand anywhere in text (as
 * SGLang reads it after prose). Until `[name(` it may be prose (`[see above]`): then it is
 * ruled out at once. From there a call has surely begun: it ends at the `]` that closes the
 * list. Brackets are tracked by kind outside strings; a closing bracket of the wrong kind
 * (`[f(x=1])]`) still closes, so the list ends where the model meant it to, and the reader
 * reports the mismatch.
 */
export class PythonicCallTracker implements BareCallTracker {
  private phase: Phase = Phase.Open;
  /** The closing brackets expected, innermost last; the call's own `)` is the first. */
  private readonly closers: number[] = [];
  private quote = 0;
  private escaped = false;
  private broken = false;
  private fed = 0;
  private begun = false;
  private length = -1;

  get complete(): boolean {
    return this.length >= 0;
  }

  get committed(): boolean {
    return this.begun && this.length < 0;
  }

  get callLength(): number {
    return this.length;
  }

  feed(text: string, from: number, to: number): number {
    for (let k = from; k < to; k++) {
      if (!this.step(text.charCodeAt(k))) return k;
      this.fed++;
    }
    return -1;
  }

  private step(c: number): boolean {
    switch (this.phase) {
      case Phase.Open:
        if (c !== 91) return false;
        this.phase = Phase.BeforeName;
        return true;
      case Phase.BeforeName:
        if (isBlank(c)) return true;
        if (isNameStart(c)) {
          this.phase = Phase.Name;
          return true;
        }
        // `[f(), ]`: a trailing comma before the end of the list.
        if (c === 93 && this.begun) return this.finish();
        return this.stop();
      case Phase.Name:
        if (isNameStart(c) || (c >= 48 && c <= 57) || c === 46) return true;
        this.phase = Phase.AfterName;
        return this.step(c);
      case Phase.AfterName:
        if (isBlank(c)) return true;
        if (c !== 40) return this.stop();
        this.begun = true;
        this.closers.push(41);
        this.phase = Phase.Args;
        return true;
      case Phase.Args:
        if (this.quote !== 0) {
          if (this.escaped) this.escaped = false;
          else if (c === 92) this.escaped = true;
          else if (c === this.quote || c === 10) this.quote = 0;
          return true;
        }
        if (c === 34 || c === 39) this.quote = c;
        else if (c in OPENERS) this.closers.push(OPENERS[c]!);
        else if (c === 41 || c === 93 || c === 125) {
          if (this.closers.pop() !== c) this.broken = true;
          if (this.closers.length === 0) this.phase = Phase.AfterCall;
        }
        return true;
      case Phase.AfterCall:
        if (isBlank(c)) return true;
        if (c === 44) {
          this.phase = Phase.BeforeName;
          return true;
        }
        if (c === 93) return this.finish();
        // After a mismatched bracket, the closers the model wrote for it belong to the call.
        if (this.broken && (c === 41 || c === 125)) return true;
        return this.stop();
      case Phase.Done:
        return false;
    }
  }

  /** The `]` that ends the list. */
  private finish(): boolean {
    this.phase = Phase.Done;
    this.length = this.fed + 1;
    return true;
  }

  /** Not a call list from here on: before `[name(` it was prose; after it, a call that broke off ends here. */
  private stop(): boolean {
    if (this.begun) this.length = this.fed;
    this.phase = Phase.Done;
    return false;
  }
}
