import { describe, expect, it } from "vitest";
import { activeSamplingDefaults } from "./sampling.ts";

describe("sampling defaults of the active engine", () => {
  const webllmPicked = { loadedModelId: null, selectedModelId: "Qwen3-1.7B-q4f16_1-MLC", thinking: true };

  it("the server engine follows its own model's family, not the WebLLM model picked in the other pane", () => {
    const mistral = activeSamplingDefaults({ kind: "openai", ...webllmPicked }, { model: "mistralai/Mistral-7B-Instruct-v0.3", template: "mistral" });
    expect(mistral.label).toBe("Mistral");
    const llama = activeSamplingDefaults({ kind: "openai", ...webllmPicked }, { model: "meta-llama/Llama-3.1-8B-Instruct", template: undefined });
    expect(llama).toMatchObject({ label: "Llama 3.x", temperature: 0.6, topP: 0.9 });
  });

  it("a template chosen by hand decides the family; an unknown model gets the lab's defaults under its own name", () => {
    expect(activeSamplingDefaults({ kind: "openai", ...webllmPicked }, { model: "my-model", template: "qwen3" }).label).toBe("Qwen3, thinking on");
    expect(activeSamplingDefaults({ kind: "openai", ...webllmPicked }, { model: "my-model", template: undefined }).label).toBe('"my-model"');
  });

  it("WebLLM uses the picked model, replay Qwen3's", () => {
    expect(activeSamplingDefaults({ kind: "webllm", ...webllmPicked, selectedModelId: "SmolLM2-360M-Instruct-q4f16_1-MLC" }, { model: "", template: undefined }).label).toBe("SmolLM2");
    expect(activeSamplingDefaults({ kind: "replay", ...webllmPicked, thinking: false }, { model: "x", template: "mistral" }).label).toBe("Qwen3, thinking off");
  });
});
