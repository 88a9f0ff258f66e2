// Scores a case's first step the way BFCL's AST checker does (its rules read from
// bfcl_eval/eval_checker/ast_eval/ast_checker.py, written anew here). Each rule is checked once,
// in this order, and the first that fails is the verdict's reason, in words:
//
//  Calls
//   C1 An irrelevance case passes if and only if no call is made.
//   C2 Otherwise the number of calls must be the number of expected calls (one for the simple and
//      multiple categories). "made 0 calls, expected 1" names the parse errors, if any.
//   C3 Parallel categories: each expected call, in order, takes the first call not yet taken that
//      passes every rule below; calls may come in any order. Other categories: the one call
//      is checked against the one expected call.
//  One call
//   F1 The function's name is the expected one.
//   F2 Every required parameter is present.
//   F3 Every parameter given is one the function declares and the answer lists.
//   F4 Its value has the declared type: an integer is accepted for a float; `any` means a string;
//      a value of the type the answer's values have is accepted as a "variable" (BFCL's rule for
//      answers that name a variable), and then compared exactly (V5). An array's items are
//      checked against the item type (one level, as BFCL does).
//   V1 An object is checked key by key against each allowed object: no unexpected key, each
//      value (strings normalised) among the allowed ones, each missing key allowed to be missing.
//   V2 An array of objects: the same number of objects, each checked as V1, in order.
//   V3 A string, after normalisation (lower case; spaces and , . / - _ * ^ removed; ' as "),
//      is one of the allowed strings, normalised alike.
//   V4 An array, its strings normalised, equals one of the allowed arrays, in order.
//   V5 Anything else equals one of the allowed values.
//   F5 Every parameter the answer lists and the call leaves out allows "" (may be omitted).
//
// Where JavaScript cannot see what Python sees, we say so: JSON's 5.0 and 5 are the same number
// here, so an integer written as 5.0 passes as an integer.
import type { BfclProperty } from "./bfcl-schema.ts";
import type { EvalCase, ExpectedCall } from "./suite.ts";

export interface ScoredCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What the middleware made of the step, as far as the verdicts need it. */
export interface StepOutcome {
  /** The calls after repair and coercion, names as the case has them. */
  calls: ScoredCall[];
  /** Calls the parser could not use (each one's message). */
  parseErrors: string[];
  /** Repairs and coercions the middleware made (each one's message). */
  repairs: string[];
  /** Protocol markup left in the reply's text (each marker found). */
  markupInText: string[];
  /** Set when the step did not complete (engine error, aborted): the case failed to run. */
  failure?: string;
  /** Set when the reply was cut at a length limit before it ended: the case fails, saying where. */
  cutOff?: { limit: "max-tokens" | "context-window" | "output-limit"; maxTokens?: number };
}

export interface Verdict {
  pass: boolean;
  strictPass: boolean;
  /** Why `pass` is false, or else why `strictPass` is; "" when both hold. */
  reason: string;
}

type Check = { ok: true } | { ok: false; reason: string };
const OK: Check = { ok: true };
const fail = (reason: string): Check => ({ ok: false, reason });

export function scoreCase(testCase: EvalCase, outcome: StepOutcome): Verdict {
  const checked =
    outcome.failure !== undefined ? fail(`the case failed to run: ${outcome.failure}`)
    : outcome.cutOff ? fail(cutOffReason(outcome.cutOff))
    : checkCalls(testCase, outcome);
  if (!checked.ok) return { pass: false, strictPass: false, reason: checked.reason };
  const strict = strictCheck(outcome);
  return { pass: true, strictPass: strict.ok, reason: strict.ok ? "" : strict.reason };
}

/** A reply cut at a limit ran, and was cut: "cut off at max tokens (256)". */
export function cutOffReason(cutOff: NonNullable<StepOutcome["cutOff"]>): string {
  if (cutOff.limit === "context-window") return "cut off at the model's context window";
  if (cutOff.limit === "output-limit") return "cut off at the lab's limit on one reply";
  return `cut off at max tokens${cutOff.maxTokens !== undefined ? ` (${cutOff.maxTokens})` : ""}`;
}

