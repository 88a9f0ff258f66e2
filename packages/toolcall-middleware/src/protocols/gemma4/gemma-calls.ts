// The call syntax Gemma 4 and FunctionGemma share: `call:NAME{key:value,…}` between the format's
// call markers, values written as the chat templates' format_argument does — strings between a
// string delimiter (`<|"|>` for Gemma 4, `<escape>` for FunctionGemma), numbers, true/false/null
// and nested {…} and […] bare. The delimiters never reach a value: what sits between them is
// the string, decoded where the write-back escaped a marker in it. A bare value is read by the
// tool's schema (`zip:02134` stays a string where the schema says string).
import type { BodyReading, CandidateOutcome } from "../../parser/call-candidate.ts";
import { isPlainObject } from "../../parser/call-candidate.ts";
import { decodeMarkerEscapes } from "../../parser/markup.ts";
import type { Repair } from "../../repair/json-repair.ts";
import type { JsonSchema, ToolSpec } from "../../types.ts";
import { encodeMarkerEscapes } from "../protect-markers.ts";

/** Deeper nesting than this is not a call a model writes; it bounds the reader's recursion. */
const MAX_DEPTH = 128;
const KEY = /^[A-Za-z_][\w.-]*$/;

/** A bare value, kept as written until the schema says what it is. */
class Bare {
  constructor(readonly text: string) {}
}
type Value = string | Bare | Value[] | { [key: string]: Value };

class Incomplete extends Error {}

class Reader {
  pos = 0;
  /** Liberties taken to read the call (a string whose opening delimiter is missing). */
  readonly repairs: Repair[] = [];
  constructor(
    private readonly text: string,
    private readonly delimiter: string,
  ) {}

