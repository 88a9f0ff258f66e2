// Token probabilities from a real model: llama.cpp's llama-server with SmolLM2 135M and Gemma 3
// 270M (started here on 127.0.0.1), through the lab's server engine in prompt mode at
// temperature 0. Asserted on what the runtime reports (tokens, probabilities, prompts), never on
// the words the model writes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyById, familyChatTemplate } from "toolcall-middleware/families/registry.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import { stepDecisionPoint } from "toolcall-middleware/probabilities/step-decision.ts";
import { stepTokens } from "toolcall-middleware/probabilities/step-tokens.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage, ExecutableTool, LoopEvent } from "toolcall-middleware/types.ts";
import { manifestModel, realModelsForTests, startLlamaServer, type LlamaServer } from "../../../scripts/real-models/llama-server-process.ts";
import { completion } from "../../../scripts/real-models/llama-server-api.ts";
import { runBranch } from "../../experiments/branch-run.ts";
import { OpenAiEngine } from "./openai-engine.ts";

// `opens`: a GBNF grammar (llama.cpp's server takes one as `grammar`) that makes the reply open a
// call in the protocol: the recorded probabilities are the model's own, before the grammar.
const MODELS = [
  { id: "smollm2-135m-instruct-q4_1", protocol: "xml", port: 8581, opens: 'root ::= "<tool_call>\\n<tool_name>get_weather</tool_name>" [^\\x01]*', forced: "<tool_call>\n<tool_name>get_weather</tool_name>" },
  { id: "gemma-3-270m-q4_k_m", protocol: "pythonic", port: 8582, opens: 'root ::= "[get_weather(" [^\\x01]*', forced: "[get_weather(" },
];
const real = realModelsForTests(MODELS.map((m) => m.id));

const weather: ExecutableTool = {
  name: "get_weather",
  description: "Get the current weather in a city",
  parameters: { type: "object", properties: { city: { type: "string", description: "The city" } }, required: ["city"] },
  execute: async () => "sunny, 24 °C",
};
const generation = { temperature: 0, maxTokens: 24, seed: 1 };
type Of<T extends LoopEvent["type"]> = Extract<LoopEvent, { type: T }>;

async function firstStep(server: LlamaServer, protocolName: string, family: string, messages: ChatMessage[], grammar?: string) {
  const engine = new OpenAiEngine({ baseUrl: server.url, apiKey: server.apiKey, model: server.model.id, mode: "prompt" });
  const events: LoopEvent[] = [];
  const template = familyChatTemplate(familyById(family)!);
  for await (const event of runToolLoop({ engine, protocol: getProtocol(protocolName)!, tools: [weather], messages, template, generation: { ...generation, ...(grammar ? { grammar } : {}) }, maxSteps: 1, runId: "r" })) events.push(event);
  const stepStart = events.find((e): e is Of<"step-start"> => e.type === "step-start")!;
  const output = events.filter((e): e is Of<"output-delta"> => e.type === "output-delta").map((e) => e.text).join("");
  return { engine, events, stepStart, output, tokens: stepTokens(events, "r", stepStart.stepId), point: stepDecisionPoint(events, "r", stepStart.stepId) };
}

