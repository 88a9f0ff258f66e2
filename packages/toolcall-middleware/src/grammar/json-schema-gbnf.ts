// JSON Schema to GBNF rules: the JSON a tool's arguments must be, written the way llama.cpp's
// json-schema-to-grammar does it in spirit (our own code): objects list their properties in the
// schema's order, required ones always, optional ones each optional; no properties beyond the
// listed ones unless the schema allows them (as XGrammar's strict mode, which WebLLM uses);
// strings are JSON strings; whitespace between tokens is bounded so a small model cannot loop
// on it. Keywords without a rule here (pattern, format, allOf of several, …) widen to the type
// they constrain, never narrow: a valid value is never refused.
import type { JsonSchema } from "../types.ts";
import { GbnfBuilder, GrammarConversionError, gbnfLiteral } from "./gbnf-builder.ts";

type Schema = JsonSchema | boolean;

const SPACE = "json-space";

function addBasics(builder: GbnfBuilder): void {
  builder.shared(SPACE, () => '(" " | "\\n" [ \\t]{0,20})?');
  builder.shared("json-char", () => '[^"\\\\\\x7F\\x00-\\x1F] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})');
  builder.shared("json-string", () => '"\\"" json-char* "\\""');
  builder.shared("json-integer", () => '"-"? ("0" | [1-9] [0-9]{0,15})');
  builder.shared("json-number", () => '"-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,3})?');
  builder.shared("json-boolean", () => '"true" | "false"');
  builder.shared("json-null", () => '"null"');
  builder.shared("json-value", () => "json-object | json-array | json-string | json-number | json-boolean | json-null");
  builder.shared("json-object", () => `"{" ${SPACE} (json-string ${SPACE} ":" ${SPACE} json-value ${SPACE} ("," ${SPACE} json-string ${SPACE} ":" ${SPACE} json-value ${SPACE})*)? "}"`);
  builder.shared("json-array", () => `"[" ${SPACE} (json-value ${SPACE} ("," ${SPACE} json-value ${SPACE})*)? "]"`);
}

function asObject(schema: Schema): JsonSchema {
  return typeof schema === "boolean" ? {} : schema;
}

/** Repetition of `item` joined by commas, between `min` and `max` times. */
function repeated(item: string, min: number, max: number | undefined): string {
  const more = `("," ${SPACE} ${item} ${SPACE})`;
  if (max === 0) return "";
  if (min === 0) {
    const rest = max === undefined ? `${more}*` : max > 1 ? `${more}{0,${max - 1}}` : "";
    return `(${item} ${SPACE} ${rest})?`;
  }
  const rest = max === undefined ? `${more}{${min - 1},}` : `${more}{${min - 1},${max - 1}}`;
  return `${item} ${SPACE} ${rest}`;
}

export class JsonSchemaGbnf {
  private readonly refs = new Map<string, string>();
  private depth = 0;

  constructor(
    private readonly builder: GbnfBuilder,
    private readonly rootSchema: Schema,
  ) {
    addBasics(builder);
  }

  /** The name of a rule for a value matching `schema`. */
  rule(schema: Schema, hint: string): string {
    if (this.depth > 64) throw new GrammarConversionError("The JSON schema nests more than 64 levels deep: no grammar is made for it.");
    this.depth++;
    try {
      return this.ruleOf(schema, hint);
    } finally {
      this.depth--;
    }
  }

  private ruleOf(schema: Schema, hint: string): string {
    if (schema === true) return "json-value";
    if (schema === false) throw new GrammarConversionError(`The schema of ${hint} allows no value ("false").`);
    const s = schema as Record<string, unknown>;
    if (typeof s.$ref === "string") return this.ref(s.$ref);
    if ("const" in s) return this.builder.add(hint, gbnfLiteral(JSON.stringify(s.const)));
    if (Array.isArray(s.enum)) {
      if (s.enum.length === 0) throw new GrammarConversionError(`The schema of ${hint} has an empty enum: no value is allowed.`);
      return this.builder.add(hint, s.enum.map((value) => gbnfLiteral(JSON.stringify(value))).join(" | "));
    }
    const alternatives = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as Schema[] | undefined;
    if (alternatives && alternatives.length > 0) {
      return this.builder.add(hint, alternatives.map((alternative, i) => this.rule(alternative, `${hint}-${i}`)).join(" | "));
    }
    if (Array.isArray(s.allOf) && s.allOf.length === 1) return this.rule(s.allOf[0] as Schema, hint);
    const type = s.type;
    if (Array.isArray(type)) {
      return this.builder.add(hint, type.map((one) => this.rule({ ...s, type: one } as JsonSchema, `${hint}-${String(one)}`)).join(" | "));
    }
    switch (type) {
      case "string":
        return this.string(s, hint);
      case "integer":
        return "json-integer";
      case "number":
        return "json-number";
      case "boolean":
        return "json-boolean";
      case "null":
        return "json-null";
      case "array":
        return this.array(s, hint);
      case "object":
        return this.object(s, hint);
      case undefined:
        return s.properties !== undefined ? this.object(s, hint) : s.items !== undefined ? this.array(s, hint) : "json-value";
      default:
        throw new GrammarConversionError(`The schema of ${hint} has an unknown type "${String(type)}".`);
    }
  }

