import { describe, expect, it } from "vitest";
import { DEGENERATE_REPETITION, repetitionAtEnd } from "./repetition.ts";

describe("repetitionAtEnd", () => {
  it("finds a block written over and over at the end (a tiny model's loop), with its copies", () => {
    const block = "    b_field = b_field * 2 * area\n";
    const text = `def f():\n${block.repeat(7)}`;
    const found = repetitionAtEnd(text);
    expect(found).toEqual({ block, copies: 7, chars: 7 * block.length });
  });

  it("a block repeated fewer than 4 times, or over fewer than 200 characters, is not a loop", () => {
    expect(repetitionAtEnd(`intro ${"abc de fgh ijk lmn opq rst uvw xyz 0123456789 ".repeat(3)}`)).toBeUndefined();
    // A Markdown rule: one character 80 times.
    expect(repetitionAtEnd(`Title\n${"-".repeat(80)}`)).toBeUndefined();
    expect(repetitionAtEnd(`${"-".repeat(DEGENERATE_REPETITION.minChars)}`)).toMatchObject({ block: "-", copies: DEGENERATE_REPETITION.minChars });
  });

  it("a list whose lines differ (numbers counting up) is not one block repeated", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `Circumference = ${i}.5π\n`).join("");
    expect(repetitionAtEnd(lines)).toBeUndefined();
  });

  it("only the end counts: a loop followed by other text is not stopped", () => {
    expect(repetitionAtEnd(`${"na ".repeat(100)}Batman! And then the story went on in a new direction.`)).toBeUndefined();
  });

  it("a block longer than the longest looked for is not found", () => {
    const block = `${"x".repeat(DEGENERATE_REPETITION.maxBlockChars)}y`;
    expect(repetitionAtEnd(block.repeat(6))).toBeUndefined();
  });
});
