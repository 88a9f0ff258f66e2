import { describe, expect, it } from "vitest";
import { getProtocol } from "../../middleware/protocols/registry.ts";
import { catalog } from "./model-catalog.ts";
import { recommendedProtocol } from "../../families/registry.ts";

describe("recommendedProtocol", () => {
  it("recommends each family's trained format: Qwen and Hermes → hermes, Llama 3.x → llama3-json, others → xml", () => {
    expect(recommendedProtocol("Qwen3-1.7B-q4f16_1-MLC").protocol).toBe("hermes");
    expect(recommendedProtocol("Qwen2.5-3B-Instruct-q4f32_1-MLC").protocol).toBe("hermes");
    expect(recommendedProtocol("Hermes-3-Llama-3.2-3B-q4f16_1-MLC").protocol).toBe("hermes");
    expect(recommendedProtocol("Llama-3.2-1B-Instruct-q4f32_1-MLC").protocol).toBe("llama3-json");
    expect(recommendedProtocol("Llama-3.1-8B-Instruct-q4f32_1-MLC").protocol).toBe("llama3-json");
    expect(recommendedProtocol("SmolLM2-360M-Instruct-q4f32_1-MLC").protocol).toBe("xml");
    expect(recommendedProtocol("gemma-2-2b-it-q4f32_1-MLC").protocol).toBe("xml");
  });

  it("names a registered protocol for every model in the picker", () => {
    for (const model of catalog) expect(getProtocol(recommendedProtocol(model.id).protocol), model.id).toBeDefined();
  });
});
