// Force the other token: a branch keeps the original output up to a token, puts the chosen
// alternative there and lets the engine continue: its prompt is the original prompt followed by
// that prefix, its output is the prefix and the continuation, parsed as one reply.
import { describe, expect, it } from "vitest";
import { loopEventSchema } from "toolcall-middleware/event-log-schema.ts";
import { drive } from "toolcall-middleware/loop/test-support/drive.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Engine, LoopEvent } from "toolcall-middleware/types.ts";
import { runBranch, type BranchRequest } from "./branch-run.ts";

const tools = [{ name: "get_weather", description: "d", parameters: { type: "object", properties: { city: { type: "string" } } } }];

function continuing(): Engine & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    name: "continuing",
    prompts,
    tokenProbabilities: { supported: true },
    async *generate(prompt) {
      prompts.push(prompt);
      const text = '\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
      yield { type: "text", text, tokens: [{ text, p: 0.9, top: [] }] };
      yield { type: "usage", usage: { finishReason: "stop" } };
    },
  };
}

const request: BranchRequest = {
  origin: { runId: "r", stepId: "r:1" },
  protocol: getProtocol("hermes")!,
  tools,
  messages: [{ role: "user", content: "Weather?" }],
  prompt: "<|im_start|>user\nWeather?<|im_end|>\n<|im_start|>assistant\n",
  templateMessages: [],
  template: { name: "chatml", controlTokens: ["<|im_start|>", "<|im_end|>"] },
  settings: { temperature: 0 },
  changes: ["forced `<tool_call>` at token 1 in place of `I`"],
  toolTimeoutMs: 1000,
  forced: { offset: 0, token: "<tool_call>", replaced: "I", prefix: "<tool_call>" },
};

describe("a forced branch", () => {
  it("sends the original prompt plus the prefix, records it, and parses prefix and continuation as one reply", async () => {
    const engine = continuing();
    const { events, result } = await drive(runBranch(request, { engine }, new AbortController().signal));
    expect(engine.prompts).toEqual([request.prompt + "<tool_call>"]);
    const runStart = events.find((e): e is Extract<LoopEvent, { type: "run-start" }> => e.type === "run-start")!;
    expect(runStart.branch?.forced).toEqual(request.forced);
    const stepStart = events.find((e): e is Extract<LoopEvent, { type: "step-start" }> => e.type === "step-start")!;
    expect(stepStart.prompt).toBe(request.prompt + "<tool_call>");
    expect(stepStart.probabilities).toEqual({ topK: 5 });
    expect(result.output.rawOutput.startsWith("<tool_call>\n{")).toBe(true);
    expect(result.output.calls.map((c) => c.name)).toEqual(["get_weather"]);
    expect(result.status).toBe("tool-calls");
    for (const event of events) expect(loopEventSchema.safeParse(event).success).toBe(true);
  });

  it("a replay re-run with a given output forces nothing", async () => {
    const { events } = await drive(runBranch(request, { output: "plain" }, new AbortController().signal));
    const runStart = events.find((e): e is Extract<LoopEvent, { type: "run-start" }> => e.type === "run-start")!;
    expect(runStart.branch?.forced).toBeUndefined();
  });
});
