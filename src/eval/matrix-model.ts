// The matrix of one or more result sets, built in one pass over the results: a row per source ×
// protocol × mode × constrained, a column per category and one for all, each cell its counts.
// Cells are indexed by row and column (looking each up among all cells made 600 imported
// results with distinct protocols and categories a 7.5 s freeze, and 2,000 a hang). What is
// drawn is bounded: the first MAX_MATRIX_ROWS rows and MAX_MATRIX_COLUMNS categories (and
// "all"), with the counts of what is not, which the results file and the CSV still hold.
import type { EvalResult } from "./run-case.ts";
import { rowKey } from "./summary.ts";

export const MAX_MATRIX_ROWS = 60;
export const MAX_MATRIX_COLUMNS = 24;
export const ALL_COLUMN = "all";

export interface MatrixCell {
  n: number;
  pass: number;
  strict: number;
}

export interface MatrixRow {
  key: string;
  /** The first result of the row (its protocol, mode and constraint). */
  first: Pick<EvalResult, "protocol" | "mode" | "constrained">;
  source: string;
  cells: Map<string, MatrixCell>;
  /** Of the row's failed results, those that were format drift (the model wrote calls in another protocol's format). */
  drift: number;
  failed: number;
  /** The decision point's probability of a call, summed over the results that recorded it, and their number. */
  callPSum: number;
  callPCount: number;
}

export interface MatrixModel {
  /** The categories drawn, then "all". */
  columns: string[];
  rows: MatrixRow[];
  /** Per column drawn, the best pass rate among all rows (not only those drawn). */
  best: Map<string, number>;
  /** How many rows and categories there are in all. */
  rowCount: number;
  categoryCount: number;
}

export interface MatrixSourceResults {
  label: string;
  results: readonly EvalResult[];
}

export function matrixModel(sources: readonly MatrixSourceResults[], limits: { rows?: number; columns?: number } = {}): MatrixModel {
  const maxRows = limits.rows ?? MAX_MATRIX_ROWS;
  const maxColumns = limits.columns ?? MAX_MATRIX_COLUMNS;
  const categories = new Set<string>();
  const rows = new Map<string, MatrixRow>();
  for (const source of sources) {
    for (const result of source.results) {
      categories.add(result.category);
      const key = `${source.label}|${rowKey(result)}`;
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { key, first: result, source: source.label, cells: new Map(), drift: 0, failed: 0, callPSum: 0, callPCount: 0 }));
      if (!result.pass) {
        row.failed += 1;
        if (result.drift && result.drift.length > 0) row.drift += 1;
      }
      if (result.callP !== undefined) {
        row.callPSum += result.callP ?? 0;
        row.callPCount += 1;
      }
      for (const column of [result.category, ALL_COLUMN]) {
        let cell = row.cells.get(column);
        if (!cell) row.cells.set(column, (cell = { n: 0, pass: 0, strict: 0 }));
        cell.n += 1;
        if (result.pass) cell.pass += 1;
        if (result.strictPass) cell.strict += 1;
      }
    }
  }
  const columns = [...[...categories].slice(0, maxColumns), ALL_COLUMN];
  const drawn = new Set(columns);
  const best = new Map<string, number>();
  for (const row of rows.values()) {
    for (const [column, cell] of row.cells) {
      if (!drawn.has(column)) continue;
      const rate = cell.n > 0 ? cell.pass / cell.n : -1;
      if (rate > (best.get(column) ?? -1)) best.set(column, rate);
    }
  }
  return { columns, rows: [...rows.values()].slice(0, maxRows), best, rowCount: rows.size, categoryCount: categories.size };
}

/** A row's format drift and mean decision-point p of a call, as the matrix writes them. */
export function driftText(row: MatrixRow): string {
  return `${row.drift} of ${row.failed} failed`;
}
export function callPText(row: MatrixRow): string {
  return row.callPCount > 0 ? `${(row.callPSum / row.callPCount).toFixed(2)} (n=${row.callPCount})` : "–";
}

/** What the matrix leaves out, in words ("" when it draws everything). */
export function matrixOmissions(model: MatrixModel): string {
  const rows = model.rowCount - model.rows.length;
  const columns = model.categoryCount - (model.columns.length - 1);
  const parts = [...(rows > 0 ? [`${rows.toLocaleString("en-US")} more rows`] : []), ...(columns > 0 ? [`${columns.toLocaleString("en-US")} more categories`] : [])];
  return parts.length === 0 ? "" : `Not drawn: ${parts.join(" and ")} (the first ${model.rows.length} rows and ${model.columns.length - 1} categories are; every result counts in "all", the best marks and the exported files).`;
}
