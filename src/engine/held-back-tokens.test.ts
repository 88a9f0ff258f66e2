import { describe, expect, it } from "vitest";
import type { TokenProbability } from "toolcall-middleware/types.ts";
import { HeldBackTokens } from "./held-back-tokens.ts";

// Shaped as llama.cpp's server sends them: a held token's `token` is "" (its text_to_send), the
// next one's is the held text and its own; alternatives carry their own texts.
const lt: TokenProbability = { text: "", p: 0.2, id: 27, top: [{ text: "I", p: 0.7, id: 40 }, { text: "<", p: 0.2, id: 27 }] };
const tool: TokenProbability = { text: "<tool", p: 0.6, id: 1000, top: [{ text: "tool", p: 0.6, id: 1000 }, { text: "script", p: 0.1, id: 1001 }] };

describe("tokens llama.cpp held back", () => {
  it("gives a held token its own text back, and the next token its own, with their own alternatives", () => {
    const reader = new HeldBackTokens();
    expect(reader.take("", [lt])).toBeNull();
    const taken = reader.take("<tool", [tool]);
    expect(taken?.text).toBe("<tool");
    expect(taken?.tokens?.map((t) => [t.text, t.p, t.id])).toEqual([["<", 0.2, 27], ["tool", 0.6, 1000]]);
    expect(taken?.tokens?.[1]?.top.map((a) => a.text)).toEqual(["tool", "script"]);
    expect(taken?.tokens?.map((t) => t.text).join("")).toBe(taken?.text);
  });

  it("gives one held token whose own text was not recorded the chunk's text less the next token's own", () => {
    const reader = new HeldBackTokens();
    reader.take("", [{ ...lt, top: [{ text: "I", p: 0.7, id: 40 }] }]);
    const taken = reader.take("<tool", [tool]);
    expect(taken?.tokens?.map((t) => [t.text, t.id])).toEqual([["<", 27], ["tool", 1000]]);
  });

  it("where no own text is known, puts the held text in front of the next token's alternatives", () => {
    const reader = new HeldBackTokens();
    const unknown = { text: "", p: 0.1, id: 5, top: [{ text: "I", p: 0.7, id: 40 }] };
    reader.take("", [unknown]);
    reader.take("", [unknown]);
    const taken = reader.take("<<tool", [tool]);
    expect(taken?.tokens?.map((t) => t.text)).toEqual(["<<tool"]);
    expect(taken?.tokens?.[0]?.top.map((a) => a.text)).toEqual(["<<tool", "<<script"]);
  });

  it("passes chunks through when nothing was held", () => {
    const reader = new HeldBackTokens();
    const token: TokenProbability = { text: "Hi", p: 0.9, id: 5, top: [] };
    expect(reader.take("Hi", [token])).toEqual({ text: "Hi", tokens: [token] });
    expect(reader.take("x", undefined)).toEqual({ text: "x" });
  });
});
