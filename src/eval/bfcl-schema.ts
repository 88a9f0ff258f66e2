// BFCL's function documents describe parameters in a dialect of JSON Schema written for Python:
// `dict` for an object, `float` for a number, `tuple` for an array, `any` for a value of any
// type. The middleware (its prompts, parsers and coercion) speaks JSON Schema, so a BFCL
// function becomes a tool spec here; the scorer keeps reading BFCL's own types.
import type { JsonSchema, ToolSpec } from "toolcall-middleware/types.ts";

/** A function as BFCL's question files give it. */
export interface BfclFunction {
  name: string;
  description?: string;
  parameters: BfclParameters;
}

export interface BfclParameters {
  type?: string;
  properties?: Record<string, BfclProperty>;
  required?: string[];
  [key: string]: unknown;
}

export interface BfclProperty {
  type?: string;
  items?: BfclProperty;
  properties?: Record<string, BfclProperty>;
  [key: string]: unknown;
}

/** BFCL's type names and what each is in JSON Schema (`undefined`: no type, any value). */
const TYPE_IN_JSON_SCHEMA: Record<string, string | undefined> = {
  string: "string",
  integer: "integer",
  float: "number",
  number: "number",
  boolean: "boolean",
  array: "array",
  tuple: "array",
  dict: "object",
  object: "object",
  any: undefined,
  null: "null",
};

/** One schema node of BFCL's dialect as JSON Schema; nested properties and items follow. */
export function bfclToJsonSchema(node: unknown): JsonSchema {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return {};
  // Built from entries, never by assignment: a key named `__proto__` stays a key.
  const entries: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === "type") {
      // A type outside the dialect (a Java or JavaScript type name) is left open rather than guessed.
      const mapped = typeof value === "string" && Object.hasOwn(TYPE_IN_JSON_SCHEMA, value) ? TYPE_IN_JSON_SCHEMA[value] : undefined;
      if (mapped !== undefined) entries.push(["type", mapped]);
    } else if (key === "properties" && value !== null && typeof value === "object") {
      entries.push(["properties", Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, child]) => [name, bfclToJsonSchema(child)]))]);
    } else if (key === "items") {
      entries.push(["items", bfclToJsonSchema(value)]);
    } else {
      entries.push([key, value]);
    }
  }
  return Object.fromEntries(entries) as JsonSchema;
}

/** A BFCL function as the middleware's tool spec (the parameters an object schema). */
export function bfclToolSpec(fn: BfclFunction): ToolSpec {
  const parameters = bfclToJsonSchema(fn.parameters);
  parameters.type = "object";
  parameters.properties ??= {};
  return { name: fn.name, description: fn.description ?? "", parameters };
}
