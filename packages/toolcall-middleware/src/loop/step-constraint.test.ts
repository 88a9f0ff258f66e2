// "Constrain tool calls" through the loop: each step records its tool choice and the structural
// tag it sent (the engine receives the same tag), or why it ran unconstrained.
import { describe, expect, it } from "vitest";
import { getProtocol } from "../protocols/registry.ts";
import { chatmlTemplate } from "../templates/chatml.ts";
import type { ChatTemplate, Engine, EngineChunk, ExecutableTool, GenerationRequest, LoopEvent } from "../types.ts";
import { runToolLoop } from "./run-tool-loop.ts";
import { drive } from "./test-support/drive.ts";

const clock: ExecutableTool = { name: "clock", description: "Time.", parameters: { type: "object", properties: {} }, execute: async () => "noon" };

/** ChatML that can also give its prompt as chat turns (as the model templates do). */
const asChat: ChatTemplate = {
  ...chatmlTemplate,
  chatTurns: (messages) => ({ turns: messages.map((m) => ({ role: m.role === "assistant" ? "assistant" : "user", content: m.content })), turnEnd: "<|im_end|>\n", userRole: "<|im_start|>user" }),
};

class RecordingEngine implements Engine {
  readonly name = "recording";
  readonly requests: Array<GenerationRequest | undefined> = [];
  constructor(readonly constrains: Engine["constrains"]) {}
  async *generate(_prompt: string, _settings: unknown, _signal: AbortSignal, request?: GenerationRequest): AsyncGenerator<EngineChunk> {
    this.requests.push(request);
    yield { type: "text", text: "It is noon." };
  }
}

async function stepStart(engine: Engine, toolChoice: "auto" | "required" | { name: string }, template: ChatTemplate = asChat) {
  const { events } = await drive(runToolLoop({ engine, protocol: getProtocol("hermes")!, template, tools: [clock], messages: [{ role: "user", content: "Time?" }], constrain: { toolChoice } }));
  return events.find((e): e is Extract<LoopEvent, { type: "step-start" }> => e.type === "step-start")!;
}

describe("a constrained step", () => {
  it("records the tool choice and the structural tag, and sends the engine that tag", async () => {
    const engine = new RecordingEngine({ supported: true });
    const start = await stepStart(engine, "required");
    const expected = getProtocol("hermes")!.structuralTag!([{ name: clock.name, description: clock.description, parameters: clock.parameters }], "required");
    expect(start.constraint).toEqual({ toolChoice: "required", structuralTag: expected });
    expect(engine.requests[0]?.structuralTag).toEqual(expected);
  });

  it("on an engine that cannot constrain, records the setting and why, and sends no tag", async () => {
    const engine = new RecordingEngine({ supported: false, reason: "the replay engine plays recorded output and cannot constrain it" });
    const start = await stepStart(engine, { name: "clock" });
    expect(start.constraint).toEqual({ toolChoice: { name: "clock" }, unsupported: "the replay engine plays recorded output and cannot constrain it" });
    expect(engine.requests[0]?.structuralTag).toBeUndefined();
  });

  it("a prompt the template cannot give as chat turns runs unconstrained on an engine that constrains chat turns only, saying so", async () => {
    const engine = new RecordingEngine({ supported: true, needsChatTurns: true });
    const start = await stepStart(engine, "auto", chatmlTemplate);
    expect(start.constraint?.unsupported).toMatch(/chat turns/);
    expect(engine.requests[0]?.structuralTag).toBeUndefined();
  });

  it("an engine that constrains the raw prompt (llama.cpp's grammar) is constrained without chat turns", async () => {
    const engine = new RecordingEngine({ supported: true });
    const start = await stepStart(engine, "required", chatmlTemplate);
    expect(start.constraint?.unsupported).toBeUndefined();
    expect(start.constraint?.structuralTag).toBeDefined();
    expect(engine.requests[0]?.structuralTag).toEqual(start.constraint?.structuralTag);
  });

  it("without the setting, a step records no constraint", async () => {
    const engine = new RecordingEngine({ supported: true });
    const { events } = await drive(runToolLoop({ engine, protocol: getProtocol("hermes")!, tools: [clock], messages: [{ role: "user", content: "Time?" }] }));
    expect(events.find((e) => e.type === "step-start")).not.toHaveProperty("constraint");
    expect(engine.requests[0]?.structuralTag).toBeUndefined();
  });
});
