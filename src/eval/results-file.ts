// The results file, shared by the command and the Evaluate view (export and import):
// {"results": [{"id", "category", "repeat", "protocol", "mode", "constrained", "pass",
// "strictPass", "reason", "calls": [{"name", "arguments"}]}], "summary": [{"protocol", "mode",
// "constrained", "category", "n", "pass", "strictPass"}]} — pass and strictPass in the summary
// are fractions (0–1) of n. `category` and `repeat` are kept per result so that an imported file
// can be summarised again. `run` (optional, so older files still import) says where the figures
// come from: date, machine, model sha256, llama.cpp commit, settings, time taken. `log`
// (optional too) is the case's step as recorded, in the shared-text encoding (case-log.ts), so
// the case opens in the debugger; `logOmitted` says why a case that ran has none. The file is
// written with `resultsFileText`: indented, each log on one line.
import { z } from "zod";
import { caseLogSchema, type CaseLog } from "./case-log.ts";
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
  log?: CaseLog;
  logOmitted?: string;
}

/** Where and how a results file was made: what a reader needs to trust or repeat its figures. */
export interface RunInfo {
  /** ISO 8601, when the run (its first session, for a resumed one) started. */
  date: string;
  machine: { cpu: string; cores: number; memoryGiB?: number };
  model: { id: string; sha256?: string; file?: string };
  /** The llama.cpp commit of the llama-server that ran the model, when the command started one. */
  llamaCpp?: {
    commit: string;
    parallelSlots?: number;
    /** llama-server's threads (`-t`) and how they wait (OMP_WAIT_POLICY): together they set its speed on a small machine. */
    threads?: number;
    waitPolicy?: string;
    /** How many llama-servers shared the cases (`--servers`); parallelSlots counts all their slots. */
    servers?: number;
    /** The server's CPU time (user + system seconds) over the run's cases, all sessions together: the run's work whatever else the machine ran. */
    cpuSeconds?: number;
  };
  settings: Record<string, string | number | boolean>;
  /** Wall time of all sessions together (a stopped and resumed run adds up). */
  durationSeconds?: number;
  casesPerSecond?: number;
}

export interface ResultsFile {
  run?: RunInfo;
  results: ResultsFileEntry[];
  summary: SummaryRow[];
}

export function toResultsFile(results: readonly EvalResult[], run?: RunInfo): ResultsFile {
  return {
    ...(run ? { run } : {}),
    results: results.map((r) => ({ id: r.id, category: r.category, repeat: r.repeat, protocol: r.protocol, mode: r.mode, constrained: r.constrained, pass: r.pass, strictPass: r.strictPass, reason: r.reason, calls: r.calls, ...(r.drift ? { drift: r.drift } : {}), ...(r.callP !== undefined ? { callP: r.callP } : {}), ...(r.log ? { log: r.log } : {}), ...(r.logOmitted !== undefined ? { logOmitted: r.logOmitted } : {}) })),
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
  log: caseLogSchema.optional(),
  logOmitted: z.string().optional(),
});
const runSchema = z.object({
  date: z.string(),
  machine: z.object({ cpu: z.string(), cores: z.number().int().nonnegative(), memoryGiB: z.number().optional() }),
  model: z.object({ id: z.string(), sha256: z.string().optional(), file: z.string().optional() }),
  llamaCpp: z.object({ commit: z.string(), parallelSlots: z.number().int().positive().optional(), threads: z.number().int().positive().optional(), waitPolicy: z.string().optional(), servers: z.number().int().positive().optional(), cpuSeconds: z.number().nonnegative().optional() }).optional(),
  settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  durationSeconds: z.number().nonnegative().optional(),
  casesPerSecond: z.number().nonnegative().optional(),
});

/**
 * The file's text: indented as JSON.stringify(file, null, 2) writes it (the verdicts read and
 * diff line by line), but each case's `log` on one line: indented, a log's thousands of small
 * records (a token, its probabilities, its alternatives) would take a line each, several
 * times the characters.
 */
export function resultsFileText(file: ResultsFile): string {
  return `${indented(file, "", false)}\n`;
}

