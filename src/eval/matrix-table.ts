// The matrix as a text table (the command prints it at the end): a row per protocol × mode ×
// constrained, a column per category and one for all cases; each cell the pass rate, strict
// beside it, and n.
import type { EvalResult } from "./run-case.ts";
import { rowKey, summarise, wilson } from "./summary.ts";

export function matrixTable(results: readonly EvalResult[]): string {
  const categories = [...new Set(results.map((r) => r.category))];
  const rows = [...new Map(results.map((r) => [rowKey(r), r])).values()];
  const all = summarise(results.map((r) => ({ ...r, category: "all" })));
  const cells = summarise(results);
  const percent = (x: number) => `${Math.round(x * 100)}%`;
  const header = ["protocol", ...categories, "all", "drift", "call p"];
  const lines = rows.map((row) => {
    const key = rowKey(row);
    const label = `${row.protocol}${row.mode === "native" ? "" : row.constrained ? " +constrained" : ""}`;
    const columns = [...categories, "all"].map((category) => {
      const cell = (category === "all" ? all : cells).find((c) => rowKey(c) === key && c.category === category);
      if (!cell) return "–";
      const interval = wilson(Math.round(cell.pass * cell.n), cell.n);
      return `${percent(cell.pass)} [${percent(interval.low)}–${percent(interval.high)}] strict ${percent(cell.strictPass)} n=${cell.n}`;
    });
    const overall = all.find((c) => rowKey(c) === key);
    const failed = overall ? overall.n - Math.round(overall.pass * overall.n) : 0;
    const drift = overall ? `${overall.drift ?? 0}/${failed} failed` : "–";
    const callP = overall?.meanCallP !== undefined ? `${overall.meanCallP.toFixed(2)} (n=${overall.callPCount})` : "–";
    return [label, ...columns, drift, callP];
  });
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...lines.map((line) => line[i]!.length)));
  const format = (line: string[]) => line.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd();
  return [format(header), format(widths.map((w) => "-".repeat(w))), ...lines.map(format)].join("\n");
}
