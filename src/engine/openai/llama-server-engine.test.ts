// The lab's server engine against a real llama.cpp server with the real models (SmolLM2 135M,
// Gemma 3 270M), at temperature 0. What is asserted is what the runtime reports — token counts,
// prefix reuse, finish reasons — never the words the model writes.
//
// Needs llama-server and the models (`npm run llama-server`, `npm run models`; `npm test` runs
// both first): skipped without them on a person's machine, failing under CI.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage, EngineChunk, EngineUsage, GenerationSettings } from "toolcall-middleware/types.ts";
import { realModelsForTests, startLlamaServer, type LlamaServer } from "../../../scripts/real-models/llama-server-process.ts";
import { tokenize } from "../../../scripts/real-models/llama-server-api.ts";
import { tools } from "../templates/parity-harness.ts";
import { listModels, OpenAiEngine } from "./openai-engine.ts";
import { probeLlamaCpp, type LlamaCppFacts } from "./llama-cpp-probe.ts";
import { requestMessageTexts, requestToolNames, toolsLeftOut } from "toolcall-middleware/native/server-prompt.ts";

const SMOLLM2 = "smollm2-135m-instruct-q4_1";
const GEMMA3 = "gemma-3-270m-q4_k_m";
// Under CI a missing binary or model fails here (realModelsForTests throws); elsewhere the tests skip with the reason.
const real = realModelsForTests([SMOLLM2, GEMMA3]);
const missing = real.run ? undefined : real.why;

const settings = (maxTokens: number): GenerationSettings => ({ maxTokens, temperature: 0, seed: 1 });

async function usageOf(stream: AsyncIterable<EngineChunk>): Promise<{ text: string; usage: EngineUsage }> {
  let text = "";
  let usage: EngineUsage | undefined;
  for await (const chunk of stream) {
    if (chunk.type === "text") text += chunk.text;
    if (chunk.type === "usage") usage = chunk.usage;
  }
  expect(usage, "the stream ends with its usage").toBeDefined();
  return { text, usage: usage! };
}

for (const [id, protocol] of [
  [SMOLLM2, "xml"],
  [GEMMA3, "pythonic"],
] as const) {
  describe.skipIf(missing !== undefined)(`${id} on llama-server, prompt mode`, () => {
    let server: LlamaServer;
    let model: string;
    let facts: LlamaCppFacts | undefined;
    let engine: OpenAiEngine;

    beforeAll(async () => {
      server = await startLlamaServer({ modelId: id });
      model = (await listModels({ baseUrl: server.baseUrl, apiKey: server.apiKey }))[0]!.id;
      facts = await probeLlamaCpp(server.baseUrl, server.apiKey);
      engine = new OpenAiEngine({ baseUrl: server.baseUrl, apiKey: server.apiKey, model, mode: "prompt", ...(facts ? { llamaCpp: facts } : {}) });
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
    });

    const promptFor = (messages: ChatMessage[]) => renderModelPrompt({ modelId: model, protocol: getProtocol(protocol)!, tools, messages, systemPrompt: "" }).prompt;

    it("connecting finds llama.cpp and whether it adds the BOS itself", () => {
      expect(facts).toEqual(id === GEMMA3 ? { bosAddedByServer: "<bos>" } : {});
    });

    it("the model reads the lab's prompt token for token: one BOS, not two", async () => {
      const prompt = promptFor([{ role: "user", content: "What is 1234 * 5678?" }]);
      const { usage } = await usageOf(engine.generate(prompt, settings(4), new AbortController().signal));
      expect(usage.promptTokens).toBe((await tokenize(server, prompt, { addSpecial: false })).length);
    });

    it("a later loop step reuses the earlier prompt from llama.cpp's cache (timings.cache_n), and says how much it prefilled", async () => {
      const first: ChatMessage[] = [{ role: "user", content: "What is 1234 * 5678?" }];
      const one = await usageOf(engine.generate(promptFor(first), settings(8), new AbortController().signal));
      expect(one.usage.promptTokens).toBeGreaterThan(0);
      const later: ChatMessage[] = [...first, { role: "assistant", content: one.text, protocol }, { role: "user", content: "And what is 2 + 2?" }];
      const laterPrompt = promptFor(later);
      const two = await usageOf(engine.generate(laterPrompt, settings(8), new AbortController().signal));
      expect(two.usage.reusedTokens).toBeGreaterThan(0);
      expect(two.usage.prefilledTokens).toBeGreaterThan(0);
      expect(two.usage.reusedTokens! + two.usage.prefilledTokens!).toBe(two.usage.promptTokens);
      // The tool section and the first question are already in the cache.
      expect(two.usage.reusedTokens!).toBeGreaterThan(two.usage.prefilledTokens!);
      expect(two.usage.prefillTokensPerSecond).toBeGreaterThan(0);
      expect(two.usage.decodeTokensPerSecond).toBeGreaterThan(0);
    });

    it("reports how far llama.cpp has read the prompt before the first token (return_progress), ending at the prompt's size", async () => {
      const prompt = promptFor([{ role: "user", content: `Here is a list: ${Array.from({ length: 40 }, (_, i) => `item ${i}`).join(", ")}. How many items?` }]);
      const chunks: EngineChunk[] = [];
      for await (const chunk of engine.generate(prompt, settings(2), new AbortController().signal)) chunks.push(chunk);
      const reports = chunks.flatMap((c) => (c.type === "prompt-progress" ? [c.progress] : []));
      const usage = chunks.find((c) => c.type === "usage")?.usage;
      expect(reports.length).toBeGreaterThan(0);
      // Every report comes before the first token, counts up, and the last has read the whole prompt.
      const firstText = chunks.findIndex((c) => c.type === "text");
      expect(chunks.findLastIndex((c) => c.type === "prompt-progress")).toBeLessThan(firstText === -1 ? chunks.length : firstText);
      for (let i = 1; i < reports.length; i++) expect(reports[i]!.processedTokens).toBeGreaterThanOrEqual(reports[i - 1]!.processedTokens);
      expect(reports.at(-1)!.totalTokens).toBe(usage?.promptTokens);
      expect(reports.at(-1)!.processedTokens).toBe(reports.at(-1)!.totalTokens);
    });

    it("a reply cut at max tokens is a length stop of the budget", async () => {
      const { usage } = await usageOf(engine.generate(promptFor([{ role: "user", content: "Count from 1 to 100, one number a line." }]), settings(3), new AbortController().signal));
      expect(usage).toMatchObject({ finishReason: "length", cutOff: "max-tokens", completionTokens: 3 });
    });

    if (id === GEMMA3) {
      it("what the fix is for: llama-server ignores add_special_tokens and puts a second BOS before a prompt that has one", async () => {
        const prompt = promptFor([{ role: "user", content: "Hi" }]);
        const response = await fetch(`${server.baseUrl}/completions`, {
          method: "POST",
          headers: { ...server.headers, "Content-Type": "application/json" },
          body: JSON.stringify({ model, prompt, max_tokens: 1, temperature: 0, add_special_tokens: false }),
        });
        const body = (await response.json()) as { usage: { prompt_tokens: number } };
        expect(body.usage.prompt_tokens).toBe((await tokenize(server, prompt, { addSpecial: false })).length + 1);
      });
    }
  });
}

