// The matrix as a text table (the command prints it at the end): a row per protocol × mode ×
// constrained, a column per category and one for all; each cell the pass rate, strict beside it,
// and n. Bounded as the Evaluate view's matrix is (matrix-model.ts), with a line saying what is
// not drawn.
import { callPText, driftText, matrixModel, matrixOmissions } from "./matrix-model.ts";
import type { EvalResult } from "./run-case.ts";
import { wilson } from "./summary.ts";

export function matrixTable(results: readonly EvalResult[]): string {
  const model = matrixModel([{ label: "", results }]);
  const percent = (x: number) => `${Math.round(x * 100)}%`;
  const header = ["protocol", ...model.columns, "drift", "call p"];
  const lines = model.rows.map((row) => {
    const label = `${row.first.protocol}${row.first.mode === "native" ? "" : row.first.constrained ? " +constrained" : ""}`;
    const columns = model.columns.map((category) => {
      const cell = row.cells.get(category);
      if (!cell) return "–";
      const interval = wilson(cell.pass, cell.n);
      return `${percent(cell.pass / cell.n)} [${percent(interval.low)}–${percent(interval.high)}] strict ${percent(cell.strict / cell.n)} n=${cell.n}`;
    });
    return [label, ...columns, driftText(row), callPText(row)];
  });
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...lines.map((line) => line[i]!.length)));
  const format = (line: string[]) => line.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd();
  const omitted = matrixOmissions(model);
  return [format(header), format(widths.map((w) => "-".repeat(w))), ...lines.map(format), ...(omitted ? [omitted] : [])].join("\n");
}
