// The case list: one line per case (and repeat), a verdict per protocol row side by side; filters
// for failed cases and for cases where the rows disagree. A click on a verdict opens that case's
// step in the debugger (a case of this run, or of an imported results file).
import { useMemo, useState } from "react";
import { rowKey } from "../../eval/summary.ts";
import type { EvalResult } from "../../eval/run-case.ts";

interface Props {
  results: readonly EvalResult[];
  jobKeys: readonly string[];
  openedKey: string | null;
  onOpen: (jobKey: string) => void;
  /** Whether a case can be opened (default: it ran in this page, so its step is stored). */
  openable?: (result: EvalResult) => boolean;
}

const ranHere = (result: EvalResult) => result.runId !== "";

/** Lines drawn at first, and added by each "show more" (a results file of the whole suite has 250). */
const PAGE = 200;
/**
 * Protocol columns drawn. An imported file may name thousands of protocol rows (2,000 distinct
 * ones: 200 lines × 2,000 cells); the matrix draws its first 60 rows, the list its first columns.
 */
export const MAX_CASE_COLUMNS = 24;

export function EvalCaseList({ results, jobKeys, openedKey, onOpen, openable = ranHere }: Props) {
  const [failedOnly, setFailedOnly] = useState(false);
  const [disagreeOnly, setDisagreeOnly] = useState(false);
  const [limit, setLimit] = useState(PAGE);
  const { columns, hiddenColumns, lines } = useMemo(() => {
    const allColumns = [...new Map(results.map((r) => [rowKey(r), `${r.protocol}${r.mode === "native" ? "" : r.constrained ? " + c" : ""}`])).entries()];
    const columns = allColumns.slice(0, MAX_CASE_COLUMNS);
    const hiddenColumns = allColumns.length - columns.length;
    const byCase = new Map<string, { id: string; repeat: number; verdicts: Map<string, { result: EvalResult; jobKey: string }> }>();
    results.forEach((result, index) => {
      const caseKey = `${result.id}#${result.repeat}`;
      let line = byCase.get(caseKey);
      if (!line) byCase.set(caseKey, (line = { id: result.id, repeat: result.repeat, verdicts: new Map() }));
      line.verdicts.set(rowKey(result), { result, jobKey: jobKeys[index] ?? "" });
    });
    // In the suite's order (category, then number), whatever order the cases finished in.
    const order = (id: string) => Number(/(\d+)$/.exec(id)?.[1] ?? 0);
    const lines = [...byCase.values()].sort((a, b) => {
      const category = a.id.replace(/_\d+$/, "").localeCompare(b.id.replace(/_\d+$/, ""));
      return category !== 0 ? category : order(a.id) - order(b.id) || a.repeat - b.repeat;
    });
    return { columns, hiddenColumns, lines };
  }, [results, jobKeys]);
  const shown = lines.filter((line) => {
    const verdicts = [...line.verdicts.values()];
    if (failedOnly && verdicts.every((v) => v.result.pass)) return false;
    if (disagreeOnly && new Set(verdicts.map((v) => v.result.pass)).size < 2) return false;
    return true;
  });
  return (
    <section className="eval-cases" aria-label="Cases">
      <div className="eval-case-filters">
        <label>
          <input type="checkbox" data-testid="eval-filter-failed" checked={failedOnly} onChange={(e) => setFailedOnly(e.target.checked)} /> failed only
        </label>
        <label>
          <input type="checkbox" data-testid="eval-filter-disagree" checked={disagreeOnly} onChange={(e) => setDisagreeOnly(e.target.checked)} /> protocols disagree
        </label>
        <span className="eval-muted">
          {shown.length} of {lines.length} cases{shown.length > limit ? ` (first ${limit} shown)` : ""}
        </span>
        {hiddenColumns > 0 && (
          <span className="eval-muted" data-testid="eval-case-columns-omitted">
            {hiddenColumns.toLocaleString("en-US")} more protocol rows not shown as columns (the first {MAX_CASE_COLUMNS} are)
          </span>
        )}
      </div>
      <table className="eval-case-table" data-testid="eval-case-table">
        <thead>
          <tr>
            <th scope="col">case</th>
            {columns.map(([key, label]) => (
              <th scope="col" key={key}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.slice(0, limit).map((line) => (
            <tr key={`${line.id}#${line.repeat}`} data-testid="eval-case-row" data-case={line.id}>
              <th scope="row" className="mono">
                {line.id}
                {line.repeat > 0 ? ` #${line.repeat + 1}` : ""}
              </th>
              {columns.map(([key]) => {
                const verdict = line.verdicts.get(key);
                if (!verdict) return <td key={key}>–</td>;
                const { result } = verdict;
                const mark = result.pass ? (result.strictPass ? "pass" : "pass (not strict)") : "fail";
                return (
                  <td key={key}>
                    <button
                      type="button"
                      className={`eval-verdict eval-verdict-${result.pass ? (result.strictPass ? "strict" : "pass") : "fail"}${openedKey === verdict.jobKey ? " eval-verdict-open" : ""}`}
                      data-testid="eval-verdict"
                      data-protocol={result.protocol}
                      data-pass={String(result.pass)}
                      disabled={!verdict.jobKey || !openable(result)}
                      title={result.reason || "pass"}
                      onClick={() => onOpen(verdict.jobKey)}
                    >
                      {result.pass ? (result.strictPass ? "✓" : "~") : "✗"} {mark}
                    </button>
                    {result.reason && <div className="eval-reason">{result.reason}</div>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length > limit && (
        // Every case stays reachable: the rest is drawn a page at a time, not dropped.
        <button type="button" data-testid="eval-case-more" onClick={() => setLimit(limit + PAGE)}>
          Show {Math.min(PAGE, shown.length - limit)} more cases
        </button>
      )}
    </section>
  );
}
