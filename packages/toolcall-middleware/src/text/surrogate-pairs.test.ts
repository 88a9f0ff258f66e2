import { describe, expect, it } from "vitest";
import { cutOutsidePair, piecesOutsidePairs, sliceOutsidePair } from "./surrogate-pairs.ts";

const face = "\u{1F600}"; // two code units: \uD83D\uDE00
/** A first half not followed by a second, or a second not preceded by a first. */
const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("cuts that never split a surrogate pair", () => {
  it("moves a cut between a pair's halves one unit back, and leaves other cuts alone", () => {
    const text = `ab${face}c`;
    expect(cutOutsidePair(text, 3)).toBe(2);
    expect(cutOutsidePair(text, 2)).toBe(2);
    expect(cutOutsidePair(text, 4)).toBe(4);
    expect(cutOutsidePair(text, 0)).toBe(0);
    expect(cutOutsidePair(text, text.length)).toBe(text.length);
  });

  it("slices to a bound without a lone half, and returns short text whole", () => {
    expect(sliceOutsidePair(`ab${face}`, 3)).toBe("ab");
    expect(sliceOutsidePair(`ab${face}`, 4)).toBe(`ab${face}`);
    expect(sliceOutsidePair("abc", 10)).toBe("abc");
    expect(sliceOutsidePair("abc", -1)).toBe("");
    expect(`ab${face}`.slice(0, 3)).toMatch(loneHalf);
  });

  it("cuts text into pieces that join back to it, none ending in a pair's first half", () => {
    const text = `${face}a${face}${face}bc${face}`;
    for (const size of [1, 2, 3, 5]) {
      const pieces = [...piecesOutsidePairs(text, size)];
      expect(pieces.join("")).toBe(text);
      for (const piece of pieces) {
        expect(piece.length).toBeGreaterThan(0);
        expect(piece).not.toMatch(loneHalf);
      }
    }
  });
});