  private blanks(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  private string(): string {
    const start = this.pos + this.delimiter.length;
    const end = this.text.indexOf(this.delimiter, start);
    if (end < 0) throw new Incomplete("a string is not closed");
    this.pos = end + this.delimiter.length;
    return decodeMarkerEscapes(this.text.slice(start, end));
  }

  value(depth: number): Value {
    if (depth > MAX_DEPTH) throw new Error(`values nested deeper than ${MAX_DEPTH}`);
    this.blanks();
    if (this.pos >= this.text.length) throw new Incomplete("a value is missing");
    if (this.text.startsWith(this.delimiter, this.pos)) return this.string();
    const c = this.text[this.pos];
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    const start = this.pos;
    while (this.pos < this.text.length && !",}]".includes(this.text[this.pos]!) && !this.text.startsWith(this.delimiter, this.pos)) this.pos++;
    if (this.pos >= this.text.length) throw new Incomplete("a value runs to the end");
    if (this.text.startsWith(this.delimiter, this.pos)) {
      // `key:Paris<|"|>`: a string whose opening delimiter the model left out (SGLang reads
      // Gemma 4's calls so: it "sometimes omits the opening delimiter").
      const text = this.text.slice(start, this.pos);
      this.pos += this.delimiter.length;
      this.repairs.push({ kind: "missing-string-delimiter", message: `read ${JSON.stringify(text)} as a string whose opening ${this.delimiter} is missing`, before: text, after: `${this.delimiter}${text}` });
      return decodeMarkerEscapes(text);
    }
    return new Bare(this.text.slice(start, this.pos).trim());
  }

  object(depth: number): { [key: string]: Value } {
    this.pos++; // {
    const object: { [key: string]: Value } = {};
    for (;;) {
      this.blanks();
      if (this.text[this.pos] === ",") {
        this.pos++;
        continue;
      }
      if (this.pos >= this.text.length) throw new Incomplete("an object is not closed");
      if (this.text[this.pos] === "}") {
        this.pos++;
        return object;
      }
      let key: string;
      if (this.text.startsWith(this.delimiter, this.pos)) key = this.string();
      else {
        const colon = this.text.indexOf(":", this.pos);
        if (colon < 0) throw new Incomplete("a key has no value");
        key = this.text.slice(this.pos, colon).trim();
        if (/[{}[\]]/.test(key) || key.includes(this.delimiter)) throw new Error(`expected a key at character ${this.pos}`);
        this.pos = colon;
      }
      this.blanks();
      if (this.text[this.pos] !== ":") throw this.pos >= this.text.length ? new Incomplete("a key has no value") : new Error(`expected ":" after ${key}`);
      this.pos++;
      object[key] = this.value(depth + 1);
    }
  }

  array(depth: number): Value[] {
    this.pos++; // [
    const items: Value[] = [];
    for (;;) {
      this.blanks();
      if (this.text[this.pos] === ",") {
        this.pos++;
        continue;
      }
      if (this.pos >= this.text.length) throw new Incomplete("a list is not closed");
      if (this.text[this.pos] === "]") {
        this.pos++;
        return items;
      }
      items.push(this.value(depth + 1));
    }
  }
}

function schemaTypes(schema: JsonSchema | undefined): Set<string> {
  const type = schema?.type;
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  if (schema && Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string")) return new Set(["string"]);
  return new Set();
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A value as the schema reads it: bare text stays text where only a string is allowed. */
function resolve(value: Value, schema: JsonSchema | undefined): unknown {
  if (typeof value === "string") return value;
  if (value instanceof Bare) {
    const types = schemaTypes(schema);
    if (types.size === 1 && types.has("string")) return value.text;
    if (value.text === "true") return true;
    if (value.text === "false") return false;
    if (value.text === "null") return null;
    if (NUMBER.test(value.text)) return Number(value.text);
    return value.text;
  }
  if (Array.isArray(value)) {
    const items = schema && isPlainObject(schema.items) ? (schema.items as JsonSchema) : undefined;
    return value.map((item) => resolve(item, items));
  }
  const properties = schema && isPlainObject(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, resolve(v, isPlainObject(properties[key]) ? (properties[key] as JsonSchema) : undefined)]));
}

const CALL = /^\s*call:([^{\s]+)\s*\{/;

/** Reads `call:NAME{…}` (a call's text between its markers), with `delimiter` around strings. */
export function readGemmaCall(body: string, tools: readonly ToolSpec[], delimiter: string): BodyReading {
  const head = CALL.exec(body);
  if (!head) {
    return body.trim() === "" ? { ok: false, kind: "missing-tool-name", message: "the call is empty" } : { ok: false, kind: "missing-tool-name", message: "the call does not start with call:NAME{" };
  }
  const name = head[1]!;
  const reader = new Reader(body, delimiter);
  reader.pos = head[0].length - 1;
  let args: { [key: string]: Value };
  try {
    args = reader.object(0);
  } catch (error) {
    if (error instanceof Incomplete) return { ok: true, outcomes: [{ ok: false, kind: "invalid-call", name, message: `the arguments of ${name} are cut off: ${error.message}` }], repairs: [], complete: false };
    return { ok: false, kind: "invalid-call", message: `the arguments of ${name} cannot be read: ${(error as Error).message}` };
  }
  const repairs: Repair[] = [];
  const rest = body.slice(reader.pos).trim();
  if (rest !== "") repairs.push({ kind: "ignored-text", message: "ignored text after the call's arguments", before: rest, after: "" });
  const tool = tools.find((t) => t.name === name);
  const outcome: CandidateOutcome = { ok: true, call: { name, arguments: resolve(args, tool?.parameters) as Record<string, unknown>, repairs: reader.repairs } };
  return { ok: true, outcomes: [outcome], repairs, complete: true };
}

/** The tool named by a call's first characters. */
export function gemmaCallName(head: string): string | undefined {
  return CALL.exec(head)?.[1];
}

/** A value as format_argument writes it; a marker inside a string is broken (`&lt;`), with an exact round trip. */
export function gemmaValue(value: unknown, delimiter: string): string {
  if (typeof value === "string") return `${delimiter}${encodeMarkerEscapes(value)}${delimiter}`;
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => gemmaValue(v, delimiter)).join(",")}]`;
  return gemmaArguments(value as Record<string, unknown>, delimiter);
}

/** `{key:value,…}` with keys in sorted order, as the templates' dictsort writes them; a key that is not a plain name is delimited. */
export function gemmaArguments(args: Record<string, unknown>, delimiter: string): string {
  const entries = Object.keys(args)
    .sort()
    .map((key) => `${KEY.test(key) ? key : `${delimiter}${encodeMarkerEscapes(key)}${delimiter}`}:${gemmaValue(args[key], delimiter)}`);
  return `{${entries.join(",")}}`;
}

/** A parameter's schema as the templates' format_parameters writes it: description, enum, nested properties or items, then the TYPE. */
function parameterDeclaration(schema: JsonSchema, delimiter: string): string {
  const s = (delimiter: string, text: string) => `${delimiter}${text}${delimiter}`;
  const parts: string[] = [];
  if (typeof schema.description === "string") parts.push(`description:${s(delimiter, schema.description)}`);
  if (schema.nullable === true) parts.push("nullable:true");
  const type = (Array.isArray(schema.type) ? schema.type[0] : schema.type) as string | undefined;
  const upper = (type ?? "string").toUpperCase();
  if (upper === "STRING" && Array.isArray(schema.enum)) parts.push(`enum:${gemmaValue(schema.enum, delimiter)}`);
  if (upper === "OBJECT" && isPlainObject(schema.properties)) {
    parts.push(`properties:{${propertiesDeclaration(schema.properties as Record<string, unknown>, delimiter)}}`);
    if (Array.isArray(schema.required) && schema.required.length > 0) parts.push(`required:${gemmaValue(schema.required, delimiter)}`);
  }
  if (upper === "ARRAY" && isPlainObject(schema.items)) {
    const items = schema.items as JsonSchema;
    const fields = Object.keys(items)
      .sort()
      .flatMap((key) => {
        const v = items[key];
        if (v === undefined || v === null) return [];
        if (key === "properties" && isPlainObject(v)) return [`properties:{${propertiesDeclaration(v as Record<string, unknown>, delimiter)}}`];
        if (key === "type") return [`type:${gemmaValue(Array.isArray(v) ? v.map((t) => String(t).toUpperCase()) : String(v).toUpperCase(), delimiter)}`];
        return [`${key}:${gemmaValue(v, delimiter)}`];
      });
    parts.push(`items:{${fields.join(",")}}`);
  }
  parts.push(`type:${s(delimiter, upper)}`);
  return `{${parts.join(",")}}`;
}

function propertiesDeclaration(properties: Record<string, unknown>, delimiter: string): string {
  return Object.keys(properties)
    .sort()
    .map((key) => `${key}:${parameterDeclaration(isPlainObject(properties[key]) ? (properties[key] as JsonSchema) : {}, delimiter)}`)
    .join(",");
}

/** A tool as the Gemma templates' format_function_declaration writes it: `declaration:NAME{description:…,parameters:{…}}`. */
export function gemmaDeclaration(tool: ToolSpec, delimiter: string): string {
  const s = (text: string) => `${delimiter}${text}${delimiter}`;
  const params = tool.parameters;
  const parts: string[] = [];
  if (isPlainObject(params.properties)) parts.push(`properties:{${propertiesDeclaration(params.properties as Record<string, unknown>, delimiter)}}`);
  if (Array.isArray(params.required) && params.required.length > 0) parts.push(`required:${gemmaValue(params.required, delimiter)}`);
  parts.push(`type:${s(String(params.type ?? "object").toUpperCase())}`);
  return `declaration:${tool.name}{description:${s(tool.description)},parameters:{${parts.join(",")}}}`;
}

/**
 * An XGrammar EBNF grammar for a call's arguments `key:value,…}` (the `{` is in the tag's begin),
 * from the tool's schema: keys in sorted order as gemmaArguments writes them, required ones
 * always, optional ones optionally; strings between delimiters with no `<|` inside (the write-back
 * escapes it); numbers, integers, booleans and enums as the schema allows.
 */
export function gemmaArgumentsGrammar(parameters: JsonSchema, delimiter: string): string {
  const rules: string[] = [];
  let next = 0;
  const rule = (body: string): string => {
    const name = `r${next++}`;
    rules.push(`${name} ::= ${body}`);
    return name;
  };
  const d = JSON.stringify(delimiter);
  const literal = (text: string) => JSON.stringify(text);
  const value = (schema: unknown): string => {
    const s = (isPlainObject(schema) ? schema : {}) as JsonSchema;
    if (Array.isArray(s.enum) && s.enum.length > 0) return `(${s.enum.map((v) => literal(gemmaValue(v, delimiter))).join(" | ")})`;
    const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
    if (types.length > 1) return `(${types.map((type) => value({ ...s, type })).join(" | ")})`;
    switch (types[0]) {
      case "string":
        return "g_string";
      case "number":
        return "g_number";
      case "integer":
        return "g_integer";
      case "boolean":
        return "g_boolean";
      case "null":
        return '"null"';
      case "array": {
        const item = value(s.items);
        return rule(`"[" (${item} ("," ${item})*)? "]"`);
      }
      case "object":
        return isPlainObject(s.properties) ? rule(`"{" ${fields(s)} "}"`) : "g_object";
      default:
        return "g_value";
    }
  };
  /** The fields in sorted order, commas only between those present. */
  const fields = (schema: JsonSchema): string => {
    const properties = (isPlainObject(schema.properties) ? schema.properties : {}) as Record<string, unknown>;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const keys = Object.keys(properties).sort();
    // first[i] / rest[i]: the fields from i on, with none written yet / some written already.
    let first = '""';
    let rest = '""';
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const element = `${literal(`${KEY.test(key) ? key : `${delimiter}${key}${delimiter}`}:`)} ${value(properties[key])}`;
      const withIt = (comma: boolean) => `${comma ? '"," ' : ""}${element} ${rest}`;
      const newFirst = rule(required.has(key) ? withIt(false) : `${withIt(false)} | ${first}`);
      const newRest = rule(required.has(key) ? withIt(true) : `${withIt(true)} | ${rest}`);
      first = newFirst;
      rest = newRest;
    }
    return first;
  };
  const root = `root ::= ${fields(parameters)}`;
  const base = [
    `g_string ::= ${d} ([^<] | "<" [^|])* ${d}`,
    'g_number ::= "-"? ("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [+-]? [0-9]+)?',
    'g_integer ::= "-"? ("0" | [1-9] [0-9]*)',
    'g_boolean ::= "true" | "false"',
    'g_value ::= g_string | g_number | g_boolean | "null" | g_object | g_array',
    'g_array ::= "[" (g_value ("," g_value)*)? "]"',
    `g_object ::= "{" (g_key ":" g_value ("," g_key ":" g_value)*)? "}"`,
    `g_key ::= [A-Za-z_] [A-Za-z0-9_.-]* | g_string`,
  ];
  return [root, ...rules, ...base].join("\n");
}
