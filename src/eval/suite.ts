// A suite in BFCL's own files: questions as JSON Lines (`{"id", "question": [[{role, content}]],
// "function": [...]}`) and possible answers as JSON Lines (`{"id", "ground_truth": [{name:
// {param: [allowed values]}}]}`). The import is all or nothing: the first malformed line is
// refused with its file and line number, and no case of a refused suite is kept.
import { nestedDeeperThan } from "toolcall-middleware/parser/settle-call.ts";
import { MAX_TOOL_DEFINITION_DEPTH } from "toolcall-middleware/tools/formats/index.ts";
import { z } from "zod";
import type { ChatMessage, ToolSpec } from "toolcall-middleware/types.ts";
import { bfclToolSpec, type BfclFunction } from "./bfcl-schema.ts";

/** One expected call: the function's name and, per parameter, the values accepted (`""`: may be left out). */
export type ExpectedCall = { name: string; parameters: Record<string, unknown[]> };

export interface EvalCase {
  id: string;
  /** BFCL's category, from the id (`parallel_multiple_12` → `parallel_multiple`). */
  category: string;
  /** The first turn of the question (BFCL's multi-turn categories are not supported yet). */
  messages: ChatMessage[];
  /** The functions as BFCL wrote them (the scorer reads their types). */
  functions: BfclFunction[];
  /** The same functions as the middleware's tools (JSON Schema). */
  tools: ToolSpec[];
  /** The calls a right answer makes; empty where the right answer is no call. */
  expected: ExpectedCall[];
  /** An irrelevance case: it passes if and only if no call is made. */
  expectsNoCall: boolean;
}

export type SuiteImport = { ok: true; cases: EvalCase[] } | { ok: false; error: string };

const propertySchema: z.ZodType<unknown> = z.lazy(() => z.object({ type: z.string().optional() }).passthrough());
const functionSchema = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  parameters: z.object({ type: z.string().optional(), properties: z.record(z.string(), propertySchema).optional(), required: z.array(z.string()).optional() }).passthrough(),
});
const messageSchema = z.object({ role: z.enum(["system", "user"]), content: z.string() });
const questionLineSchema = z.object({
  id: z.string().min(1),
  question: z.array(z.array(messageSchema)).min(1),
  function: z.union([z.array(functionSchema), functionSchema]),
});
const answerLineSchema = z.object({
  id: z.string().min(1),
  ground_truth: z.array(z.record(z.string(), z.record(z.string(), z.array(z.unknown())))),
});

/** BFCL's category of a case id: the id without its trailing number(s). */
export function categoryOf(id: string): string {
  return id.replace(/_[0-9]+(-[0-9]+)*$/, "");
}

/** Categories whose right answer is no call at all. */
export function expectsNoCall(category: string): boolean {
  return category.includes("irrelevance");
}

export interface SuiteFiles {
  questions: string;
  /** The possible answers; not needed when every case is an irrelevance case. */
  answers?: string;
  /** How the files are named in messages. */
  questionsName?: string;
  answersName?: string;
}

export function importBfclSuite(files: SuiteFiles): SuiteImport {
  const questionsName = files.questionsName ?? "questions";
  const answersName = files.answersName ?? "possible answers";
  const questions = readLines(files.questions, questionsName, questionLineSchema);
  if (!questions.ok) return questions;
  const answers = files.answers !== undefined ? readLines(files.answers, answersName, answerLineSchema) : { ok: true as const, rows: [] };
  if (!answers.ok) return answers;
  const answerById = new Map(answers.rows.map(({ value }) => [value.id, value]));

  const cases: EvalCase[] = [];
  const seen = new Set<string>();
  for (const { line, value } of questions.rows) {
    const where = `${questionsName} line ${line}`;
    if (seen.has(value.id)) return { ok: false, error: `${where}: the id "${value.id}" appears twice.` };
    seen.add(value.id);
    if (value.question.length !== 1) {
      return { ok: false, error: `${where}: "${value.id}" has ${value.question.length} turns; multi-turn cases need BFCL's stateful API classes and are not supported yet.` };
    }
    const category = categoryOf(value.id);
    const functions = (Array.isArray(value.function) ? value.function : [value.function]) as BfclFunction[];
    const noCall = expectsNoCall(category);
    const answer = answerById.get(value.id);
    if (!noCall && !answer) return { ok: false, error: `${where}: no possible answer for "${value.id}"${files.answers === undefined ? " (give the possible answers file)" : ` in ${answersName}`}.` };
    const expected: ExpectedCall[] = [];
    for (const entry of answer?.ground_truth ?? []) {
      const [name, parameters] = Object.entries(entry)[0] ?? [];
      if (name === undefined || parameters === undefined || Object.keys(entry).length !== 1) {
        return { ok: false, error: `${answersName}: the answer of "${value.id}" has an entry that is not one function call ({"name": {parameters}}).` };
      }
      if (!functions.some((fn) => fn.name === name)) return { ok: false, error: `${answersName}: the answer of "${value.id}" calls "${name}", which the case does not offer.` };
      expected.push({ name, parameters });
    }
    cases.push({
      id: value.id,
      category,
      messages: value.question[0]!.map((message) => ({ role: message.role, content: message.content })),
      functions,
      tools: functions.map(bfclToolSpec),
      expected,
      expectsNoCall: noCall,
    });
  }
  if (cases.length === 0) return { ok: false, error: `${questionsName}: no cases (the file is empty).` };
  return { ok: true, cases };
}

/** How deep a line of a suite file may nest: a function's schema as deep as a pasted tool's, and the line around it. */
const MAX_LINE_DEPTH = MAX_TOOL_DEFINITION_DEPTH + 8;

type Lines<T> = { ok: true; rows: Array<{ line: number; value: T }> } | { ok: false; error: string };

function readLines<T>(text: string, fileName: string, schema: z.ZodType<T>): Lines<T> {
  const rows: Array<{ line: number; value: T }> = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      return { ok: false, error: `${fileName} line ${line}: not JSON (${error instanceof Error ? error.message : String(error)}).` };
    }
    // Checked before the schema, which walks a line recursively (20,000 levels overflow the stack).
    if (nestedDeeperThan(parsed, MAX_LINE_DEPTH)) return { ok: false, error: `${fileName} line ${line}: nested more than ${MAX_LINE_DEPTH} levels deep (a function's schema may nest ${MAX_TOOL_DEFINITION_DEPTH}).` };
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const path = issue && issue.path.length > 0 ? issue.path.join(".") : "the line";
      return { ok: false, error: `${fileName} line ${line}: ${path}: ${issue?.message ?? "not in BFCL's format"}.` };
    }
    // The line as parsed, once the schema has checked it: zod's copy of a record drops a key named
    // `__proto__` (it assigns keys one by one), and a parameter may be called that.
    rows.push({ line, value: parsed as T });
  }
  return { ok: true, rows };
}
