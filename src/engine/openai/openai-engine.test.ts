// The OpenAI-compatible engine against a real local HTTP server (the e2e suite's stand-in for
// vLLM/Ollama): streamed SSE, the exact bodies sent, finish reasons, usage, and each failure.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startOpenAiTestServer, type OpenAiTestServer } from "../../../e2e/openai-server/server.ts";
import type { EngineChunk } from "toolcall-middleware/types.ts";
import { listModels, normalizeBaseUrl, OpenAiEngine } from "./openai-engine.ts";
import { ServerFailure } from "./server-failure.ts";

let server: OpenAiTestServer;
beforeAll(async () => {
  server = await startOpenAiTestServer({ models: [{ id: "test-model", max_model_len: 4096 }, { id: "other" }] });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.set({ apiKey: undefined, noCompletions: false });
});

async function collect(stream: AsyncIterable<EngineChunk>): Promise<EngineChunk[]> {
  const out: EngineChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}
async function failureOf(promise: Promise<unknown>): Promise<ServerFailure> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ServerFailure);
  return error as ServerFailure;
}
const engine = (mode: "prompt" | "native" = "prompt", extra: { apiKey?: string; model?: string } = {}) =>
  new OpenAiEngine({ baseUrl: server.url, model: extra.model ?? "test-model", mode, ...(extra.apiKey ? { apiKey: extra.apiKey } : {}) });

describe("normalizeBaseUrl", () => {
  it("adds /v1 to a bare server address and drops trailing slashes", () => {
    expect(normalizeBaseUrl("http://localhost:11434/")).toBe("http://localhost:11434/v1");
    expect(normalizeBaseUrl(" http://h:8000/v1/ ")).toBe("http://h:8000/v1");
    expect(() => normalizeBaseUrl("ftp://x")).toThrow(ServerFailure);
  });
});

describe("listModels", () => {
  it("lists the server's models with the context window vLLM reports", async () => {
    expect(await listModels({ baseUrl: server.url })).toEqual([
      { id: "test-model", contextWindowSize: 4096, ownedBy: "test" },
      { id: "other", ownedBy: "test" },
    ]);
  });
  it("says an API key was refused (401)", async () => {
    server.set({ apiKey: "sekret" });
    expect((await failureOf(listModels({ baseUrl: server.url, apiKey: "wrong" }))).kind).toBe("unauthorized");
    expect(await listModels({ baseUrl: server.url, apiKey: "sekret" })).toHaveLength(2);
    expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer sekret");
  });
  it("says no server answered at a closed port", async () => {
    const closed = await startOpenAiTestServer();
    const url = closed.url;
    await closed.close();
    expect((await failureOf(listModels({ baseUrl: url }))).kind).toBe("unreachable");
  });
});

