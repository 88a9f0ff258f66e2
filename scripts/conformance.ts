// The conformance command: `npm run --silent conformance -- CASES.jsonl`. Reads one case a line
// (protocol, tools, chunks), streams the chunks through that protocol's parser and prints one
// JSON result a line, in order, and nothing else on stdout (see ../shared/conformance/README.md).
// A bad case gets a result line with an error; it never stops the run.
import { readFileSync } from "node:fs";
import { parseAll } from "../src/middleware/parser/collect.ts";
import { getProtocol } from "../src/middleware/protocols/registry.ts";
import { readToolDefinition } from "../src/middleware/protocols/tool-definitions.ts";
import type { ToolSpec } from "../src/middleware/types.ts";

interface CaseResult {
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

export function runCase(line: string, lineNumber: number): CaseResult {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch (error) {
    return failure(`line-${lineNumber}`, "invalid-case", `line ${lineNumber} is not JSON: ${(error as Error).message}`);
  }
  const record = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const id = typeof record.id === "string" ? record.id : `line-${lineNumber}`;
  const protocol = typeof record.protocol === "string" ? getProtocol(record.protocol) : undefined;
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

function main(): void {
  const path = process.argv[2];
  if (!path) {
    process.stderr.write("usage: npm run --silent conformance -- CASES.jsonl\n");
    process.exit(2);
  }
  let content: string;
  try {
    content = readFileSync(path, "utf8");
  } catch (error) {
    process.stderr.write(`cannot read ${path}: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const lines = content.split("\n");
  const out: string[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    out.push(JSON.stringify(runCase(line, index + 1)));
  });
  process.stdout.write(out.length > 0 ? `${out.join("\n")}\n` : "");
}

main();
