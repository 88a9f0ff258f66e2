// One token's probabilities packed into a string, the shared-text codec's shortest form for a
// token (shared-text-tokens.ts has the array form it falls back to). A string of numbers, each a
// varint (digits of `MORE`, base 29, then one of `LAST`, base 64: below 64 one character, below
// 1,856 two), with the texts of new alternatives written in place after their length:
//   [t] h P alternative…
//   t: the token's text as the next t characters of the delta (left out where the token is the
//      delta's only one and spells it);
//   h: 0 — the token is not its first alternative: P and its id (0: none, else id + 1) follow;
//      1 + 2d — it is (a greedy token), and that alternative is the step's d-th most recently
//      noted one (its text must be the token's); P is the p of both;
//      2 + 2x — it is, and that alternative is new: the token's text, id x − 1 (none at 0); P;
//   alternative: 0 — the token itself again; 1 + 2d — the step's d-th most recent alternative,
//      then P; 2 + 2x — a new one with id x − 1 (none at 0), then its text's length, the text,
//      and P;
//   P: a probability: below 32 the step's d-th most recently noted one; then, in two
//      characters, the decimal code q of a probability of three significant digits down to
//      about 0.01 (see decimalCode); beyond, farther references and smaller probabilities
//      alternate (probabilityCode).
// "Most recent" counts back from the end of the step's tables as they stood before the token:
// a token is noted whole after it is read, in the order noteTokens walks it, so writer and
// reader, and logs in the older forms, keep the same tables. Only what the form holds exactly
// is packed — a probability of three significant digits (recorded-precision.ts), ids ≥ 0,
// texts the delta spells — and the writer checks its own output decodes to the very token.
import type { TokenProbability } from "toolcall-middleware/types.ts";

/** The tables a packed token refers to: the step's distinct alternatives and probabilities, oldest first. */
export interface PackTables {
  readonly alternatives: readonly { text: string; id?: number }[];
  readonly numbers: readonly number[];
  /** Where an alternative stands in `alternatives`, if there. */
  alternativeRef(text: string, id: number | undefined): number | undefined;
  /** Where the very number `p` stands in `numbers`, if there. */
  numberRef(p: number): number | undefined;
}

export class PackedTokenError extends Error {}

/** A varint's last digit: 64 values. */
const LAST = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** Its digits before the last: 29 values (JSON writes none of these with an escape). */
const MORE = "!#$%&'()*+,./:;<=>?@[]^`{|}~ ";
/** Digits a varint may have: well within a safe integer. */
const MAX_GROUPS = 8;
/** P codes below this are the probability that many back in the step's table. */
const NEAR_REFERENCES = 32;
/** Two-digit P codes hold this many decimal codes after the near references (p down to about 0.01). */
const NEAR_LITERALS = LAST.length * MORE.length - NEAR_REFERENCES;

function varint(value: number): string {
  let out = LAST[value % LAST.length]!;
  for (let v = Math.floor(value / LAST.length); v > 0; v = Math.floor(v / MORE.length)) out = MORE[v % MORE.length]! + out;
  return out;
}

/**
 * The decimal code of a probability with at most three significant digits in [0, 1], or
 * undefined: 0 for 0, 1 for 1, 2 + (m − 100) + 900·(−3 − e) for m·10^e (m 100…999, e ≤ −3).
 */
function decimalCode(p: number): number | undefined {
  if (p === 0 && Object.is(p, 0)) return 0;
  if (p === 1) return 1;
  if (!(p > 0 && p < 1)) return undefined;
  const match = /^(\d)\.(\d\d)e-(\d+)$/.exec(p.toExponential(2));
  if (!match) return undefined;
  const q = 2 + (Number(match[1]! + match[2]!) - 100) + 900 * (Number(match[3]) - 1);
  return Object.is(fromDecimalCode(q), p) ? q : undefined;
}

function fromDecimalCode(q: number): number {
  if (q <= 1) return q;
  const m = ((q - 2) % 900) + 100;
  const e = -3 - Math.floor((q - 2) / 900);
  return Number(`${m}e${e}`);
}

/** A P code: a reference `d` back, or a decimal code `q` (near ones take two digits, see above). */
function probabilityCode(kind: "reference" | "literal", n: number): number {
  if (kind === "reference") return n < NEAR_REFERENCES ? n : NEAR_REFERENCES + NEAR_LITERALS + 2 * (n - NEAR_REFERENCES);
  return n < NEAR_LITERALS ? NEAR_REFERENCES + n : NEAR_REFERENCES + NEAR_LITERALS + 2 * (n - NEAR_LITERALS) + 1;
}

function fromProbabilityCode(v: number): { kind: "reference" | "literal"; n: number } {
  if (v < NEAR_REFERENCES) return { kind: "reference", n: v };
  if (v < NEAR_REFERENCES + NEAR_LITERALS) return { kind: "literal", n: v - NEAR_REFERENCES };
  const far = v - NEAR_REFERENCES - NEAR_LITERALS;
  return far % 2 === 0 ? { kind: "reference", n: NEAR_REFERENCES + far / 2 } : { kind: "literal", n: NEAR_LITERALS + (far - 1) / 2 };
}