/** strictPass: also no repair, no coercion, no parse error, no protocol markup left in the text. */
function strictCheck(outcome: StepOutcome): Check {
  if (outcome.parseErrors.length > 0) return fail(`strict: parse error: ${outcome.parseErrors[0]}`);
  if (outcome.repairs.length > 0) return fail(`strict: repaired: ${outcome.repairs[0]}`);
  if (outcome.markupInText.length > 0) return fail(`strict: protocol markup left in the text: ${outcome.markupInText.map((m) => JSON.stringify(m)).join(", ")}`);
  return OK;
}

function checkCalls(testCase: EvalCase, outcome: StepOutcome): Check {
  const { calls } = outcome;
  // C1
  if (testCase.expectsNoCall) return calls.length === 0 ? OK : fail(`no call was expected, but it called ${calls.map((c) => c.name).join(", ")}`);
  // C2
  const expectedCount = testCase.expected.length;
  if (calls.length !== expectedCount) {
    const errors = calls.length === 0 && outcome.parseErrors.length > 0 ? ` (parse error: ${outcome.parseErrors[0]})` : "";
    return fail(`made ${calls.length} call${calls.length === 1 ? "" : "s"}, expected ${expectedCount}${errors}`);
  }
  // C3
  if (!testCase.category.includes("parallel")) return checkCall(testCase, calls[0]!, testCase.expected[0]!);
  const taken = new Set<number>();
  for (const [index, expected] of testCase.expected.entries()) {
    const misses: string[] = [];
    let found = false;
    for (const [position, call] of calls.entries()) {
      if (taken.has(position)) continue;
      const result = checkCall(testCase, call, expected);
      if (result.ok) {
        taken.add(position);
        found = true;
        break;
      }
      misses.push(`call ${position + 1}: ${result.reason}`);
    }
    if (!found) return fail(`no call matches expected call ${index + 1} (${expected.name}): ${misses.join("; ")}`);
  }
  return OK;
}

function checkCall(testCase: EvalCase, call: ScoredCall, expected: ExpectedCall): Check {
  // F1
  if (call.name !== expected.name) return fail(`called ${call.name}, expected ${expected.name}`);
  const fn = testCase.functions.find((f) => f.name === expected.name);
  if (!fn) return fail(`the case does not describe ${expected.name}`);
  const properties = fn.parameters.properties ?? {};
  const args = call.arguments;
  // F2
  for (const name of fn.parameters.required ?? []) {
    if (!Object.hasOwn(args, name)) return fail(`${name}: required parameter missing`);
  }
  for (const [name, value] of Object.entries(args)) {
    // F3
    const declared = ownValue(properties, name) as BfclProperty | undefined;
    const allowed = ownValue(expected.parameters, name);
    if (!declared || !Array.isArray(allowed)) return fail(`${name}: unexpected parameter`);
    const checked = checkParameter(name, value, declared, allowed);
    if (!checked.ok) return checked;
  }
  // F5
  for (const [name, allowed] of Object.entries(expected.parameters)) {
    if (!Object.hasOwn(args, name) && !allowed.includes("")) return fail(`${name}: left out, but it may not be (one of ${list(allowed)})`);
  }
  return OK;
}

/** The kinds of value BFCL's Python types tell apart. */
type Kind = "string" | "integer" | "float" | "boolean" | "list" | "dict" | "null";

const DECLARED_KIND: Record<string, Kind> = {
  string: "string",
  integer: "integer",
  float: "float",
  boolean: "boolean",
  array: "list",
  tuple: "list",
  dict: "dict",
  any: "string",
  // JSON Schema's names, for saved cases whose tools are written in it (BFCL never uses them).
  number: "float",
  object: "dict",
};

function kindOf(value: unknown): Kind {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "list";
  if (typeof value === "object") return "dict";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "float";
  if (typeof value === "boolean") return "boolean";
  return "string";
}

/** Whether a value is of a kind; an integer is accepted for a float. */
function fits(value: unknown, kind: Kind): boolean {
  const actual = kindOf(value);
  return actual === kind || (kind === "float" && actual === "integer");
}