for (const model of MODELS) {
  describe.skipIf(!real.run)(`token probabilities with ${model.id} on llama-server${real.run ? "" : ` (skipped: ${real.why})`}`, () => {
    let server: LlamaServer;
    const family = real.run ? manifestModel(model.id).family : "";
    beforeAll(async () => {
      server = await startLlamaServer({ modelId: model.id, port: model.port, contextSize: 4096 });
    }, 120_000);
    afterAll(() => server?.stop());

    let plain: ReturnType<typeof firstStep> | undefined;
    const plainStep = () => (plain ??= firstStep(server, model.protocol, family, [{ role: "user", content: "Hello! Who are you?" }]));

    it("records each token with its probability and top 5, greedy tokens first among them, and names the decision point", async () => {
      const { stepStart, output, tokens, point } = await plainStep();
      expect(stepStart.probabilities).toEqual({ topK: 5 });
      expect(output.length).toBeGreaterThan(0);
      expect(tokens.length).toBeGreaterThan(0);
      expect(tokens.map((t) => t.token.text).join("")).toBe(output);
      for (const { token } of tokens) {
        expect(token.p).toBeGreaterThan(0);
        expect(token.p).toBeLessThanOrEqual(1);
        expect(token.top).toHaveLength(5);
        expect(token.top.map((a) => a.p)).toEqual([...token.top.map((a) => a.p)].sort((a, b) => b - a));
        // Temperature 0 samples the most likely token: its p is the top alternative's.
        expect(token.p).toBeCloseTo(token.top[0]!.p, 5);
      }
      expect(["call", "no-call"]).toContain(point.kind);
      if (point.kind === "no-call") expect(point.token.index).toBe(0);
    }, 300_000);

    it("names the decision point of a step that opened a call (a grammar makes it open one)", async () => {
      const { events, point, tokens } = await firstStep(server, model.protocol, family, [{ role: "user", content: "What is the weather in Rome?" }], model.opens);
      const opened = events.some((e) => e.type === "parse" && e.event.type === "tool-call-start");
      expect(opened, "the step opened no call: the test needs a step with one").toBe(true);
      if (point.kind !== "call") throw new Error(`decision point: ${point.kind}`);
      expect(tokens[point.token.index]).toEqual(point.token);
      expect(point.markerP).toBeCloseTo(point.markerTokens.reduce((product, t) => product * t.token.p, 1), 10);
      expect(point.markerP).toBeGreaterThan(0);
      // The probabilities are the model's own, taken before the grammar (llama-server's n_probs
      // without post_sampling_probs): at the first token, where the grammar allows only the start
      // of its fixed text, the 5 recorded alternatives still include tokens it forbids.
      expect(tokens[0]!.token.top).toHaveLength(5);
      expect(tokens[0]!.token.top.filter((a) => !model.forced.startsWith(a.text)).length).toBeGreaterThan(0);
    }, 300_000);

    it("forcing an alternative continues from the original prefix plus that token, as llama-server itself would", async () => {
      const { stepStart, tokens } = await plainStep();
      const at = tokens[Math.min(1, tokens.length - 1)]!;
      const alternative = at.token.top.find((a) => a.text !== at.token.text && a.text.trim() !== "")!;
      expect(alternative).toBeDefined();
      const output = tokens.map((t) => t.token.text).join("");
      const prefix = output.slice(0, at.start) + alternative.text;
      const engine = new OpenAiEngine({ baseUrl: server.url, apiKey: server.apiKey, model: server.model.id, mode: "prompt" });
      const branchEvents: LoopEvent[] = [];
      const branch = runBranch(
        {
          origin: { runId: "r", stepId: stepStart.stepId },
          protocol: getProtocol(model.protocol)!,
          tools: [weather],
          messages: stepStart.messages,
          prompt: stepStart.prompt,
          templateMessages: stepStart.templateMessages,
          template: { name: stepStart.template, controlTokens: stepStart.controlTokens ?? [] },
          settings: stepStart.settings,
          changes: ["forced"],
          toolTimeoutMs: 1000,
          forced: { offset: at.start, token: alternative.text, replaced: at.token.text, prefix },
        },
        { engine },
        new AbortController().signal,
      );
      for (;;) {
        const next = await branch.next();
        if (next.done) break;
        branchEvents.push(next.value);
      }
      const branchStart = branchEvents.find((e): e is Of<"step-start"> => e.type === "step-start")!;
      expect(branchStart.prompt).toBe(stepStart.prompt + prefix);
      const branchOutput = branchEvents.filter((e): e is Of<"output-delta"> => e.type === "output-delta").map((e) => e.text).join("");
      expect(branchOutput.startsWith(prefix)).toBe(true);
      const continuation = branchOutput.slice(prefix.length);
      const continued = stepTokens(branchEvents, branchStart.runId, branchStart.stepId);
      expect(continued.length).toBeGreaterThan(0);
      expect(continued[0]!.start).toBe(prefix.length);
      // The same prompt straight to llama-server, greedy: the same first tokens.
      const own = (await completion(server, { prompt: branchStart.prompt, n_predict: 4, temperature: 0, cache_prompt: false })).content;
      expect(continuation.startsWith(own) || own.startsWith(continuation)).toBe(true);
    }, 300_000);
  });
}
