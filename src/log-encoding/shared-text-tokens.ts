// A delta's token probabilities as the shared-text codec writes them. Written as recorded, each
// token with its top 5 alternatives took about 330 characters ({text, p, id} six times) for
// about 4 characters of output: an exported log with them was 27 times the size without. A
// token whose probabilities are as the loop records them now (three significant digits) is
// packed into one string (packed-token.ts, about 20 characters); any other — exact doubles of
// an older recording — is one array,
//   [t, p, id, alternative…]   each alternative either  −1  or  a, p
// t: the token's text: a whole number n for the next n characters of the delta's text (the
//    tokens of a delta usually spell it), else the text as a string;
// p: a probability: a number ≥ 0 as recorded, or −1−n for the step's n-th distinct probability;
// id: the token's id, or null when the engine gave none;
// −1: an alternative that is the token itself (text, id and p: a greedy token is its first);
// a: an alternative's text and id: n ≥ 0 for the step's n-th distinct alternative, a string (no
//    id) or [text, id] for one not seen before in the step.
// A delta's tokens are a list of those; a delta of one token that is its whole text (a server
// streams one token per event) is the one token without its t: [p, id, alternative…].
// Every value is written exactly (a number as JSON writes it, which reads back the same double),
// so decoding gives back the very tokens.
//
// What "the step's n-th" means is the same for writer and reader: each step keeps the distinct
// alternatives and probabilities of its tokens in the order they first appear, taken from the
// events themselves (`noteTokens`), however those were written, so a log written before this
// encoding, or partly in it, reads the same.
import type { TokenAlternative, TokenProbability } from "toolcall-middleware/types.ts";
import { PackedTokenError, packToken, unpackToken } from "./packed-token.ts";

/** Why a compact token cannot be read; the message names the token and the part. */
export class TokenCodeError extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

/** An alternative exactly as the schema shapes it: {text, p, id?}, p a finite number, id a safe integer. */
function isPlainAlternative(value: unknown): value is TokenAlternative {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ["text", "p", "id"]) &&
    typeof value.text === "string" &&
    typeof value.p === "number" &&
    Number.isFinite(value.p) &&
    value.p >= 0 &&
    (!("id" in value) || Number.isSafeInteger(value.id))
  );
}

function isPlainToken(value: unknown): value is TokenProbability {
  return isRecord(value) && hasOnlyKeys(value, ["text", "p", "id", "top"]) && isPlainAlternative({ text: value.text, p: value.p, ...("id" in value ? { id: value.id } : {}) }) && Array.isArray(value.top) && value.top.every(isPlainAlternative);
}

/** The distinct alternatives (text and id) and probabilities of a step's tokens, in order of first appearance. */
export class StepTokenTables {
  readonly alternatives: { text: string; id?: number }[] = [];
  private readonly alternativeIndex = new Map<string, number>();
  readonly numbers: number[] = [];
  private readonly numberIndex = new Map<number, number>();

  alternativeRef(text: string, id: number | undefined): number | undefined {
    return this.alternativeIndex.get(alternativeKey(text, id));
  }

  numberRef(p: number): number | undefined {
    const n = this.numberIndex.get(p);
    // The map takes -0 for 0; a reference stands only for the very same number.
    return n !== undefined && Object.is(this.numbers[n], p) ? n : undefined;
  }

  noteAlternative(text: string, id: number | undefined): void {
    const key = alternativeKey(text, id);
    if (this.alternativeIndex.has(key)) return;
    this.alternativeIndex.set(key, this.alternatives.push(id === undefined ? { text } : { text, id }) - 1);
  }

  noteNumber(p: number): void {
    if (this.numberIndex.has(p)) return;
    this.numberIndex.set(p, this.numbers.push(p) - 1);
  }
}

function alternativeKey(text: string, id: number | undefined): string {
  return `${id === undefined ? "" : id}\u0000${text}`;
}

/**
 * Adds what a delta's tokens hold to the step's tables, in the order the encoding walks them
 * (each token's p, then each alternative's text and id, then its p). Whatever is not shaped as
 * recorded is passed over (the schema check says what is wrong with it).
 */
export function noteTokens(tables: StepTokenTables, tokens: unknown): void {
  runSteps(noteTokensSteps(tables, tokens, Number.POSITIVE_INFINITY));
}

