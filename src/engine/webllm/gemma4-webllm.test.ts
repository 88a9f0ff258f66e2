// Gemma 4 on WebLLM's own engine (MLCEngine with the scripted stand-in for the GPU, loaded with
// the lab's gemma4_instruction conv_template), driven by the lab's loop and WebLlmEngine: the
// first step goes through WebLLM's chat path, the step after the results through the raw path
// (Gemma 4 writes results into the model's own turn, which a chat turn cannot say), and each
// prompt WebLLM prefilled is exactly the prompt the step recorded.
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { chatTemplateForModel } from "toolcall-middleware/families/registry.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import { drive } from "toolcall-middleware/loop/test-support/drive.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ExecutableTool, LoopEvent } from "toolcall-middleware/types.ts";
import { chatOptionsFor } from "./chat-options.ts";
import { loadNodeWebLlm } from "./testing/node-webllm.ts";
import { WebLlmEngine } from "./webllm-engine.ts";

const MODEL = "gemma-4-E2B-it-q4f32_1-MLC";
const echo: ExecutableTool = { name: "echo", description: "Echoes its text.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, execute: async (args) => `echo: ${String(args.text)}` };

describe("Gemma 4 on WebLLM's engine", () => {
  it("a tool loop: the first step on the chat path, the next on the raw path, each prompt the one recorded", async () => {
    const webllm = await loadNodeWebLlm(MODEL, chatOptionsFor(MODEL));
    const model = webllm.model();
    model.enqueue({ output: '<|tool_call>call:echo{text:<|"|>hi<|"|>}<tool_call|>', then: { stopToken: "<|tool_response>" } }, { output: "It said hi.", then: { stopToken: "<turn|>" } });
    const engine = new WebLlmEngine(webllm.transport, MODEL, { contextWindowSize: 8192, chatPath: true });
    const { events, result } = await drive(
      runToolLoop({ engine, protocol: getProtocol("gemma4")!, tools: [echo], messages: [{ role: "user", content: "Echo hi." }], template: chatTemplateForModel(MODEL, { enableThinking: false })!, systemPrompt: "" }),
    );
    expect(result.status).toBe("final");
    const starts = events.filter((e): e is Extract<LoopEvent, { type: "step-start" }> => e.type === "step-start");
    expect(starts).toHaveLength(2);
    // What the stand-in was given to prefill is what each step recorded (a fresh cache both times).
    expect(model.records.map((r) => r.prompt)).toEqual(starts.map((s) => s.prompt));
    expect(starts[0]!.prompt.endsWith("<|turn>user\nEcho hi.<turn|>\n<|turn>model\n<|channel>thought\n<channel|>")).toBe(true);
    expect(starts[1]!.prompt.endsWith('<|turn>model\n<|tool_call>call:echo{text:<|"|>hi<|"|>}<tool_call|><|tool_response>response:echo{value:<|"|>echo: hi<|"|>}<tool_response|>')).toBe(true);
    const usages = events.filter((e): e is Extract<LoopEvent, { type: "usage" }> => e.type === "usage" && e.usage.promptTokens !== undefined).map((e) => e.usage);
    // The chat path reports its cache plan (nothing to reuse on a first step); the raw path has none.
    expect(usages[0]).toMatchObject({ reusedTokens: 0, kvState: "kv_cache", prefilledTokens: usages[0]!.promptTokens });
    expect(usages[1]).not.toHaveProperty("reusedTokens");
    expect(model.records[1]!.prefilledTokens).toBe(usages[1]!.promptTokens);
  }, 60_000);
});