function indented(value: unknown, indent: string, compact: boolean): string {
  if (compact || value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${indented(item, inner, false)}`).join(",\n")}\n${indent}]`;
  }
  const fields = Object.entries(value as Record<string, unknown>).filter(([, field]) => field !== undefined);
  if (fields.length === 0) return "{}";
  return `{\n${fields.map(([key, field]) => `${inner}${JSON.stringify(key)}: ${indented(field, inner, key === "log")}`).join(",\n")}\n${indent}}`;
}

/** The file's `run` block, or undefined for a file without one (older files, the view's exports). */
export function readRunInfo(text: string): RunInfo | undefined {
  const checked = z.object({ run: runSchema.optional() }).safeParse(JSON.parse(text));
  if (!checked.success) throw new Error(`not an eval results file: run: ${checked.error.issues[0]?.message ?? "unexpected shape"}`);
  return checked.data.run;
}

/**
 * The longest results file the Evaluate view opens, in characters (≈ bytes: the files are ASCII
 * JSON). The lab's own files of 250 cases with their logs are up to 11 MB; 50 MB froze the view
 * 6 s before reading was sliced, and a file several times that would hold the tab's memory.
 */
export const RESULTS_FILE_MAX_CHARS = 32 * 1024 * 1024;
/** Results checked between turns for the page (each may carry a case log of thousands of records). */
const ENTRIES_PER_SLICE = 20;

/** Reads a results file back as results (what the view needs); throws a message naming what is wrong. */
export function readResultsFile(text: string, categoryOf: (id: string) => string): EvalResult[] {
  const { parsed, entries } = parseResultsText(text);
  for (const [index, entry] of entries.entries()) checkEntry(entry, index);
  return resultsOf(parsed, categoryOf);
}

/**
 * `readResultsFile` for the page: a file over `maxChars` is refused before it is parsed, and the
 * results are checked a slice at a time with `pause()` between slices (a turn for the page).
 */
export async function readResultsFileInSlices(text: string, categoryOf: (id: string) => string, pause: () => Promise<void>, maxChars = RESULTS_FILE_MAX_CHARS): Promise<EvalResult[]> {
  const tooLarge = resultsFileTooLarge(text.length, maxChars);
  if (tooLarge) throw new Error(tooLarge);
  await pause();
  const { parsed, entries } = parseResultsText(text);
  for (let at = 0; at < entries.length; at += ENTRIES_PER_SLICE) {
    await pause();
    for (let index = at; index < Math.min(entries.length, at + ENTRIES_PER_SLICE); index++) checkEntry(entries[index], index);
  }
  return resultsOf(parsed, categoryOf);
}

/** Why a file of this many characters (or bytes) is not opened, if it is over `maxChars`. */
export function resultsFileTooLarge(chars: number, maxChars = RESULTS_FILE_MAX_CHARS): string | undefined {
  if (chars <= maxChars) return undefined;
  return `the file is ${megabytes(chars)}; the lab opens results files of at most ${megabytes(maxChars)} (a run of 250 cases with their logs is about 11 MB)`;
}

function megabytes(chars: number): string {
  return `${(chars / 1024 / 1024).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;
}

// The file's fields, its results checked one by one apart (see readResultsFileInSlices).
const fileShapeSchema = z.object({ run: runSchema.optional(), results: z.array(z.unknown()) });

function parseResultsText(text: string): { parsed: unknown; entries: unknown[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const checked = fileShapeSchema.safeParse(parsed);
  if (!checked.success) throw notAResultsFile(checked.error.issues[0]);
  return { parsed, entries: checked.data.results };
}

function checkEntry(entry: unknown, index: number): void {
  const checked = entrySchema.safeParse(entry);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw notAResultsFile(issue ? { ...issue, path: ["results", index, ...issue.path] } : undefined);
  }
}

function notAResultsFile(issue: { path: PropertyKey[]; message: string } | undefined): Error {
  return new Error(`not an eval results file: ${issue?.path.map(String).join(".") || "the file"}: ${issue?.message ?? "unexpected shape"}`);
}

function resultsOf(parsed: unknown, categoryOf: (id: string) => string): EvalResult[] {
  // The file as parsed, once checked: zod's copy of the arguments record would drop a `__proto__` key.
  return (parsed as { results: z.infer<typeof entrySchema>[] }).results.map((r) => ({ ...r, category: r.category ?? categoryOf(r.id), repeat: r.repeat ?? 0, durationMs: 0, runId: "" }));
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
