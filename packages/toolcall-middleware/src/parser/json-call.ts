// Reads a call written as JSON: {"name": ..., "arguments": {...}}, and the variants small models
// drift into ("parameters" for "arguments", arguments as a JSON-encoded string, an array of
// calls, the OpenAI {"type":"function","function":{...}} shape). Every liberty taken is a repair.
import { parseJsonLenient, type Repair } from "../repair/json-repair.ts";
import { isPlainObject, type BodyReading, type CandidateOutcome } from "./call-candidate.ts";

/** Keys that some models use for the arguments object instead of "arguments". */
const ARGUMENT_ALIASES = ["parameters", "args", "input"] as const;
/** Keys of a call object that are not arguments written beside the name. */
const CALL_FIELDS = new Set(["name", "type", "id", "function", "tool_name", "function_name", "tool", "call_id", "index"]);
/** Keys that some models use for the tool's name instead of "name". */
const NAME_ALIASES = ["tool_name", "function_name", "tool"] as const;

const JSON_NAME = /^\s*(?:```[A-Za-z0-9_]*\s*)?\{\s*"(?:name|tool_name)"\s*:\s*"([^"\\]+)"/;

/** The tool a JSON call body names in its first characters (`{"name": "get_weather", …`), to announce the call while it streams. */
export function jsonCallName(head: string): string | undefined {
  return JSON_NAME.exec(head)?.[1];
}

/**
 * Reads a JSON call body. `knownName` is set when the surrounding tag already named the tool
 * (`<get_weather>{...}</get_weather>`): then the object is the arguments, unless it is that
 * same call written out (`{"name": "get_weather", "arguments": {…}}`).
 */
export function readJsonCallBody(body: string, knownName?: string): BodyReading {
  const parsed = parseJsonLenient(body);
  if (!parsed.ok) return readSeveralValues(body, knownName) ?? { ok: false, kind: "invalid-json", message: `the call is not valid JSON: ${parsed.message}` };
  // Body-level repairs keep their spans (offsets into the body), so the UI can point at them.
  const repairs = parsed.repairs.map(copyRepair);
  const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  if (items.length === 0) return { ok: false, kind: "missing-tool-name", message: "the call is an empty JSON array" };
  const outcomes = items.map((item) => readCallObject(item, knownName));
  return { ok: true, outcomes, repairs, complete: true };
}

function copyRepair({ kind, message, before, after, span }: Repair, shift = 0): Repair {
  return span ? { kind, message, before, after, span: { start: span.start + shift, end: span.end + shift } } : { kind, message, before, after };
}

/**
 * Some models put several call objects one after the other in one tag, or add a remark after
 * the object. Reads each top-level value; what follows the last one is reported, not lost.
 */
function readSeveralValues(body: string, knownName?: string): BodyReading | undefined {
  const { values, rest } = splitTopLevelValues(body);
  if (values.length === 0) return undefined;
  const repairs: Repair[] = [];
  const items: unknown[] = [];
  for (const { text, start } of values) {
    const parsed = parseJsonLenient(text);
    if (!parsed.ok) return undefined;
    repairs.push(...parsed.repairs.map((r) => copyRepair(r, start)));
    items.push(parsed.value);
  }
  if (values.length > 1) {
    repairs.push({ kind: "several-objects", message: `read ${values.length} JSON values written one after the other as ${values.length} calls`, before: "", after: "" });
  }
  if (rest.trim() !== "") {
    const span = { start: body.length - rest.length, end: body.length };
    repairs.push({ kind: "ignored-text", message: "ignored text after the call's JSON", before: rest.trim(), after: "", span });
  }
  const outcomes = items.flatMap((item) => (Array.isArray(item) ? item : [item])).map((item) => readCallObject(item, knownName));
  return { ok: true, outcomes, repairs, complete: true };
}

/** Splits `{…} {…}` (blanks or commas between) into its values, and the text after them. */
function splitTopLevelValues(text: string): { values: { text: string; start: number }[]; rest: string } {
  const values: { text: string; start: number }[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && /[\s,]/.test(text[i]!)) i++;
    const c = text[i];
    if (c !== "{" && c !== "[") break;
    const start = i;
    let depth = 0;
    let quote = "";
    let escaped = false;
    for (; i < text.length; i++) {
      const ch = text[i]!;
      if (quote) {
        if (escaped) escaped = false;
        else if (ch === "\\") escaped = true;
        else if (ch === quote) quote = "";
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === "{" || ch === "[") depth++;
      else if ((ch === "}" || ch === "]") && --depth === 0) {
        i++;
        break;
      }
    }
    if (depth !== 0) return { values: [], rest: text };
    values.push({ text: text.slice(start, i), start });
  }
  return { values, rest: text.slice(i) };
}

/** One call object → a candidate, or why it is not one. */
export function readCallObject(item: unknown, knownName?: string): CandidateOutcome {
  if (!isPlainObject(item)) {
    return { ok: false, kind: "invalid-json", message: `a tool call must be a JSON object with "name" and "arguments", got ${describe(item)}` };
  }
  if (knownName !== undefined && !wrapsCallOf(item, knownName)) {
    // The format named the tool outside the JSON (`get_age[ARGS]{…}`, `<get_age>{…}`): the JSON
    // is its arguments as written, even when one of them is called "name" (`{"name": "John"}`).
    return { ok: true, call: { name: knownName, arguments: item, repairs: [] } };
  }
  const repairs: Repair[] = [];
  let object = item;
  // The OpenAI shape nests the call under "function".
  if (isPlainObject(object.function) && typeof object.function.name === "string") {
    repairs.push({ kind: "openai-shape", message: 'read the call from its "function" field', before: "function", after: "" });
    object = object.function;
  }
  let name: unknown = object.name;
  if (typeof name !== "string") {
    const alias = NAME_ALIASES.find((key) => typeof object[key] === "string");
    if (alias) {
      name = object[alias];
      repairs.push({ kind: "name-key", message: `read the tool's name from "${alias}"`, before: alias, after: "name" });
    }
  }
  if (typeof name !== "string" || name.trim() === "") {
    return { ok: false, kind: "missing-tool-name", message: 'the call has no "name" naming the tool' };
  }
  name = name.trim();
  let args: unknown;
  if ("arguments" in object) args = object.arguments;
  else {
    const alias = ARGUMENT_ALIASES.find((key) => key in object);
    if (alias) {
      args = object[alias];
      repairs.push({ kind: `${alias}-key`, message: `read the arguments from "${alias}" instead of "arguments"`, before: alias, after: "arguments" });
    } else {
      // `{"name": "get_weather", "location": "Paris"}`: the arguments written beside the name.
      const beside = Object.fromEntries(Object.entries(object).filter(([key]) => !CALL_FIELDS.has(key)));
      args = beside;
      if (Object.keys(beside).length > 0) {
        repairs.push({ kind: "flattened-arguments", message: `the call has no "arguments"; read its other keys (${Object.keys(beside).join(", ")}) as the arguments`, before: "", after: "arguments" });
      } else {
        repairs.push({ kind: "missing-arguments", message: 'the call has no "arguments"; read as {}', before: "", after: "{}" });
      }
    }
  }
  if (typeof args === "string") {
    const text = args.trim();
    if (text === "") {
      args = {};
      repairs.push({ kind: "arguments-string", message: "the arguments were an empty string; read as {}", before: '""', after: "{}" });
    } else {
      const inner = parseJsonLenient(text);
      if (!inner.ok || !isPlainObject(inner.value)) {
        return {
          ok: false,
          kind: "invalid-arguments",
          name: name as string,
          message: `the arguments of ${String(name)} are a string that is not a JSON object${inner.ok ? "" : `: ${inner.message}`}`,
        };
      }
      args = inner.value;
      repairs.push({ kind: "arguments-string", message: "decoded arguments given as a JSON-encoded string", before: JSON.stringify(text), after: text });
      for (const r of inner.repairs) repairs.push({ kind: r.kind, message: r.message, before: r.before, after: r.after });
    }
  } else if (args === null || args === undefined) {
    args = {};
    repairs.push({ kind: "missing-arguments", message: "the arguments were null; read as {}", before: "null", after: "{}" });
  }
  return { ok: true, call: { name: name as string, arguments: args, repairs } };
}

/**
 * Whether an object given where the format already named the tool is that same call written
 * out again, `{"name": <the name>, "arguments": {…}}` (or the OpenAI shape of it), rather than
 * the arguments themselves.
 */
function wrapsCallOf(item: Record<string, unknown>, knownName: string): boolean {
  const inner = isPlainObject(item.function) ? item.function : item;
  return typeof inner.name === "string" && inner.name.trim() === knownName && "arguments" in inner;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return `a ${typeof value}`;
}

/**
 * The length of the JSON object or array that `text` begins with (after blanks): -1 if it is
 * cut off, undefined if the text does not begin with one.
 */
export function leadingJsonLength(text: string): number | undefined {
  let i = 0;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] !== "{" && text[i] !== "[") return undefined;
  let depth = 0;
  let quote = false;
  let escaped = false;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') quote = false;
    } else if (c === '"') quote = true;
    else if (c === "{" || c === "[") depth++;
    else if ((c === "}" || c === "]") && --depth === 0) return i + 1;
  }
  return -1;
}