/** `noteTokens`, pausing (a `yield`) after every `every` tokens. */
export function* noteTokensSteps(tables: StepTokenTables, tokens: unknown, every: number): Generator<void, void> {
  if (!Array.isArray(tokens)) return;
  for (const [i, token] of tokens.entries()) {
    if (i > 0 && i % every === 0) yield;
    if (!isRecord(token)) continue;
    if (typeof token.p === "number" && Number.isFinite(token.p)) tables.noteNumber(token.p);
    if (!Array.isArray(token.top)) continue;
    for (const alternative of token.top) {
      if (!isPlainAlternative(alternative)) continue;
      tables.noteAlternative(alternative.text, alternative.id);
      tables.noteNumber(alternative.p);
    }
  }
}

/**
 * Runs a stepwise form (`encodeTokensSteps` and the like) to its end at once. The stepwise forms
 * let a caller give the page a turn inside one delta's tokens: a delta may hold 250,000 tokens
 * with alternatives, which take over a second to write or read on a busy machine.
 */
export function runSteps<T>(steps: Generator<void, T>): T {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

function sameAlternative(a: TokenAlternative, b: TokenAlternative): boolean {
  return a.text === b.text && Object.is(a.p, b.p) && "id" in a === "id" in b && a.id === b.id;
}

function sameToken(a: TokenProbability, b: TokenProbability): boolean {
  return sameAlternative(a, b) && a.top.length === b.top.length && a.top.every((x, i) => sameAlternative(x, b.top[i]!));
}

/** The token packed (packed-token.ts) where that form holds it exactly: checked by reading it back. */
function packed(tables: StepTokenTables, token: TokenProbability, deltaText: string, from: number, whole: boolean): string | undefined {
  if (!whole && (token.text === "" || !deltaText.startsWith(token.text, from))) return undefined;
  const code = packToken(tables, token, !whole);
  if (code === undefined) return undefined;
  try {
    return sameToken(unpackToken(tables, code, { text: deltaText, from, whole }, () => {}).token, token) ? code : undefined;
  } catch (error) {
    if (error instanceof PackedTokenError) return undefined;
    throw error;
  }
}

/** A delta's tokens as written; undefined when one is not shaped as recorded (it is then written as it is). */
export function encodeTokens(tables: StepTokenTables, deltaText: string, tokens: readonly unknown[]): unknown {
  return runSteps(encodeTokensSteps(tables, deltaText, tokens, Number.POSITIVE_INFINITY));
}

/**
 * `encodeTokens`, pausing (a `yield`) after every `every` tokens checked and every `every`
 * written; the tables are touched only once every token is found shaped as recorded.
 */
export function* encodeTokensSteps(tables: StepTokenTables, deltaText: string, tokens: readonly unknown[], every: number): Generator<void, unknown> {
  for (const [i, token] of tokens.entries()) {
    if (i > 0 && i % every === 0) yield;
    if (!isPlainToken(token)) return undefined;
  }
  const out: unknown[] = [];
  let cursor = 0;
  const whole = tokens.length === 1 && (tokens[0] as TokenProbability).text === deltaText && deltaText !== "";
  const number = (p: number) => {
    const n = tables.numberRef(p);
    tables.noteNumber(p);
    return n === undefined ? p : -1 - n;
  };
  for (const [i, token] of (tokens as TokenProbability[]).entries()) {
    if (i > 0 && i % every === 0) yield;
    const pack = packed(tables, token, deltaText, cursor, whole);
    if (pack !== undefined) {
      out.push(pack);
      cursor += token.text.length;
      noteTokens(tables, [token]);
      continue;
    }
    let t: string | number = token.text;
    if (token.text !== "" && deltaText.startsWith(token.text, cursor)) {
      t = token.text.length;
      cursor += token.text.length;
    }
    const code: unknown[] = [t, number(token.p), token.id ?? null];
    for (const alternative of token.top) {
      const n = tables.alternativeRef(alternative.text, alternative.id);
      tables.noteAlternative(alternative.text, alternative.id);
      if (alternative.text === token.text && alternative.id === token.id && Object.is(alternative.p, token.p)) {
        code.push(-1);
        tables.noteNumber(alternative.p);
        continue;
      }
      code.push(n ?? (alternative.id === undefined ? alternative.text : [alternative.text, alternative.id]));
      code.push(number(alternative.p));
    }
    out.push(code);
  }
  if (!whole) return out;
  return typeof out[0] === "string" ? out[0] : (out[0] as unknown[]).slice(1);
}

/**
 * The tokens `encodeTokens` wrote (an element written as recorded, from an older log, is taken
 * as it is). `spend` is charged for the text each reference stands for. Throws TokenCodeError.
 */
export function decodeTokens(tables: StepTokenTables, deltaText: string, encoded: unknown, spend: (chars: number) => void): unknown[] {
  return runSteps(decodeTokensSteps(tables, deltaText, encoded, spend, Number.POSITIVE_INFINITY));
}

/** `decodeTokens`, pausing (a `yield`) after every `every` tokens read. */
export function* decodeTokensSteps(tables: StepTokenTables, deltaText: string, encoded: unknown, spend: (chars: number) => void, every: number): Generator<void, unknown[]> {
  const unpack = (code: string, i: number, from: number, whole: boolean) => {
    try {
      const read = unpackToken(tables, code, { text: deltaText, from, whole }, spend);
      noteTokens(tables, [read.token]);
      return read;
    } catch (error) {
      if (error instanceof PackedTokenError) throw new TokenCodeError(`token ${i}: ${error.message}`);
      throw error;
    }
  };
  // One packed token spelling the whole delta.
  if (typeof encoded === "string") {
    if (deltaText === "") throw new TokenCodeError("token 0: a packed token spelling the delta, but the delta has no text");
    return [unpack(encoded, 0, 0, true).token];
  }
  if (!Array.isArray(encoded)) throw new TokenCodeError(`"tokens" must be a list`);
  // One token spelling the whole delta, written without its text.
  const whole = typeof encoded[0] === "number";
  const codes: unknown[] = whole ? [[deltaText.length, ...encoded]] : encoded;
  const out: unknown[] = [];
  let cursor = 0;
  for (const [i, code] of codes.entries()) {
    if (i > 0 && i % every === 0) yield;
    if (typeof code === "string") {
      const read = unpack(code, i, cursor, false);
      cursor += read.spelled;
      out.push(read.token);
      continue;
    }
    if (!Array.isArray(code)) {
      noteTokens(tables, [code]);
      out.push(code);
      continue;
    }
    const fail = (what: string): never => {
      throw new TokenCodeError(`token ${i}: ${what}`);
    };
    const number = (value: unknown, what: string): number => {
      if (typeof value !== "number" || !Number.isFinite(value)) return fail(`${what} must be a number`);
      if (value >= 0) {
        tables.noteNumber(value);
        return value;
      }
      const n = -1 - value;
      if (!Number.isSafeInteger(n) || n >= tables.numbers.length) {
        return fail(`${what} refers to probability number ${n}, but the step has ${tables.numbers.length} before it`);
      }
      return tables.numbers[n]!;
    };
    if (code.length < 3) fail("is [text, p, id, alternative…]");
    const [t, p, id] = code as unknown[];
    let text: string;
    if (typeof t === "string") text = t;
    else if (Number.isSafeInteger(t) && (t as number) > 0 && (t as number) <= deltaText.length - cursor) {
      text = deltaText.slice(cursor, cursor + (t as number));
      cursor += t as number;
    } else text = fail(`its text is the next ${String(t)} characters of the delta, which has ${deltaText.length - cursor} left`);
    if (id !== null && !Number.isSafeInteger(id)) fail("its id must be a whole number or null");
    const token: TokenProbability = { text, p: number(p, "its p"), ...(id === null ? {} : { id: id as number }), top: [] };
    for (let k = 3; k < code.length; k += 2) {
      const a = code[k] as unknown;
      const what = `alternative ${token.top.length}`;
      let alternative: { text: string; id?: number };
      if (a === -1) {
        spend(token.text.length);
        tables.noteAlternative(token.text, token.id);
        tables.noteNumber(token.p);
        token.top.push({ text: token.text, p: token.p, ...(token.id === undefined ? {} : { id: token.id }) });
        k -= 1;
        continue;
      }
      if (k + 1 >= code.length) fail(`${what} has no p`);
      if (typeof a === "number") {
        if (!Number.isSafeInteger(a) || a < 0 || a >= tables.alternatives.length) fail(`${what} refers to alternative number ${a}, but the step has ${tables.alternatives.length} before it`);
        alternative = tables.alternatives[a]!;
        spend(alternative.text.length);
      } else if (typeof a === "string") alternative = { text: a };
      else if (Array.isArray(a) && a.length === 2 && typeof a[0] === "string" && Number.isSafeInteger(a[1])) alternative = { text: a[0], id: a[1] as number };
      else alternative = fail(`${what} is −1, a number, a string or [text, id]`);
      tables.noteAlternative(alternative.text, alternative.id);
      token.top.push({ text: alternative.text, p: number(code[k + 1], `${what}'s p`), ...(alternative.id === undefined ? {} : { id: alternative.id }) });
    }
    out.push(token);
  }
  return out;
}
