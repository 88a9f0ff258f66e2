// Each step records the model's own chat template where the engine has it (a GGUF's embedded
// one), so the debugger can read the step by the format derived from it; a log without it still
// reads (older logs), and a template past the bound is left out rather than recorded in part.
import { describe, expect, it } from "vitest";
import { MODEL_CHAT_TEMPLATE_CHARS, loopEventSchema } from "../event-log-schema.ts";
import { getProtocol } from "../protocols/registry.ts";
import { chatmlTemplate } from "../templates/chatml.ts";
import type { LoopEvent } from "../types.ts";
import { runToolLoop } from "./run-tool-loop.ts";
import { drive } from "./test-support/drive.ts";
import { ScriptedEngine } from "./test-support/scripted-engine.ts";

const FILE_TEMPLATE = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}";

async function stepStart(template = chatmlTemplate): Promise<Extract<LoopEvent, { type: "step-start" }>> {
  const { events } = await drive(runToolLoop({ engine: new ScriptedEngine(["Hello."]), protocol: getProtocol("hermes")!, tools: [], messages: [{ role: "user", content: "Hi" }], runId: "r", template }));
  return events.find((e): e is Extract<LoopEvent, { type: "step-start" }> => e.type === "step-start")!;
}

describe("the model's own chat template in a step", () => {
  it("is recorded in the step-start, as data the log's schema reads", async () => {
    const start = await stepStart({ ...chatmlTemplate, modelChatTemplate: FILE_TEMPLATE });
    expect(start.modelChatTemplate).toBe(FILE_TEMPLATE);
    expect(loopEventSchema.parse(start)).toMatchObject({ modelChatTemplate: FILE_TEMPLATE });
  });

  it("is absent where the engine has none, and an older log without it still reads", async () => {
    const start = await stepStart();
    expect("modelChatTemplate" in start).toBe(false);
    expect(loopEventSchema.safeParse(start).success).toBe(true);
  });

  it("past the bound, or blank, is left out whole", async () => {
    expect("modelChatTemplate" in (await stepStart({ ...chatmlTemplate, modelChatTemplate: "x".repeat(MODEL_CHAT_TEMPLATE_CHARS + 1) }))).toBe(false);
    expect("modelChatTemplate" in (await stepStart({ ...chatmlTemplate, modelChatTemplate: "  \n" }))).toBe(false);
    const start = await stepStart();
    expect(loopEventSchema.safeParse({ ...start, modelChatTemplate: "x".repeat(MODEL_CHAT_TEMPLATE_CHARS + 1) }).success).toBe(false);
  });
});