describe.skipIf(missing !== undefined)("SmolLM2 on llama-server, native mode (llama.cpp's own template and tool-call parser)", () => {
  let server: LlamaServer;
  beforeAll(async () => {
    server = await startLlamaServer({ modelId: SMOLLM2 });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("the conversation and the tools go to /v1/chat/completions; the reply ends with a finish reason and the server's timings", async () => {
    const [served] = await listModels({ baseUrl: server.baseUrl, apiKey: server.apiKey });
    const engine = new OpenAiEngine({ baseUrl: server.baseUrl, apiKey: server.apiKey, model: served!.id, mode: "native" });
    const body = engine.native!.request({ systemPrompt: "", messages: [{ role: "user", content: "What is 1234 * 5678?" }], tools }, settings(48));
    expect(body.tools).toHaveLength(2);
    let usage: EngineUsage | undefined;
    let events = 0;
    for await (const chunk of engine.native!.generate(body, new AbortController().signal)) {
      events += 1;
      if (chunk.type === "usage") usage = chunk.usage;
    }
    expect(events).toBeGreaterThan(1);
    expect(["stop", "length", "tool_calls"]).toContain(usage?.finishReason);
    expect(usage?.promptTokens).toBeGreaterThan(0);
    expect(usage?.prefilledTokens).toBeGreaterThan(0);
  });

  it("the server says what prompt its template renders from the body: SmolLM2's drops the tools, which the debugger then says", async () => {
    const [served] = await listModels({ baseUrl: server.baseUrl, apiKey: server.apiKey });
    const llamaCpp = await probeLlamaCpp(server.baseUrl, server.apiKey);
    expect(llamaCpp).toBeDefined();
    const engine = new OpenAiEngine({ baseUrl: server.baseUrl, apiKey: server.apiKey, model: served!.id, mode: "native", llamaCpp: llamaCpp! });
    const body = engine.native!.request({ systemPrompt: "", messages: [{ role: "user", content: "What is 1234 * 5678?" }], tools }, settings(8));
    const prompt = await engine.native!.renderPrompt!(body, new AbortController().signal);
    // The rendered prompt is what the server tokenizes for this body: the same count as it reports.
    let usage: EngineUsage | undefined;
    for await (const chunk of engine.native!.generate(body, new AbortController().signal)) if (chunk.type === "usage") usage = chunk.usage;
    expect((await tokenize(server, prompt, { addSpecial: true })).length).toBe(usage?.promptTokens);
    expect(prompt).toContain("What is 1234 * 5678?");
    // SmolLM2's embedded ChatML template has no tools section, and this llama.cpp adds none.
    expect(toolsLeftOut(prompt, requestToolNames(body), requestMessageTexts(body))).toEqual(tools.map((t) => t.name));
  });
});
