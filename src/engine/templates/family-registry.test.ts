// The family registry: one entry per family, every model offered resolves to one, server model
// names resolve as a person would expect, and template names recorded by older logs still resolve.
import { describe, expect, it } from "vitest";
import { families, familyChatTemplate, familyOfModel, familyOfServerModel, familyOfTemplateName, familyOfWebLlmModel } from "toolcall-middleware/families/registry.ts";
import { serverTemplateHasThinkingSwitch } from "toolcall-middleware/families/server-templates.ts";
import { controlTokensOf } from "../../ui/debugger/protocol-support.ts";
import { catalog } from "../webllm/model-catalog.ts";

describe("the model family registry", () => {
  it("has one entry per id and per template name", () => {
    expect(new Set(families.map((f) => f.id)).size).toBe(families.length);
    expect(new Set(families.map((f) => f.templateName)).size).toBe(families.length);
  });

  it("gives every model in the picker a family with a conv_template (WebLLM's chat path needs it)", () => {
    for (const model of catalog) expect(familyOfWebLlmModel(model.id)?.conv, model.id).toBeDefined();
  });

  it("resolves server model names to their families", () => {
    const expected: Record<string, string> = {
      "meta-llama/Llama-3.1-8B-Instruct": "llama3",
      "mistralai/Mistral-7B-Instruct-v0.3": "mistral",
      "mistralai/Mistral-Nemo-Instruct-2407": "mistral-nemo",
      "deepseek-ai/DeepSeek-V3": "deepseek-v3",
      "NousResearch/Hermes-3-Llama-3.2-3B": "hermes3",
      "Qwen/Qwen2.5-7B-Instruct": "qwen2",
      "Qwen/Qwen3-8B": "qwen3",
      "Qwen/Qwen3.5-4B": "qwen3.5",
      "microsoft/Phi-3.5-mini-instruct": "phi3",
      "HuggingFaceTB/SmolLM2-1.7B-Instruct": "smollm2",
      "google/gemma-2-2b-it": "gemma2",
      "google/gemma-3-1b-it": "gemma3",
      "google/gemma-4-E2B-it": "gemma4",
    };
    for (const [name, id] of Object.entries(expected)) expect(familyOfServerModel(name)?.id, name).toBe(id);
    expect(familyOfModel("acme/Frobnicator-7B")).toBeUndefined();
  });

  it("resolves the template names older logs recorded, with or without the thinking note", () => {
    for (const name of ["qwen3", "qwen3 (thinking off)", "qwen2", "llama-3_1", "hermes3_llama-3_1", "chatml", "phi-3", "gemma_instruction", "mistral", "deepseek-v3", "gemma4_instruction", "gemma4_instruction (thinking off)", "functiongemma"]) {
      expect(familyOfTemplateName(name), name).toBeDefined();
      expect(controlTokensOf(name).length, name).toBeGreaterThan(0);
    }
  });

  it("a family declares its thinking switch exactly where its template honours one (the server pane shows it then)", () => {
    const messages = [{ role: "user" as const, content: "What is 2 + 2?" }];
    for (const family of families) {
      const render = (enableThinking: boolean) => familyChatTemplate(family, { enableThinking }).render(messages, { addGenerationPrompt: true });
      const honours = render(true) !== render(false);
      expect(family.thinking !== undefined, family.id).toBe(honours);
      expect(serverTemplateHasThinkingSwitch(family.templateName), family.id).toBe(honours);
    }
    // The families the issue named: GLM, DeepSeek V3.1 / V3.2 and gpt-oss honour thinking.
    for (const id of ["glm45", "glm47", "deepseek-v3.1", "deepseek-v3.2", "gpt-oss"]) expect(families.find((f) => f.id === id)?.thinking, id).toBeDefined();
  });
});
