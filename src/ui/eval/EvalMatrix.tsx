// The matrix: a row per protocol × constrained (per results source), a column per category and
// one for all; each cell the pass rate with n and its Wilson 95% interval, strict beside it, the
// best pass rate per column marked, and the cell shaded by its rate (a heatmap).
import { useMemo } from "react";
import { callPText, driftText, matrixModel, matrixOmissions } from "../../eval/matrix-model.ts";
import { wilson } from "../../eval/summary.ts";
import type { EvalResult } from "../../eval/run-case.ts";

export interface MatrixSource {
  label: string;
  results: readonly EvalResult[];
}

export function EvalMatrix({ sources }: { sources: MatrixSource[] }) {
  // Built in one pass, cells indexed by row and column; only the first rows and categories drawn.
  const model = useMemo(() => matrixModel(sources), [sources]);
  if (model.rows.length === 0) return null;
  const { columns, best } = model;
  const rows = model.rows.map((row) => ({
    key: row.key,
    label: `${sources.length > 1 ? `${row.source} · ` : ""}${row.first.protocol}${row.first.mode === "native" ? "" : row.first.constrained ? " + constrained" : ""}`,
    cells: row.cells,
    model: row,
  }));
  const omitted = matrixOmissions(model);
  return (
    <div className="eval-matrix-wrap">
      <table className="eval-matrix" data-testid="eval-matrix">
        <thead>
          <tr>
            <th scope="col">protocol</th>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
            <th scope="col" title="Of the failed cases, those where the model wrote calls in another protocol's format">
              format drift
            </th>
            <th scope="col" title="Mean probability of opening a call at the decision point, over the cases that recorded token probabilities">
              call p
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-testid="eval-matrix-row" data-row={row.label}>
              <th scope="row">{row.label}</th>
              {columns.map((column) => {
                const cell = row.cells.get(column);
                if (!cell) return <td key={column}>–</td>;
                const rate = cell.pass / cell.n;
                const interval = wilson(cell.pass, cell.n);
                const isBest = rate === best.get(column) && model.rowCount > 1;
                return (
                  <td
                    key={column}
                    data-testid="eval-cell"
                    data-category={column}
                    data-best={isBest ? "true" : undefined}
                    className={isBest ? "eval-cell-best" : undefined}
                    style={{ background: `hsl(${Math.round(rate * 120)} 60% 88%)` }}
                    title={`${cell.pass} of ${cell.n} pass (95% interval ${pct(interval.low)}–${pct(interval.high)}); ${cell.strict} pass strictly`}
                  >
                    <span className="eval-rate">{pct(rate)}</span>
                    {isBest && <span aria-label="best in this column"> ★</span>}
                    <span className="eval-strict"> strict {pct(cell.strict / cell.n)}</span>
                    <div className="eval-interval">
                      n={cell.n} [{pct(interval.low)}–{pct(interval.high)}]
                    </div>
                    <div className="eval-bar" aria-hidden="true">
                      <span style={{ width: pct(rate) }} />
                    </div>
                  </td>
                );
              })}
              <td className="eval-extra" data-testid="eval-drift" title="failed cases in which another protocol's parser found calls">
                {driftText(row.model)}
              </td>
              <td className="eval-extra" data-testid="eval-call-p">
                {callPText(row.model)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {omitted && (
        <p className="eval-muted" data-testid="eval-matrix-omitted">
          {omitted}
        </p>
      )}
    </div>
  );
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}
