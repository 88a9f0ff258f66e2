import { describe, expect, it } from "vitest";
import { MAX_THINKING_CHOICES, readThinkingChoices, serverThinkingSubject, thinkingFor, thinkingNote, thinkingSubjectOf, webllmThinkingSubject, withThinkingChoice } from "./thinking-choice.ts";

describe("the thinking switch by model", () => {
  it("defaults follow Qwen3.5's size (off for 0.8B and 2B, on for 4B and 9B), on WebLLM and on a server", () => {
    for (const [model, on] of [["Qwen3.5-0.8B-q4f16_1-MLC", false], ["Qwen3.5-2B-q4f32_1-MLC", false], ["Qwen3.5-4B-q4f16_1-MLC", true], ["Qwen3.5-9B-q4f16_1-MLC", true]] as const) {
      expect(thinkingFor({}, webllmThinkingSubject(model)), model).toBe(on);
    }
    expect(serverThinkingSubject("Qwen/Qwen3.5-2B", "qwen3_5").defaultOn).toBe(false);
    expect(serverThinkingSubject("Qwen/Qwen3.5-9B", "qwen3_5").defaultOn).toBe(true);
  });

  it("the person's setting for a model wins over its default, and only for that model", () => {
    const choices = withThinkingChoice({}, "Qwen3.5-0.8B-q4f16_1-MLC", true);
    expect(thinkingFor(choices, webllmThinkingSubject("Qwen3.5-0.8B-q4f16_1-MLC"))).toBe(true);
    expect(thinkingFor(choices, webllmThinkingSubject("Qwen3.5-2B-q4f16_1-MLC"))).toBe(false);
  });

  it("stored text that is not what it writes is read as no choices; at most MAX_THINKING_CHOICES are kept, the newest", () => {
    for (const bad of ["on", "[true]", "null", '{"a": "yes"}', "{"]) expect(readThinkingChoices(bad)).toEqual({});
    expect(readThinkingChoices('{"a": true, "b": 1}')).toEqual({ a: true });
    let choices = {};
    for (let i = 0; i <= MAX_THINKING_CHOICES; i++) choices = withThinkingChoice(choices, `m${i}`, true);
    expect(Object.keys(choices)).toHaveLength(MAX_THINKING_CHOICES);
    expect(choices).not.toHaveProperty("m0");
    expect(readThinkingChoices(JSON.stringify({ ...choices, extra: false }))).not.toHaveProperty("m1");
  });

  it("the switch is for the server's model in the server engine, else the WebLLM model's; its note says whose value it shows", () => {
    const server = serverThinkingSubject("Qwen/Qwen3.5-2B", "qwen3_5");
    expect(thinkingSubjectOf({ kind: "openai", serverThinkingSubject: server, loadedModelId: null, selectedModelId: "Qwen3.5-4B-q4f16_1-MLC" })).toBe(server);
    expect(thinkingSubjectOf({ kind: "webllm", serverThinkingSubject: server, loadedModelId: null, selectedModelId: "Qwen3.5-4B-q4f16_1-MLC" }).model).toBe("Qwen3.5-4B-q4f16_1-MLC");
    expect(thinkingNote({}, server)).toBe("This model's default (off).");
    expect(thinkingNote(withThinkingChoice({}, server.model, true), server)).toBe("Set by you for this model (off by default).");
  });
});
