import { describe, expect, it } from "vitest";
import { seededRandom } from "./chunking.ts";
import { diffLines, diffSequences, type Diff } from "./text-diff.ts";

const sideA = (diff: Diff) => diff.ops.filter((op) => op.type !== "insert").flatMap((op) => op.items);
const sideB = (diff: Diff) => diff.ops.filter((op) => op.type !== "delete").flatMap((op) => op.items);

/** The length of a longest common subsequence, by dynamic programming (the reference). */
function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(row[j]!, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

describe("diffSequences (Myers, linear space)", () => {
  it("gives both sides back and a shortest edit script, on random sequences", () => {
    const next = seededRandom(99);
    for (let round = 0; round < 300; round++) {
      const make = () => Array.from({ length: Math.floor(next() * 40) }, () => "abcde"[Math.floor(next() * 5)]!);
      const a = make();
      const b = make();
      const diff = diffSequences(a, b);
      expect(sideA(diff)).toEqual(a);
      expect(sideB(diff)).toEqual(b);
      expect(diff.bounded).toBe(false);
      // Shortest: the equal items are a longest common subsequence.
      expect(a.length - diff.deleted).toBe(lcs(a, b));
    }
  });

  it("marks an edited line, and says when its bound was reached", () => {
    const diff = diffLines("system\nBe brief.\nuser\nhi\n", "system\nBe brief.\nAnswer in French.\nuser\nhi\n");
    expect(diff.ops).toEqual([
      { type: "equal", items: ["system\n", "Be brief.\n"] },
      { type: "insert", items: ["Answer in French.\n"] },
      { type: "equal", items: ["user\n", "hi\n"] },
    ]);
    const a = Array.from({ length: 500 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 500 }, (_, i) => `b${i}`);
    const bounded = diffSequences(a, b, 50);
    expect(bounded.bounded).toBe(true);
    expect(sideA(bounded)).toEqual(a);
    expect(sideB(bounded)).toEqual(b);
  });
});
