import { describe, expect, it } from "vitest";
import type { TokenizedText } from "../../tokens/token-spans.ts";
import { disagreeing, engineCountsOf } from "./engine-token-counts.ts";
import { ROW_CHARS, tokenLabel, tokenRows } from "./token-rows.ts";

function tokens(text: string, pieces: string[]): TokenizedText {
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (const piece of pieces) {
    starts.push(at);
    at += piece.length;
    ends.push(at);
  }
  expect(at).toBe(text.length);
  return { ids: Int32Array.from(pieces, (_, i) => i), control: new Uint8Array(pieces.length), spans: { starts: Int32Array.from(starts), ends: Int32Array.from(ends) } };
}

describe("the token view's rows", () => {
  it("a row ends after a line break, and once it is wide enough", () => {
    const text = "ab\ncd";
    expect(Array.from(tokenRows(text, tokens(text, ["ab", "\n", "cd"])))).toEqual([0, 2]);
    const long = "x".repeat(ROW_CHARS * 2);
    const pieces = long.match(/x{4}/g)!;
    const rows = tokenRows(long, tokens(long, pieces));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows[0]).toBe(0);
  });

  it("tokens that could not be placed are shown as ids, a fixed number a row", () => {
    const unplaced: TokenizedText = { ids: new Int32Array(30), control: new Uint8Array(30), spans: null };
    expect(Array.from(tokenRows("", unplaced))).toEqual([0, 12, 24]);
  });

  it("line breaks and tabs are drawn, and a piece of a character is marked", () => {
    expect(tokenLabel("a\n\t")).toBe("a↵⇥");
    expect(tokenLabel("")).toBe("◌");
  });
});

describe("the engine's counts beside the lab's", () => {
  it("takes the engine's count before sending and its usage, and flags each that differs", () => {
    const counts = engineCountsOf({ budget: { kind: "fits", maxTokens: 10, promptTokens: 50, contextWindow: 100 }, usage: { promptTokens: 52 } });
    expect(counts.map((c) => c.tokens)).toEqual([50, 52]);
    expect(disagreeing(counts, 50).map((c) => c.source)).toEqual(["usage"]);
    expect(engineCountsOf({ budget: { kind: "unknown", reason: "x" }, usage: {} })).toEqual([]);
  });
});
