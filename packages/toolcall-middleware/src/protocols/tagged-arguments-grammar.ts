// An XGrammar EBNF grammar for a call's arguments written one tagged value each, from the
// tool's JSON Schema, for formats XGrammar has no built-in structure for (MiniMax M2's
// `<parameter name="k">v</parameter>`, GLM's `<arg_key>k</arg_key><arg_value>v</arg_value>`):
// the schema's properties in order, required ones always, optional ones optionally. Text holds
// no `<` (and is as long as its schema allows); numbers, integers, booleans and enums are what their schema allows; arrays and
// objects are JSON text (as these formats write them).
import type { JsonSchema } from "../types.ts";

/**
 * A piece of the text before a value: fixed text, one of some words (a word that names the
 * value's type, as DeepSeek V3.2's `string="true"` and Kimi K3's `type="number"`), or any word.
 */
export type TagPiece = string | { oneOf: readonly string[] } | { anyWord: true };

/** `before` and `after` the value of the argument `key` (whose schema is `schema`), as the format writes them. */
export type ArgumentTags = (key: string, schema: JsonSchema | undefined) => [before: string | readonly TagPiece[], after: string];

export interface TaggedArgumentsOptions {
  /** How booleans are written: JSON's `true`/`false` (the default) or Python's `True`/`False`. */
  booleans?: "json" | "python";
}

function piecesGrammar(before: string | readonly TagPiece[]): string {
  const pieces = typeof before === "string" ? [before] : before;
  return pieces
    .filter((piece) => piece !== "")
    .map((piece) => (typeof piece === "string" ? JSON.stringify(piece) : "oneOf" in piece ? `(${piece.oneOf.map((w) => JSON.stringify(w)).join(" | ")})` : "arg_word"))
    .join(" ");
}

export function taggedArgumentsGrammar(parameters: JsonSchema, tags: ArgumentTags, options: TaggedArgumentsOptions = {}): string {
  const properties = (parameters.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(parameters.required) ? (parameters.required as string[]) : []);
  const value = (schema: JsonSchema | undefined): string => {
    if (schema && Array.isArray(schema.enum) && schema.enum.length > 0) return `(${schema.enum.map((v) => JSON.stringify(typeof v === "string" ? v : JSON.stringify(v))).join(" | ")})`;
    const types = Array.isArray(schema?.type) ? (schema!.type as string[]) : typeof schema?.type === "string" ? [schema.type] : [];
    if (types.length === 1 && types[0] === "number") return "arg_number";
    if (types.length === 1 && types[0] === "integer") return "arg_integer";
    if (types.length === 1 && types[0] === "boolean") return "arg_boolean";
    // A string's length bounds, where its schema gives them (a small model may otherwise never close the value).
    if (types.length === 1 && types[0] === "string" && (typeof schema?.maxLength === "number" || typeof schema?.minLength === "number")) {
      const min = typeof schema?.minLength === "number" ? Math.max(0, Math.floor(schema.minLength)) : 0;
      const max = typeof schema?.maxLength === "number" ? Math.max(min, Math.floor(schema.maxLength)) : undefined;
      return `[^<]{${min},${max ?? ""}}`;
    }
    return "arg_text";
  };
  const parts = Object.entries(properties).map(([key, schema]) => {
    const [before, after] = tags(key, schema);
    const element = `${piecesGrammar(before)} ${value(schema)} ${JSON.stringify(after)}`;
    return required.has(key) ? element : `(${element})?`;
  });
  return [
    `root ::= ${parts.length > 0 ? parts.join(" ") : '""'}`,
    "arg_text ::= [^<]*",
    'arg_number ::= "-"? ("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [+-]? [0-9]+)?',
    'arg_integer ::= "-"? ("0" | [1-9] [0-9]*)',
    options.booleans === "python" ? 'arg_boolean ::= "True" | "False"' : 'arg_boolean ::= "true" | "false"',
    "arg_word ::= [A-Za-z0-9_-]*",
  ].join("\n");
}
