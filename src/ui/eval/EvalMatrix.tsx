// The matrix: a row per protocol × constrained (per results source), a column per category and
// one for all; each cell the pass rate with n and its Wilson 95% interval, strict beside it, the
// best pass rate per column marked, and the cell shaded by its rate (a heatmap).
import { rowKey, summarise, wilson } from "../../eval/summary.ts";
import type { EvalResult } from "../../eval/run-case.ts";

export interface MatrixSource {
  label: string;
  results: readonly EvalResult[];
}

interface Row {
  key: string;
  label: string;
  cells: Map<string, { n: number; pass: number; strict: number }>;
  /** Of the row's failed cases, those where the model wrote calls in another protocol's format. */
  drift: number;
  failed: number;
  /** Mean probability of opening a call at the decision point, where recorded. */
  callP?: { mean: number; n: number };
}

export function EvalMatrix({ sources }: { sources: MatrixSource[] }) {
  const categories = [...new Set(sources.flatMap((s) => s.results.map((r) => r.category)))];
  const columns = [...categories, "all"];
  const rows: Row[] = [];
  for (const source of sources) {
    const order = [...new Map(source.results.map((r) => [rowKey(r), r])).values()];
    const cells = summarise(source.results);
    const all = summarise(source.results.map((r) => ({ ...r, category: "all" })));
    for (const first of order) {
      const key = rowKey(first);
      const overall = all.find((cell) => rowKey(cell) === key);
      const row: Row = {
        key: `${source.label}|${key}`,
        label: `${sources.length > 1 ? `${source.label} · ` : ""}${first.protocol}${first.mode === "native" ? "" : first.constrained ? " + constrained" : ""}`,
        cells: new Map(),
        drift: overall?.drift ?? 0,
        failed: overall ? overall.n - Math.round(overall.pass * overall.n) : 0,
        ...(overall?.meanCallP !== undefined ? { callP: { mean: overall.meanCallP, n: overall.callPCount ?? 0 } } : {}),
      };
      for (const cell of [...cells, ...all]) {
        if (rowKey(cell) === key) row.cells.set(cell.category, { n: cell.n, pass: Math.round(cell.pass * cell.n), strict: Math.round(cell.strictPass * cell.n) });
      }
      rows.push(row);
    }
  }
  if (rows.length === 0) return null;
  const best = new Map(columns.map((column) => [column, Math.max(...rows.map((row) => rateOf(row.cells.get(column))))]));
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
                const isBest = rate === best.get(column) && rows.length > 1;
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
                {row.drift} of {row.failed} failed
              </td>
              <td className="eval-extra" data-testid="eval-call-p">{row.callP ? `${row.callP.mean.toFixed(2)} (n=${row.callP.n})` : "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function rateOf(cell: { n: number; pass: number } | undefined): number {
  return cell && cell.n > 0 ? cell.pass / cell.n : -1;
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}
