// An MCP tool's definition as the model is told about it. MCP input schemas are JSON Schema
// objects already; what changes is only what our prompts and format converters rely on: the
// root is an object with `properties`, and the `$schema` key (noise to a model) is dropped.
import type { JsonSchema, ToolSpec } from "toolcall-middleware/types.ts";

/** The parts of an MCP `Tool` (from `tools/list`) the lab uses. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: ToolAnnotations;
}

/** What a server says about a tool's behaviour (hints: a server may say anything). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * Whether the lab asks before running the tool: only when the server marks it destructive
 * (`destructiveHint: true`, not read-only). The spec's default for a tool without annotations is
 * "may be destructive", but asking before every unannotated tool would make the prompt noise.
 */
export function asksBeforeRunning(tool: McpToolDefinition): boolean {
  return tool.annotations?.destructiveHint === true && tool.annotations.readOnlyHint !== true;
}

/** The annotations as short words for the panel ("read-only", "destructive", …). */
export function annotationWords(tool: McpToolDefinition): string[] {
  const a = tool.annotations;
  if (!a) return [];
  return [
    a.readOnlyHint === true ? "read-only" : "",
    a.destructiveHint === true && a.readOnlyHint !== true ? "destructive" : "",
    a.idempotentHint === true ? "idempotent" : "",
    a.openWorldHint === true ? "open-world" : "",
  ].filter(Boolean);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The arguments schema of an MCP tool, as an object schema our protocols can render. */
export function toParametersSchema(inputSchema: unknown): JsonSchema {
  if (!isObject(inputSchema)) return { type: "object", properties: {} };
  const { $schema: _dialect, ...schema } = inputSchema;
  if (schema.type !== undefined && schema.type !== "object") {
    // The spec requires an object; a server that says otherwise still gets its schema shown,
    // under a single `input` argument, rather than a definition no model can call.
    return { type: "object", properties: { input: schema }, required: ["input"] };
  }
  return { ...schema, type: "object", properties: isObject(schema.properties) ? schema.properties : {} };
}

/** What the model is told about an MCP tool, under the name the lab offers it by. */
export function toToolSpec(tool: McpToolDefinition, offeredName: string): ToolSpec {
  const description = tool.description?.trim() || tool.title?.trim() || tool.annotations?.title?.trim() || `The ${tool.name} tool of an MCP server.`;
  return { name: offeredName, description, parameters: toParametersSchema(tool.inputSchema) };
}