function checkParameter(name: string, value: unknown, declared: BfclProperty, allowed: unknown[]): Check {
  // F4
  const kind = ownValue(DECLARED_KIND, declared.type ?? "") as Kind | undefined;
  const answerValue = allowed.find((option) => option !== "");
  const answerKind = answerValue === undefined ? undefined : kindOf(answerValue);
  let variable = answerKind !== undefined && kind !== undefined && answerKind !== kind && !(kind === "float" && answerKind === "integer");
  if (kind !== undefined && !fits(value, kind)) {
    if (answerKind !== undefined && fits(value, answerKind)) variable = true;
    else return fail(`${name}: expected ${declared.type}, got ${kindOf(value)} ${show(value)}`);
  }
  const itemKind = kind === "list" ? (ownValue(DECLARED_KIND, declared.items?.type ?? "") as Kind | undefined) : undefined;
  if (kind === "list" && itemKind !== undefined && Array.isArray(value) && !variable) {
    // Each item has the item type, or the type of the allowed array's items (a variable).
    const someAnswerFits = allowed.some((option) => {
      if (!Array.isArray(option)) return true;
      const sample = option.find((item) => item !== "");
      return value.every((item) => fits(item, itemKind) || (sample !== undefined && fits(item, kindOf(sample))));
    });
    if (!someAnswerFits) return fail(`${name}: expected an array of ${declared.items?.type}, got ${show(value)}`);
  }
  if (variable) return among(name, value, allowed, (v) => v);
  // V1
  if (kind === "dict") return checkObject(name, value as Record<string, unknown>, allowed);
  // V2
  if (kind === "list" && itemKind === "dict") return checkObjectList(name, value as unknown[], allowed);
  // V3, V4
  if (kind === "string" || kind === "list") return among(name, value, allowed, normalised);
  // V5
  return among(name, value, allowed, (v) => v);
}

function checkObject(name: string, value: Record<string, unknown>, allowed: unknown[]): Check {
  let last: Check = fail(`${name}: ${show(value)} is not one of ${list(allowed)}`);
  for (const option of allowed) {
    if (option === "" || option === null || typeof option !== "object" || Array.isArray(option)) continue;
    last = objectAgainst(name, value, option as Record<string, unknown[]>);
    if (last.ok) return OK;
  }
  return last;
}

function objectAgainst(name: string, value: Record<string, unknown>, option: Record<string, unknown[]>): Check {
  for (const [key, item] of Object.entries(value)) {
    const choices = ownValue(option, key);
    if (!Array.isArray(choices)) return fail(`${name}.${key}: unexpected key`);
    const checked = among(`${name}.${key}`, item, choices, normalised);
    if (!checked.ok) return checked;
  }
  for (const [key, choices] of Object.entries(option)) {
    if (!Object.hasOwn(value, key) && !(Array.isArray(choices) && choices.includes(""))) return fail(`${name}.${key}: missing key`);
  }
  return OK;
}

function checkObjectList(name: string, value: unknown[], allowed: unknown[]): Check {
  let last: Check = fail(`${name}: ${show(value)} is not one of ${list(allowed)}`);
  for (const option of allowed) {
    if (!Array.isArray(option)) continue;
    if (option.length !== value.length) {
      last = fail(`${name}: ${value.length} objects, expected ${option.length}`);
      continue;
    }
    last = OK;
    for (const [index, item] of value.entries()) {
      const checked = checkObject(`${name}[${index}]`, item as Record<string, unknown>, [option[index]]);
      if (!checked.ok) {
        last = checked;
        break;
      }
    }
    if (last.ok) return OK;
  }
  return last;
}

/** Whether `value` is one of `allowed` once both are put through `normalise`. */
function among(name: string, value: unknown, allowed: unknown[], normalise: (v: unknown) => unknown): Check {
  const mine = normalise(value);
  return allowed.some((option) => sameValue(mine, normalise(option))) ? OK : fail(`${name}: ${show(value)} is not one of ${list(allowed)}`);
}

/** BFCL's string normalisation, applied to a string or to the strings of an array. */
export function normalised(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/[ ,./\-_*^]/g, "").toLowerCase().replaceAll("'", '"');
  if (Array.isArray(value)) return value.map((item) => (typeof item === "string" ? normalised(item) : item));
  return value;
}

/** Equality as Python's == on JSON values (key order does not matter). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  }
  return false;
}

/**
 * A key's value only where the object itself has it: a parameter named `toString`,
 * `constructor` or `__proto__` is a name like any other, never something every object inherits.
 */
function ownValue(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function list(values: unknown[]): string {
  return `[${values.map(show).join(", ")}]`;
}
