import { describe, expect, it } from "vitest";
import { clampNote } from "./clamp-note.ts";

describe("clampNote", () => {
  it("says what was typed, the bound and the value kept", () => {
    expect(clampNote(-3, 1, 50)).toBe("-3 is below the least allowed, 1: set to 1.");
    expect(clampNote(5, 0, 2)).toBe("5 is above the most allowed, 2: set to 2.");
  });
  it("says nothing for a value in range, or no number", () => {
    expect(clampNote(1, 1, 50)).toBeNull();
    expect(clampNote(Number.NaN, 1, 50)).toBeNull();
  });
});
