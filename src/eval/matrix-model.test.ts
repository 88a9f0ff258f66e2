// The matrix is built in one pass with cells indexed by row and column, and draws a bounded part.
import { describe, expect, it } from "vitest";
import { MAX_MATRIX_COLUMNS, MAX_MATRIX_ROWS, matrixModel, matrixOmissions } from "./matrix-model.ts";
import { matrixTable } from "./matrix-table.ts";
import type { EvalResult } from "./run-case.ts";

const result = (protocol: string, category: string, pass: boolean): EvalResult => ({ id: `${category}_0`, category, protocol, mode: "prompt", constrained: false, repeat: 0, pass, strictPass: pass, reason: "", calls: [], durationMs: 0, runId: "" });

/** An imported file with every result its own protocol and category (the 600 and 2,000). */
const distinct = (n: number) => Array.from({ length: n }, (_, i) => result(`p${i}`, `c${i}`, i % 2 === 0));

describe("results matrix", () => {
  it("counts each row's cells by category and all, and marks the best rate per column over every row", () => {
    const model = matrixModel([{ label: "run", results: [result("hermes", "simple", true), result("hermes", "simple", false), result("xml", "simple", true), result("xml", "parallel", false)] }]);
    expect(model.columns).toEqual(["simple", "parallel", "all"]);
    expect(model.rows.map((row) => [row.first.protocol, Object.fromEntries(row.cells)])).toEqual([
      ["hermes", { simple: { n: 2, pass: 1, strict: 1 }, all: { n: 2, pass: 1, strict: 1 } }],
      ["xml", { simple: { n: 1, pass: 1, strict: 1 }, parallel: { n: 1, pass: 0, strict: 0 }, all: { n: 2, pass: 1, strict: 1 } }],
    ]);
    expect(Object.fromEntries(model.best)).toEqual({ simple: 1, parallel: 0, all: 0.5 });
    expect(matrixOmissions(model)).toBe("");
  });

  it("draws at most MAX_MATRIX_ROWS rows and MAX_MATRIX_COLUMNS categories of 2,000 distinct ones, and says what it leaves out", () => {
    const model = matrixModel([{ label: "imported", results: distinct(2_000) }]);
    expect(model.rowCount).toBe(2_000);
    expect(model.categoryCount).toBe(2_000);
    expect(model.rows).toHaveLength(MAX_MATRIX_ROWS);
    expect(model.columns).toHaveLength(MAX_MATRIX_COLUMNS + 1);
    expect(matrixOmissions(model)).toBe(`Not drawn: 1,940 more rows and 1,976 more categories (the first 60 rows and 24 categories are; every result counts in "all", the best marks and the exported files).`);
  });

  it("the command's table is bounded the same way (600 distinct results took seconds, 2,000 hung)", () => {
    const lines = matrixTable(distinct(600)).split("\n");
    expect(lines).toHaveLength(2 + MAX_MATRIX_ROWS + 1);
    expect(lines.at(-1)).toMatch(/^Not drawn: 540 more rows and 576 more categories/);
  });
});
