import { describe, expect, it } from "vitest";
import { placeTokens, tokenByteLength } from "./token-spans.ts";

describe("placing tokens in the text from their vocabulary strings", () => {
  it("byte-level: GPT-2's byte alphabet (Ġ is a space, Ċ a line break), a character split over two tokens", () => {
    // "é" is two bytes, written Ã and © in the byte alphabet; here each is its own token.
    const spans = placeTokens("a é\n", ["a", "Ġ", "Ã", "©", "Ċ"], new Set(), "byte-level")!;
    expect(Array.from(spans.starts)).toEqual([0, 1, 2, 2, 3]);
    expect(Array.from(spans.ends)).toEqual([1, 2, 2, 3, 4]); // the first half of é is an empty piece
  });

  it("SentencePiece: ▁ is a space and <0xNN> one raw byte", () => {
    const spans = placeTokens(" hi 😀", ["▁hi", "▁", "<0xF0>", "<0x9F>", "<0x98>", "<0x80>"], new Set(), "sentencepiece")!;
    expect(Array.from(spans.ends)).toEqual([3, 4, 4, 4, 4, 6]);
  });

  it("an added token is its own text", () => {
    expect(tokenByteLength("<|im_start|>", "byte-level", true)).toBe(12);
    const spans = placeTokens("<|im_start|>user", ["<|im_start|>", "user"], new Set(["<|im_start|>"]), "byte-level")!;
    expect(Array.from(spans.ends)).toEqual([12, 16]);
  });

  it("tokens that do not spell the text give no boundaries rather than wrong ones", () => {
    expect(placeTokens("hello", ["hel"], new Set(), "byte-level")).toBeNull();
    expect(placeTokens("hello", ["▁hello"], new Set(), "byte-level")).toBeNull();
  });
});
