import { describe, expect, it } from "vitest";
import { chooseTokenizer, type TokenizerSource } from "../tokenizer-choice.ts";
import { ggufModelTokenizer, ggufTokenizerFile } from "./gguf-model-tokenizer.ts";

const qwen3: TokenizerSource = { id: "lab:qwen3", label: "Qwen3", tokenize: () => Promise.reject(new Error("not used")) };

describe("a GGUF model's own tokenizer in the token view", () => {
  it("is chosen for its family's template, named as read from its GGUF, keyed by its file", () => {
    const loaded = ggufModelTokenizer({ modelId: "smollm2-135m-instruct-q4_1", templateName: "chatml", file: { url: "/models/smollm2-135m-instruct-q4_1.gguf" } });
    const choice = chooseTokenizer("chatml", loaded, qwen3);
    expect(choice.kind === "available" && [choice.source.id, choice.source.label]).toEqual(["gguf:/models/smollm2-135m-instruct-q4_1.gguf", "smollm2-135m-instruct-q4_1's own tokenizer (read from its GGUF)"]);
    expect(chooseTokenizer("gemma3_instruction", loaded, qwen3).kind).toBe("unavailable");
  });

  it("reads a URL with Range requests and a dropped file by its slices", () => {
    const blob = new Blob(["GGUF"]);
    expect(ggufTokenizerFile({ url: "/models/x.gguf" })).toEqual({ kind: "gguf-url", url: "/models/x.gguf" });
    expect(ggufTokenizerFile({ blob, key: "dropped:x.gguf:4" })).toEqual({ kind: "gguf-blob", blob, key: "dropped:x.gguf:4" });
  });
});