  private ref(ref: string): string {
    const found = this.refs.get(ref);
    if (found) return found;
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    const defs = match ? (asObject(this.rootSchema) as Record<string, Record<string, Schema> | undefined>)[match[1]!] : undefined;
    const target = match && defs ? defs[match[2]!] : ref === "#" ? this.rootSchema : undefined;
    if (target === undefined) throw new GrammarConversionError(`The schema refers to "${ref}", which it does not define.`);
    const name = this.builder.reserve(`ref-${match?.[2] ?? "root"}`);
    this.refs.set(ref, name);
    this.builder.define(name, this.rule(target, `${name}-value`));
    return name;
  }

  private string(s: Record<string, unknown>, hint: string): string {
    const min = typeof s.minLength === "number" ? Math.max(0, Math.floor(s.minLength)) : 0;
    const max = typeof s.maxLength === "number" ? Math.max(min, Math.floor(s.maxLength)) : undefined;
    if (min === 0 && max === undefined) return "json-string";
    return this.builder.add(hint, `"\\"" json-char{${min},${max ?? ""}} "\\""`);
  }

  private array(s: Record<string, unknown>, hint: string): string {
    const item = s.items === undefined || Array.isArray(s.items) ? "json-value" : this.rule(s.items as Schema, `${hint}-item`);
    const min = typeof s.minItems === "number" ? Math.max(0, Math.floor(s.minItems)) : 0;
    const max = typeof s.maxItems === "number" ? Math.max(min, Math.floor(s.maxItems)) : undefined;
    return this.builder.add(hint, `"[" ${SPACE} ${repeated(item, min, max)} "]"`);
  }

  private object(s: Record<string, unknown>, hint: string): string {
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    const names = Object.keys(properties);
    const additional = s.additionalProperties;
    if (names.length === 0) return additional === false ? this.builder.add(hint, `"{" ${SPACE} "}"`) : "json-object";
    const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]).filter((name): name is string => typeof name === "string") : []);
    const pair = (name: string) => {
      const value = this.rule(properties[name]!, `${hint}-${name}`);
      return this.builder.add(`${hint}-${name}-kv`, `${gbnfLiteral(JSON.stringify(name))} ${SPACE} ":" ${SPACE} ${value}`);
    };
    const pairs = new Map(names.map((name) => [name, pair(name)]));
    const extra = additional === true || (typeof additional === "object" && additional !== null) ? this.additionalPair(additional as Schema | true, names, hint) : undefined;
    const mandatory = names.filter((name) => required.has(name));
    const optional = names.filter((name) => !required.has(name)).map((name) => pairs.get(name)!);
    if (extra) optional.push(`${extra} ${SPACE} ("," ${SPACE} ${extra} ${SPACE})*`);
    const comma = `"," ${SPACE}`;
    let body: string;
    if (mandatory.length > 0) {
      const head = mandatory.map((name) => `${pairs.get(name)!} ${SPACE}`).join(` ${comma} `);
      const tail = optional.map((kv) => `(${comma} ${kv} ${SPACE})?`).join(" ");
      body = `"{" ${SPACE} ${head} ${tail} "}"`;
    } else {
      // Any subset of the optional properties in order: each may start the list, then the rest follow.
      let rest = "";
      const starts: string[] = [];
      for (let i = optional.length - 1; i >= 0; i--) {
        const restName = this.builder.add(`${hint}-rest`, rest === "" ? '""' : rest);
        starts.unshift(`${optional[i]} ${SPACE} ${restName}`);
        rest = `(${comma} ${optional[i]} ${SPACE})? ${restName}`;
      }
      body = `"{" ${SPACE} (${starts.join(" | ")})? "}"`;
    }
    return this.builder.add(hint, body);
  }

  private additionalPair(schema: Schema | true, known: string[], hint: string): string {
    const value = this.rule(schema, `${hint}-additional`);
    // A key that is none of the listed ones would need a negative rule; any JSON string is let through.
    void known;
    return this.builder.add(`${hint}-additional-kv`, `json-string ${SPACE} ":" ${SPACE} ${value}`);
  }
}
