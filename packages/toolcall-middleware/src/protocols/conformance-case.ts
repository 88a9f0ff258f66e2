// One conformance case (a JSON line: protocol, tools, chunks) run through the protocol's
// streaming parser, and its result line, as ../shared/conformance/README.md specifies. A case
// that cannot run gets a result with an error (kind "unknown-protocol", "invalid-case", …).
import { parseAll } from "../parser/collect.ts";
import type { Protocol, ToolSpec } from "../types.ts";
import { getProtocol } from "./registry.ts";
import { readToolDefinition } from "./tool-definitions.ts";

export interface CaseResult {
  id: string;
  text: string;
  reasoning?: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
  errors: { kind: string; message: string }[];
  repairs?: { kind: string; message: string }[];
}

function failure(id: string, kind: string, message: string): CaseResult {
  return { id, text: "", calls: [], errors: [{ kind, message }] };
}

/**
 * Finds a case's protocol by name: a registered one, or whatever the caller resolves (the
 * command resolves `template:<path>` to the protocol derived from that template); a string is
 * why there is none.
 */
export type ProtocolResolver = (name: string) => Protocol | string | undefined;

export function runConformanceCase(line: string, lineNumber: number, resolve: ProtocolResolver = getProtocol): CaseResult {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch (error) {
    return failure(`line-${lineNumber}`, "invalid-case", `line ${lineNumber} is not JSON: ${(error as Error).message}`);
  }
  const record = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const id = typeof record.id === "string" ? record.id : `line-${lineNumber}`;
  const protocol = typeof record.protocol === "string" ? resolve(record.protocol) : undefined;
  if (typeof protocol === "string") return failure(id, "unknown-protocol", `protocol ${JSON.stringify(record.protocol)}: ${protocol}`);
  if (!protocol) return failure(id, "unknown-protocol", `unknown protocol ${JSON.stringify(record.protocol)}`);
  const chunks = record.chunks;
  if (!Array.isArray(chunks) || !chunks.every((c) => typeof c === "string")) {
    return failure(id, "invalid-case", '"chunks" must be an array of strings');
  }
  const tools: ToolSpec[] = [];
  for (const definition of Array.isArray(record.tools) ? record.tools : []) {
    const reading = readToolDefinition(definition);
    if (!reading.ok) return failure(id, "invalid-case", reading.message);
    tools.push(reading.tool);
  }
  try {
    const result = parseAll(protocol, tools, chunks as string[]);
    return {
      id,
      text: result.text,
      reasoning: result.reasoning,
      calls: result.calls.map((c) => ({ name: c.name, arguments: c.arguments })),
      errors: result.errors.map((e) => ({ kind: e.kind, message: e.message })),
      repairs: result.repairs.map((r) => ({ kind: r.kind, message: r.message })),
    };
  } catch (error) {
    return failure(id, "parser-crash", `the parser threw: ${(error as Error).stack ?? String(error)}`);
  }
}

