// `npm run --silent eval-report -- <results.json>...`: the Markdown that docs/real-model-evals.md
// shows for committed results files: where each was made (date, machine, model sha256, llama.cpp
// commit, settings, time and cases/s), the matrix of all of them together (Wilson intervals,
// drift, call p), and the decision point per protocol where a call is expected and where not.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { timedResults, timingTable } from "../src/eval/case-timing.ts";
import { matrixTable } from "../src/eval/matrix-table.ts";
import { readResultsFile, readRunInfo, type RunInfo } from "../src/eval/results-file.ts";
import type { EvalResult } from "../src/eval/run-case.ts";
import { rowKey } from "../src/eval/summary.ts";
import { categoryOf } from "../src/eval/suite.ts";
import { inertReportText, inertReportValue } from "./report-text.ts";

export interface ReportSource {
  name: string;
  run: RunInfo | undefined;
  results: EvalResult[];
}

/** A case's log is read for its timings (numbers), never printed; its calls' arguments are not printed either. */
const NOT_PRINTED = new Set(["log", "calls"]);

export function evalReport(fileSources: readonly ReportSource[]): string {
  // Every text a file gave is printed inert (report-text.ts): no terminal controls, no live Markdown or HTML.
  const sources = fileSources.map(({ name, run, results }) => ({ name: inertReportText(name), run: inertReportValue(run), results: inertReportValue(results, NOT_PRINTED) }));
  const lines: string[] = [];
  for (const { name, run, results } of sources) {
    if (!run) {
      lines.push(`- \`${name}\`: ${results.length} cases (the file does not say where it was made)`);
      continue;
    }
    const server = run.llamaCpp ? `, llama.cpp ${run.llamaCpp.commit.slice(0, 12)} (${run.llamaCpp.servers ? `${run.llamaCpp.servers} servers, ` : ""}${run.llamaCpp.parallelSlots ?? 1} slots${run.llamaCpp.threads ? `, ${run.llamaCpp.threads} thread${run.llamaCpp.threads === 1 ? "" : "s"}${run.llamaCpp.servers ? " each" : ""}` : ""}${run.llamaCpp.waitPolicy ? `, OMP_WAIT_POLICY=${run.llamaCpp.waitPolicy}` : ""})` : "";
    const cpu = run.llamaCpp?.cpuSeconds !== undefined && results.length > 0 ? `; llama-server CPU ${run.llamaCpp.cpuSeconds} s (${(run.llamaCpp.cpuSeconds / results.length).toFixed(2)} s a case)` : "";
    const settings = Object.entries(run.settings).map(([k, v]) => `${k} ${String(v)}`).join(", ");
    lines.push(`- \`${name}\`: ${results.length} cases on ${run.date.slice(0, 16).replace("T", " ")} UTC, ${run.machine.cpu} × ${run.machine.cores} cores; model ${run.model.id}${run.model.sha256 ? ` (sha256 ${run.model.sha256.slice(0, 12)}…)` : ""}${server}; ${settings}; ${run.durationSeconds ?? "?"} s, ${run.casesPerSecond ?? "?"} cases/s${cpu}`);
  }
  const all = sources.flatMap((s) => s.results);
  lines.push("", "```", matrixTable(all), "```", "", "| protocol | call expected: mean call p (n; opener not in top 5) | no call expected (irrelevance): mean call p (n; not in top 5) |", "|---|---|---|");
  const rows = new Map<string, EvalResult[]>();
  for (const result of all) rows.set(rowKey(result), [...(rows.get(rowKey(result)) ?? []), result]);
  for (const results of rows.values()) {
    const first = results[0]!;
    const cell = (subset: EvalResult[]) => {
      const recorded = subset.filter((r) => r.callP !== undefined);
      if (recorded.length === 0) return "–";
      const mean = recorded.reduce((sum, r) => sum + (r.callP ?? 0), 0) / recorded.length;
      return `${mean.toFixed(3)} (${recorded.length}; ${recorded.filter((r) => r.callP === null).length})`;
    };
    lines.push(`| ${first.protocol}${first.constrained ? " +constrained" : ""} | ${cell(results.filter((r) => r.category !== "irrelevance"))} | ${cell(results.filter((r) => r.category === "irrelevance"))} |`);
  }
  // Where the time went, from the cases' logs (files without logs have none to give).
  const timed = timedResults(all);
  if (timed.length > 0) lines.push("", "Where the time went (from the cases' logs; llama-server's own prefill and decode times, which overlap across slots):", "", "```", timingTable(timed), "```");
  return `${lines.join("\n")}\n`;
}

export function readReportSource(path: string): ReportSource {
  const text = readFileSync(path, "utf8");
  return { name: path, run: readRunInfo(text), results: readResultsFile(text, categoryOf) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const paths = process.argv.slice(2);
  if (paths.length === 0) {
    process.stderr.write("usage: npm run --silent eval-report -- <results.json>...\n");
    process.exitCode = 2;
  } else {
    process.stdout.write(evalReport(paths.map(readReportSource)));
  }
}