/** Writes `token` packed, or undefined where the form cannot hold it exactly. */
export function packToken(tables: PackTables, token: TokenProbability, spelled: boolean): string | undefined {
  const alternativeDistance = (text: string, id: number | undefined): number | undefined => {
    const n = tables.alternativeRef(text, id);
    return n === undefined ? undefined : tables.alternatives.length - 1 - n;
  };
  const idCode = (id: number | undefined) => (id === undefined ? 0 : id + 1);
  const probability = (p: number): string | undefined => {
    const q = decimalCode(p);
    const literal = q === undefined ? undefined : varint(probabilityCode("literal", q));
    const n = tables.numberRef(p);
    const reference = n === undefined ? undefined : varint(probabilityCode("reference", tables.numbers.length - 1 - n));
    if (literal === undefined) return reference;
    return reference !== undefined && reference.length < literal.length ? reference : literal;
  };
  const validId = (id: number | undefined) => id === undefined || (Number.isSafeInteger(id) && id >= 0);
  if (!validId(token.id) || token.top.some((a) => !validId(a.id))) return undefined;
  let out = spelled ? varint(token.text.length) : "";
  const first = token.top[0];
  const greedy = first !== undefined && first.text === token.text && first.id === token.id && Object.is(first.p, token.p);
  const p = probability(token.p);
  if (p === undefined) return undefined;
  if (greedy) {
    const d = alternativeDistance(token.text, token.id);
    out += (d === undefined ? varint(2 + 2 * idCode(token.id)) : varint(1 + 2 * d)) + p;
  } else out += varint(0) + p + varint(idCode(token.id));
  for (const alternative of token.top.slice(greedy ? 1 : 0)) {
    if (alternative.text === token.text && alternative.id === token.id && Object.is(alternative.p, token.p)) {
      out += varint(0);
      continue;
    }
    const ap = probability(alternative.p);
    if (ap === undefined) return undefined;
    const d = alternativeDistance(alternative.text, alternative.id);
    out += d === undefined ? varint(2 + 2 * idCode(alternative.id)) + varint(alternative.text.length) + alternative.text + ap : varint(1 + 2 * d) + ap;
  }
  return out;
}

/**
 * Reads a packed token: `delta.whole` where it spells the whole delta (its text left out), else
 * its `t` takes the delta's characters from `delta.from`. Returns the token and how many
 * characters of the delta it spells. `spend` is charged for referred texts.
 */
export function unpackToken(tables: PackTables, packed: string, delta: { text: string; from: number; whole: boolean }, spend: (chars: number) => void): { token: TokenProbability; spelled: number } {
  let at = 0;
  const fail = (what: string): never => {
    throw new PackedTokenError(`${what} (at character ${at} of the packed token)`);
  };
  const next = (what: string): number => {
    let value = 0;
    for (let groups = 0; groups < MAX_GROUPS; groups++) {
      if (at >= packed.length) return fail(`${what} is missing`);
      const c = packed[at++]!;
      const last = LAST.indexOf(c);
      if (last >= 0) return value * LAST.length + last;
      const more = MORE.indexOf(c);
      if (more < 0) return fail(`${what} has a character that is no digit`);
      value = value * MORE.length + more;
    }
    return fail(`${what} is too long a number`);
  };
  const referred = (d: number, what: string) => {
    if (d >= tables.alternatives.length) fail(`${what} refers to the alternative ${d} back, but the step has ${tables.alternatives.length}`);
    const a = tables.alternatives[tables.alternatives.length - 1 - d]!;
    spend(a.text.length);
    return a;
  };
  const probability = (label: string): number => {
    const code = fromProbabilityCode(next(label));
    if (code.kind === "literal") return fromDecimalCode(code.n);
    const d = code.n;
    if (d >= tables.numbers.length) fail(`${label} refers to the probability ${d} back, but the step has ${tables.numbers.length}`);
    return tables.numbers[tables.numbers.length - 1 - d]!;
  };
  const withId = <T extends object>(value: T, code: number): T & { id?: number } => (code === 0 ? value : { ...value, id: code - 1 });
  let spelled: number;
  let text: string;
  if (delta.whole) {
    text = delta.text;
    spelled = text.length;
  } else {
    spelled = next("its text's length");
    const left = delta.text.length - delta.from;
    if (spelled < 1 || spelled > left) fail(`its text is the next ${spelled} characters of the delta, which has ${left} left`);
    text = delta.text.slice(delta.from, delta.from + spelled);
  }
  const h = next("its head");
  let token: TokenProbability;
  if (h === 0) {
    const p = probability("its p");
    token = { ...withId({ text, p }, next("its id")), top: [] };
  } else if (h % 2 === 1) {
    const a = referred((h - 1) / 2, "its first alternative");
    if (a.text !== text) fail(`its first alternative is itself, but the one referred to is ${JSON.stringify(a.text)}`);
    const p = probability("its p");
    token = { ...withId({ text, p }, a.id === undefined ? 0 : a.id + 1), top: [] };
    token.top.push(withId({ text, p }, a.id === undefined ? 0 : a.id + 1));
  } else {
    const idCode = (h - 2) / 2;
    const p = probability("its p");
    token = { ...withId({ text, p }, idCode), top: [withId({ text, p }, idCode)] };
  }
  while (at < packed.length) {
    const what = `alternative ${token.top.length}`;
    const a = next(what);
    if (a === 0) {
      spend(token.text.length);
      token.top.push({ text: token.text, p: token.p, ...(token.id === undefined ? {} : { id: token.id }) });
    } else if (a % 2 === 1) {
      const alternative = referred((a - 1) / 2, what);
      token.top.push({ text: alternative.text, p: probability(`${what}'s p`), ...(alternative.id === undefined ? {} : { id: alternative.id }) });
    } else {
      const idCode = (a - 2) / 2;
      const length = next(`${what}'s text length`);
      if (length > packed.length - at) fail(`${what}'s text is ${length} characters, but the packed token has ${packed.length - at} left`);
      const altText = packed.slice(at, at + length);
      at += length;
      token.top.push(withId({ text: altText, p: probability(`${what}'s p`) }, idCode));
    }
  }
  return { token, spelled };
}