describe("prompt mode", () => {
  it("sends the exact prompt and every sampling setting to /v1/completions, and streams the text", async () => {
    server.script({ text: ["Hel", "lo"], usage: { prompt_tokens: 12, completion_tokens: 2 } });
    const chunks = await collect(engine().generate("<|im_start|>user\nHi<|im_end|>\n", { maxTokens: 64, temperature: 0.6, topP: 0.95, seed: 7, stop: ["<|im_end|>"] }, new AbortController().signal));
    expect(server.requests[0]!.path).toBe("/v1/completions");
    expect(server.requests[0]!.body).toEqual({
      model: "test-model",
      prompt: "<|im_start|>user\nHi<|im_end|>\n",
      stream: true,
      stream_options: { include_usage: true },
      // The prompt already holds its BOS; the reply keeps its special tokens (Harmony's, DeepSeek's call markers).
      add_special_tokens: false,
      skip_special_tokens: false,
      spaces_between_special_tokens: false,
      max_tokens: 64,
      temperature: 0.6,
      top_p: 0.95,
      seed: 7,
      stop: ["<|im_end|>"],
    });
    expect(chunks.filter((c) => c.type === "text").map((c) => (c as { text: string }).text).join("")).toBe("Hello");
    expect(chunks.at(-1)).toMatchObject({ type: "usage", usage: { promptTokens: 12, completionTokens: 2, finishReason: "stop" } });
  });

  it("reports a length stop as cut off at max tokens, or at the context window when the budget was not used up", async () => {
    server.script({ text: ["a"], finishReason: "length", usage: { prompt_tokens: 5, completion_tokens: 64 } }, { text: ["a"], finishReason: "length", usage: { prompt_tokens: 4000, completion_tokens: 96 } });
    const atBudget = await collect(engine().generate("p", { maxTokens: 64 }, new AbortController().signal));
    expect(atBudget.at(-1)).toMatchObject({ usage: { finishReason: "length", cutOff: "max-tokens" } });
    const atWindow = await collect(engine().generate("p", { maxTokens: 1000 }, new AbortController().signal));
    expect(atWindow.at(-1)).toMatchObject({ usage: { finishReason: "length", cutOff: "context-window" } });
  });

  it("turns a dropped stream into an error that keeps what arrived", async () => {
    server.script({ text: ["par", "tial"], hold: true, drop: true });
    const seen: string[] = [];
    const failure = await failureOf(
      (async () => {
        for await (const chunk of engine().generate("p", {}, new AbortController().signal)) {
          if (chunk.type === "text") seen.push(chunk.text);
          if (seen.join("") === "partial") server.release();
        }
      })(),
    );
    expect(failure.kind).toBe("dropped-stream");
    expect(seen.join("")).toBe("partial");
  });

  it("suggests native mode when the server has no /v1/completions", async () => {
    server.set({ noCompletions: true });
    const failure = await failureOf(collect(engine().generate("p", {}, new AbortController().signal)));
    expect(failure.kind).toBe("no-completions");
    expect(failure.suggestion).toMatch(/native mode/);
  });

  it("names an unknown model and a context overflow", async () => {
    expect((await failureOf(collect(engine("prompt", { model: "nope" }).generate("p", {}, new AbortController().signal)))).kind).toBe("unknown-model");
    server.script({ error: { status: 400, message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens." } });
    expect((await failureOf(collect(engine().generate("p", {}, new AbortController().signal)))).kind).toBe("context-overflow");
  });

  it("stops at once on abort and the server sees the client go", async () => {
    server.script({ text: ["first"], hold: true });
    const controller = new AbortController();
    const texts: string[] = [];
    for await (const chunk of engine().generate("p", {}, controller.signal)) {
      if (chunk.type === "text") texts.push(chunk.text);
      controller.abort();
    }
    expect(texts).toEqual(["first"]);
    await expect.poll(() => server.closedEarly()).toBeGreaterThan(0);
  });
});

describe("native mode", () => {
  it("streams the reasoning a server's reasoning parser separated from the text", async () => {
    server.script({ reasoning: ["Two and ", "three."], text: ["5"] });
    const native = engine("native").native!;
    const chunks = await collect(native.generate(native.request({ messages: [{ role: "user", content: "2+3?" }], tools: [] }, {}), new AbortController().signal));
    expect(chunks.filter((c) => c.type === "reasoning").map((c) => (c as { text: string }).text).join("")).toBe("Two and three.");
    expect(chunks.filter((c) => c.type === "text").map((c) => (c as { text: string }).text).join("")).toBe("5");
    expect(server.requests[0]!.body).not.toHaveProperty("tools");
  });

  it("sends the conversation and the tools to /v1/chat/completions and streams the server's calls", async () => {
    server.script({ toolCalls: [{ name: "add", argumentChunks: ['{"a": 2', ', "b": 3}'] }] });
    const native = engine("native").native!;
    const body = native.request(
      {
        messages: [
          { role: "user", content: "2+3?" },
          { role: "assistant", content: "", toolCalls: [{ id: "s1:call-1", name: "add", arguments: { a: 1, b: 1 } }] },
          { role: "tool", toolCallId: "s1:call-1", name: "add", content: "2" },
        ],
        tools: [{ name: "add", description: "Adds", parameters: { type: "object", properties: {} } }],
      },
      { maxTokens: 32 },
    );
    const chunks = await collect(native.generate(body, new AbortController().signal));
    const sent = server.requests[0]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.body).toMatchObject({
      model: "test-model",
      tool_choice: "auto",
      tools: [{ type: "function", function: { name: "add", description: "Adds" } }],
      messages: [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: "2+3?" },
        { role: "assistant", content: null, tool_calls: [{ id: "s1:call-1", type: "function", function: { name: "add", arguments: '{"a":1,"b":1}' } }] },
        { role: "tool", tool_call_id: "s1:call-1", content: "2" },
      ],
      max_tokens: 32,
    });
    const deltas = chunks.filter((c) => c.type === "tool-call-delta");
    expect(deltas.map((d) => (d as { argumentsDelta: string }).argumentsDelta).join("")).toBe('{"a": 2, "b": 3}');
    expect(deltas[0]).toMatchObject({ index: 0, name: "add" });
    expect(chunks.at(-1)).toMatchObject({ type: "usage", usage: { finishReason: "tool_calls" } });
  });
});

describe("the API key, echoed back by the server", () => {
  const key = "sk-live-abcdef123456";

  it("is masked in a 403 body that names it, in prompt and native mode and when listing models", async () => {
    server.script({ error: { status: 403, message: `The key ${key} may not use this model` } });
    const prompt = await failureOf(collect(engine("prompt", { apiKey: key }).generate("Hi", {}, new AbortController().signal)));
    expect(prompt.kind).toBe("unauthorized");
    expect(prompt.message).toContain("The key •••• may not use this model");
    server.script({ error: { status: 403, message: `The key ${key} may not use this model` } });
    const native = await failureOf(collect(engine("native", { apiKey: key }).native!.generate({ model: "test-model", messages: [] }, new AbortController().signal)));
    for (const failure of [prompt, native]) expect(`${failure.message} ${failure.suggestion} ${failure.detail}`).not.toContain(key);
    server.set({ apiKey: "another-key-0000" });
    const listing = await failureOf(listModels({ baseUrl: server.url, apiKey: key }));
    expect(`${listing.message} ${listing.detail}`).not.toContain(key);
  });

  it("is masked in streamed text, reasoning and call arguments, even split across pieces", async () => {
    server.script({ text: ["Your key is sk-live-", "abcdef", "123456, right?"], finishReason: "stop" });
    const chunks = await collect(engine("prompt", { apiKey: key }).generate("Hi", {}, new AbortController().signal));
    const text = chunks.flatMap((chunk) => (chunk.type === "text" ? [chunk.text] : [])).join("");
    expect(text).toBe("Your key is ••••, right?");
    expect(chunks.at(-1)?.type).toBe("usage");

    server.script({
      reasoning: ["I will use sk-live-abc", "def123456 now"],
      toolCalls: [{ name: "lookup", argumentChunks: ['{"key": "sk-live-abcdef', '123456"}'] }],
      finishReason: "tool_calls",
    });
    const native = await collect(engine("native", { apiKey: key }).native!.generate({ model: "test-model", messages: [] }, new AbortController().signal));
    expect(native.flatMap((chunk) => (chunk.type === "reasoning" ? [chunk.text] : [])).join("")).toBe("I will use •••• now");
    expect(native.flatMap((chunk) => (chunk.type === "tool-call-delta" ? [chunk.argumentsDelta] : [])).join("")).toBe('{"key": "••••"}');
    expect(JSON.stringify(native)).not.toContain(key);
  });

  it("is masked in the finish reason and the call id (native mode records both)", async () => {
    server.script({ toolCalls: [{ id: `call_${key}`, name: "lookup", argumentChunks: ["{}"] }], finishReason: `stop ${key}` });
    const native = await collect(engine("native", { apiKey: key }).native!.generate({ model: "test-model", messages: [] }, new AbortController().signal));
    expect(JSON.stringify(native)).not.toContain(key);
    expect(native.find((chunk) => chunk.type === "tool-call-delta")).toMatchObject({ id: "call_••••" });
    expect(native.at(-1)).toMatchObject({ type: "usage", usage: { finishReason: "stop ••••" } });
    server.script({ text: ["Hi"], finishReason: `${key} `.repeat(10_000) });
    const prompt = await collect(engine("prompt", { apiKey: key }).generate("Hi", {}, new AbortController().signal));
    expect(JSON.stringify(prompt)).not.toContain(key);
    const usage = prompt.at(-1);
    expect(usage?.type === "usage" && usage.usage.finishReason!.length).toBeLessThanOrEqual(64);
  });
});
