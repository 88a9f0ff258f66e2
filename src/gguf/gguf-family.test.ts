import { describe, expect, it } from "vitest";
import { familyFromGguf } from "./gguf-family.ts";
import { readGgufMetadata } from "./gguf-metadata.ts";
import { ggufWith, readerOver, type TestValue } from "./testing/gguf-bytes.ts";
import { missingModel, realModel, withFileReader } from "../../scripts/real-models/model-files.ts";

function metadataOf(entries: Record<string, TestValue>) {
  return readGgufMetadata(readerOver(ggufWith(entries)));
}
const text = (value: string): TestValue => ({ type: "string", value });

describe("familyFromGguf on the real models", () => {
  for (const id of ["smollm2-135m-instruct-q4_1", "gemma-3-270m-q4_k_m"]) {
    const model = realModel(id);
    it.skipIf(missingModel(model))(`${id} is read as the manifest's family (${model.family})`, async () => {
      const match = familyFromGguf(await withFileReader(model.path, (read) => readGgufMetadata(read)));
      expect(match.kind).toBe("family");
      if (match.kind !== "family") return;
      expect(match.family.id).toBe(model.family);
      expect(match.matchedBy).toBe("general.name");
      expect(match.sentence).toMatch(/^Read as /);
    });
  }
});

describe("familyFromGguf on made-up metadata", () => {
  it("takes the family from the architecture when the name says nothing", async () => {
    const match = familyFromGguf(await metadataOf({ "general.architecture": text("qwen3"), "general.name": text("My Model") }));
    expect(match.kind === "family" && [match.family.id, match.matchedBy]).toEqual(["qwen3", "general.architecture"]);
  });

  it("does not guess from a shared architecture such as llama", async () => {
    const template = "{% for m in messages %}<<{{ m.role }}>>{{ m.content }}{% endfor %}";
    const match = familyFromGguf(await metadataOf({ "general.architecture": text("llama"), "general.name": text("Tiny Story Teller"), "tokenizer.chat_template": text(template) }));
    expect(match).toEqual({ kind: "embedded-template", template, sentence: expect.stringMatching(/do not know this model \(name "Tiny Story Teller", architecture "llama"\).*chat template inside the file, as is/) });
  });

  it("keeps the file's own template when the named family's turn tokens are not in it", async () => {
    const template = "{% for m in messages %}### {{ m.role }}: {{ m.content }}\n{% endfor %}";
    const match = familyFromGguf(await metadataOf({ "general.architecture": text("llama"), "general.name": text("SmolLM2 finetune"), "tokenizer.chat_template": text(template) }));
    expect(match.kind).toBe("embedded-template");
    expect(match.sentence).toMatch(/general.name "SmolLM2 finetune" points to SmolLM2, but the file's chat template does not write SmolLM2's turn tokens/);
  });

  it("says so when there is neither a family nor a template", async () => {
    const match = familyFromGguf(await metadataOf({ "general.architecture": text("mamba") }));
    expect(match.kind).toBe("none");
    expect(match.sentence).toMatch(/no name, architecture "mamba".*no chat template either/);
  });
});
