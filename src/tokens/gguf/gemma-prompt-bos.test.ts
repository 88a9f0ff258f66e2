// Gemma 3's rendered prompt starts with the text `<bos>`, and its GGUF says add_bos_token: the
// token view and the CPU engine's prompt count read the prompt as written (nothing added), so
// they show exactly one BOS, where llama.cpp reads one (runtime-prompt.ts hands the runtime the
// prompt without its `<bos>` text, and the runtime adds the token).
import { describe, expect, it } from "vitest";
import { familyById, familyChatTemplate } from "toolcall-middleware/families/registry.ts";
import { readGgufMetadata } from "../../gguf/gguf-metadata.ts";
import { missingModel, realModel, withFileReader } from "../../../scripts/real-models/model-files.ts";
import { GgufTokenizer } from "./gguf-tokenizer.ts";

const gemma = realModel("gemma-3-270m-q4_k_m");

describe("a Gemma 3 prompt read by its GGUF's tokenizer", () => {
  it.skipIf(missingModel(gemma))("has one BOS, the prompt's own, first", async () => {
    const tokenizer = GgufTokenizer.fromMetadata(await withFileReader(gemma.path, (read) => readGgufMetadata(read)));
    const prompt = familyChatTemplate(familyById("gemma3")!).render([{ role: "user", content: "hi" }], { addGenerationPrompt: true });
    expect(prompt.startsWith("<bos>")).toBe(true);
    const bos = Array.from(tokenizer.encode("<bos>"));
    expect(bos).toHaveLength(1);
    const { ids } = tokenizer.tokenize(prompt);
    expect(ids[0]).toBe(bos[0]);
    expect(Array.from(ids).filter((id) => id === bos[0])).toHaveLength(1);
    // Adding special tokens as well would put a second BOS in front: what the view must not do.
    expect(Array.from(tokenizer.encode(prompt, { addSpecial: true })).slice(0, 2)).toEqual([bos[0], bos[0]]);
  });
});
