import { describe, expect, it } from "vitest";
import { rememberTokenizations } from "./text-probe.ts";

describe("rememberTokenizations", () => {
  it("asks the tokenizer once per text, hands out copies, and does not remember a failure", async () => {
    const asked: string[] = [];
    let fail = true;
    const tokenize = rememberTokenizations(async (text) => {
      asked.push(text);
      if (text === "bad" && fail) throw new Error("the server is gone");
      return [...text].map((c) => c.charCodeAt(0));
    });
    const signal = new AbortController().signal;
    const first = await tokenize("<tool_call>", signal);
    first.push(0);
    expect(await tokenize("<tool_call>", signal)).toEqual([..."<tool_call>"].map((c) => c.charCodeAt(0)));
    await expect(tokenize("bad", signal)).rejects.toThrow("the server is gone");
    fail = false;
    expect(await tokenize("bad", signal)).toEqual([98, 97, 100]);
    expect(asked).toEqual(["<tool_call>", "bad", "bad"]);
  });
});
