// The results file, shared by the command and the Evaluate view (export and import):
// {"results": [{"id", "category", "repeat", "protocol", "mode", "constrained", "pass",
// "strictPass", "reason", "calls": [{"name", "arguments"}]}], "summary": [{"protocol", "mode",
// "constrained", "category", "n", "pass", "strictPass"}]} — pass and strictPass in the summary
// are fractions (0–1) of n. `category` and `repeat` are kept per result so that an imported file
// can be summarised again.
import { z } from "zod";
import type { EvalResult } from "./run-case.ts";
import { summarise, type SummaryRow } from "./summary.ts";

export interface ResultsFileEntry {
  id: string;
  category: string;
  repeat: number;
  protocol: string;
  mode: EvalResult["mode"];
  constrained: boolean;
  pass: boolean;
  strictPass: boolean;
  reason: string;
  calls: EvalResult["calls"];
  drift?: string[];
  callP?: number | null;
}

export interface ResultsFile {
  results: ResultsFileEntry[];
  summary: SummaryRow[];
}

export function toResultsFile(results: readonly EvalResult[]): ResultsFile {
  return {
    results: results.map((r) => ({ id: r.id, category: r.category, repeat: r.repeat, protocol: r.protocol, mode: r.mode, constrained: r.constrained, pass: r.pass, strictPass: r.strictPass, reason: r.reason, calls: r.calls, ...(r.drift ? { drift: r.drift } : {}), ...(r.callP !== undefined ? { callP: r.callP } : {}) })),
    summary: summarise(results),
  };
}

const entrySchema = z.object({
  id: z.string(),
  category: z.string().optional(),
  repeat: z.number().int().nonnegative().optional(),
  protocol: z.string(),
  mode: z.enum(["prompt", "native"]),
  constrained: z.boolean(),
  pass: z.boolean(),
  strictPass: z.boolean(),
  reason: z.string(),
  calls: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })),
  drift: z.array(z.string()).optional(),
  callP: z.number().min(0).max(1).nullable().optional(),
});
const fileSchema = z.object({ results: z.array(entrySchema) });

/** Reads a results file back as results (what the view needs); throws a message naming what is wrong. */
export function readResultsFile(text: string, categoryOf: (id: string) => string): EvalResult[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const checked = fileSchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new Error(`not an eval results file: ${issue?.path.join(".") || "the file"}: ${issue?.message ?? "unexpected shape"}`);
  }
  // The file as parsed, once checked: zod's copy of the arguments record would drop a `__proto__` key.
  return (parsed as z.infer<typeof fileSchema>).results.map((r) => ({ ...r, category: r.category ?? categoryOf(r.id), repeat: r.repeat ?? 0, durationMs: 0, runId: "" }));
}

/** The results as CSV (one row per result; calls as JSON), for spreadsheets. */
export function resultsCsv(results: readonly EvalResult[]): string {
  const header = ["id", "category", "repeat", "protocol", "mode", "constrained", "pass", "strictPass", "reason", "calls"];
  const cell = (value: unknown) => {
    const text = typeof value === "string" ? inertFormula(value) : JSON.stringify(value);
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const rows = results.map((r) => [r.id, r.category, r.repeat, r.protocol, r.mode, r.constrained, r.pass, r.strictPass, r.reason, r.calls].map(cell).join(","));
  return `${[header.join(","), ...rows].join("\n")}\n`;
}

/**
 * A text cell a spreadsheet would run as a formula (it starts with =, +, -, @, or a tab or carriage
 * return before one) gets a leading apostrophe: it shows as the text it is. A model's call
 * name, a reason quoting its output, an imported file's ids are anybody's text.
 */
export function inertFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
