// Writes the example results the Evaluate view opens before any run (public/eval/examples/):
// for each real model, the first questions of each category of its committed full-matrix files
// (eval-results/<model>.<protocol>….json), every protocol row and constraint, each case with the
// step log it was recorded with (the shared-text encoding: each long text of a case once), so
// every example case opens in the debugger with its token probabilities. Verdicts are scored
// again from each case's recorded log with today's scorer (scoreRecordedCase: nothing re-parsed,
// nothing run); a verdict that changes is printed. Prints each file's size.
//
//   npx tsx scripts/build-eval-examples.ts
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { BUILTIN_CATEGORIES, builtinFiles, sampleCases } from "../src/eval/builtin-suite.ts";
import { readCaseLog } from "../src/eval/case-log.ts";
import { resultsFileText, toResultsFile, type RunInfo } from "../src/eval/results-file.ts";
import { scoreRecordedCase, type EvalResult } from "../src/eval/run-case.ts";
import { categoryOf, importBfclSuite, type EvalCase } from "../src/eval/suite.ts";
import { readResultsFile } from "../src/eval/results-file.ts";

/** Questions per category taken from each model's files: a matrix of every row, a few megabytes at most. */
export const EXAMPLES = [
  { model: "smollm2-135m-instruct-q4_1", perCategory: 2, out: "public/eval/examples/smollm2-135m-instruct-q4_1.json" },
  { model: "gemma-3-270m-q4_k_m", perCategory: 1, out: "public/eval/examples/gemma-3-270m-q4_k_m.json" },
];

const ROW_ORDER = ["hermes", "xml", "pythonic", "llama3-json"];

function builtinCases(): EvalCase[] {
  const cases: EvalCase[] = [];
  for (const category of BUILTIN_CATEGORIES) {
    const files = builtinFiles(category);
    const read = (path: string) => readFileSync(`public/${path}`, "utf8");
    const imported = importBfclSuite({ questions: read(files.questions), ...(files.answers ? { answers: read(files.answers) } : {}) });
    if (!imported.ok) throw new Error(imported.error);
    cases.push(...imported.cases);
  }
  return cases;
}

function main(): void {
  const suite = builtinCases();
  const byId = new Map(suite.map((c) => [c.id, c]));
  for (const example of EXAMPLES) {
    // The full-matrix files (a protocol in the name); the earlier subset's <model>.hermes+llama3-json+pythonic+xml.constrained-{off,on}.json hold no logs.
    const files = readdirSync("eval-results")
      .filter((name) => ROW_ORDER.some((protocol) => name.startsWith(`${example.model}.${protocol}.`)))
      .sort();
    const wanted = new Set(sampleCases(suite, example.perCategory, 0).map((c) => c.id));
    const chosen: EvalResult[] = [];
    let run: RunInfo | undefined;
    let changed = 0;
    for (const name of files) {
      const text = readFileSync(`eval-results/${name}`, "utf8");
      run ??= (JSON.parse(text) as { run?: RunInfo }).run;
      for (const result of readResultsFile(text, categoryOf)) {
        if (!wanted.has(result.id)) continue;
        const testCase = byId.get(result.id);
        const protocol = getProtocol(result.protocol);
        if (!testCase || !protocol || !result.log) throw new Error(`${name}: ${result.id} (${result.protocol}) has no case, protocol or log to score again`);
        const verdict = scoreRecordedCase({ testCase, events: readCaseLog(result.log), protocol, mode: result.mode });
        if (verdict.pass !== result.pass || verdict.strictPass !== result.strictPass) {
          changed += 1;
          console.log(`${name}: ${result.id} ${result.protocol}${result.constrained ? " +c" : ""}: pass ${result.pass}/${result.strictPass} → ${verdict.pass}/${verdict.strictPass} (${verdict.reason})`);
        }
        chosen.push({ ...result, pass: verdict.pass, strictPass: verdict.strictPass, reason: verdict.reason });
      }
    }
    const category = (id: string) => BUILTIN_CATEGORIES.indexOf(categoryOf(id) as (typeof BUILTIN_CATEGORIES)[number]);
    const number = (id: string) => Number(/(\d+)$/.exec(id)?.[1] ?? 0);
    chosen.sort((a, b) => ROW_ORDER.indexOf(a.protocol) - ROW_ORDER.indexOf(b.protocol) || Number(a.constrained) - Number(b.constrained) || category(a.id) - category(b.id) || number(a.id) - number(b.id));
    const settings = {
      ...(run?.settings ?? {}),
      protocols: ROW_ORDER.join(","),
      constrained: "off and on",
      casesPerCategory: example.perCategory,
      source: `the first ${example.perCategory} question${example.perCategory === 1 ? "" : "s"} of each category of eval-results/${example.model}.<protocol>….json, scored again from their logs (scripts/build-eval-examples.ts)`,
    };
    const info: RunInfo | undefined = run ? { date: run.date, machine: run.machine, model: run.model, ...(run.llamaCpp ? { llamaCpp: run.llamaCpp } : {}), settings } : undefined;
    const out = resultsFileText(toResultsFile(chosen, info));
    writeFileSync(example.out, out);
    const withLog = chosen.filter((r) => r.log).length;
    console.log(`${example.out}: ${chosen.length} cases from ${files.length} files, ${withLog} with their log, ${(Buffer.byteLength(out) / 1e6).toFixed(2)} MB; ${changed} verdicts changed when scored again`);
  }
}

main();
