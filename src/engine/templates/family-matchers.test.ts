// Family name matchers run on any string a server's /v1/models or a command line sends: they must
// do work linear in it, on an id of bounded length. (No timing here: what is checked is that the
// long id is refused and that no pattern can rescan the rest of the id from each of many starts.)
import { describe, expect, it } from "vitest";
import { families, familyOfModel, familyOfServerModel, familyOfWebLlmModel, MAX_MODEL_ID_CHARS } from "toolcall-middleware/families/registry.ts";
import { readPromptRequest } from "./prompt-request.ts";

describe("family name matchers", () => {
  it("name no family for an id over MAX_MODEL_ID_CHARS (a server's 240 KB model id, kimik2 × 40,000)", () => {
    const hostile = "kimik2".repeat(40_000);
    expect(familyOfServerModel(hostile)).toBeUndefined();
    expect(familyOfWebLlmModel(hostile)).toBeUndefined();
    expect(familyOfModel(`Qwen/Qwen3-8B${"x".repeat(MAX_MODEL_ID_CHARS)}`)).toBeUndefined();
    expect(familyOfServerModel(`moonshotai/Kimi-K2-Thinking`)?.id).toBe("kimi-k2-thinking");
  });

  it("have no wildcard that could rescan the id from each of its starts: an unbounded .* or [^]* only in a pattern anchored at ^", () => {
    for (const family of families) {
      for (const pattern of [family.serverNames, family.webllmIds]) {
        if (!pattern) continue;
        const wildcard = /(?:\.|\[\^\]|\[\\s\\S\])[*+]/.test(pattern.source);
        if (wildcard) expect(pattern.source.startsWith("^"), `${family.id}: ${pattern.source}`).toBe(true);
      }
    }
  });

  it("still name the families of real model names", () => {
    const names: Array<[string, string]> = [
      ["moonshotai/Kimi-K2-Thinking", "kimi-k2-thinking"],
      ["moonshotai/Kimi-K2-Instruct-0905", "kimi-k2"],
      ["kimi-k2-thinking:cloud", "kimi-k2-thinking"],
      ["mistralai/Ministral-3-8B-Reasoning-2512", "ministral3-reasoning"],
      ["ministral-3:14b-reasoning", "ministral3-reasoning"],
      ["mistralai/Ministral-3-8B-Instruct-2512", "ministral3"],
      ["ministral-3:8b", "ministral3"],
    ];
    for (const [name, id] of names) expect(familyOfServerModel(name)?.id, name).toBe(id);
    // A Ministral 3 base model is not the instruct family.
    expect(familyOfServerModel("mistralai/Ministral-3-8B-Base-2512")?.id).not.toBe("ministral3");
  });

  it("render-prompt names a model id over the cap without echoing it whole", () => {
    expect(() => readPromptRequest({ model: "kimik2".repeat(40_000), messages: [{ role: "user", content: "hi" }] })).toThrow(/^model: 240,000 characters, over the 256 a model id may have \("kimik2kimik2/);
  });
});
