// What WebLlmEngine sends on WebLLM's chat path: the chat turns as messages, Qwen3's thinking
// switch as extra_body, a structural tag as response_format; and what it reads back (grammar
// timings, prefilled tokens). WebLLM's own handling of the path is in kv-cache.test.ts.
import { describe, expect, it } from "vitest";
import type { ChatTurns, EngineChunk, StructuralTag } from "toolcall-middleware/types.ts";
import type { ChatCompletionStreamRequest, CompletionTransport, RawCompletionChunk } from "./webllm-engine.ts";
import { WebLlmEngine } from "./webllm-engine.ts";

function transport(chunks: RawCompletionChunk[]) {
  const sent: Array<{ path: "raw" | "chat"; request: unknown }> = [];
  let i = 0;
  const t: CompletionTransport = {
    startStream: async (request) => (sent.push({ path: "raw", request }), "s"),
    startChatStream: async (request: ChatCompletionStreamRequest) => (sent.push({ path: "chat", request }), "s"),
    nextChunk: async () => chunks[i++],
    closeStream: async () => undefined,
    interrupt: () => undefined,
  };
  return { t, sent };
}

const chat: ChatTurns = { system: "S", turns: [{ role: "user", content: "Hi" }], enableThinking: false, turnEnd: "<|im_end|>\n", userRole: "<|im_start|>user" };
const tag: StructuralTag = { type: "structural_tag", format: { type: "triggered_tags", triggers: ["<tool_call>"], tags: [], at_least_one: false } };
const done: RawCompletionChunk[] = [
  { choices: [{ delta: { content: "Hello" } }] },
  { choices: [{ delta: {}, finish_reason: "stop" }] },
  { choices: [], usage: { prompt_tokens: 12, completion_tokens: 2, extra: { grammar_init_s: 0.25, grammar_per_token_s: 0.0004, time_to_first_token_s: 0.5 } } },
];

async function collect(stream: AsyncIterable<EngineChunk>) {
  const out: EngineChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

describe("WebLlmEngine on WebLLM's chat path", () => {
  it("sends the turns, the thinking switch and the structural tag, and reads back grammar timings", async () => {
    const { t, sent } = transport(done);
    const engine = new WebLlmEngine(t, "Qwen3-1.7B-q4f16_1-MLC", { chatPath: true });
    expect(engine.constrains).toEqual({ supported: true, needsChatTurns: true });
    const chunks = await collect(engine.generate("<prompt>", { maxTokens: 64, stop: ["<|im_end|>"] }, new AbortController().signal, { chat, controlStops: ["<|im_end|>"], structuralTag: tag }));
    expect(sent).toEqual([
      {
        path: "chat",
        request: expect.objectContaining({
          messages: [{ role: "system", content: "S" }, { role: "user", content: "Hi" }],
          extra_body: { enable_thinking: false },
          response_format: { type: "structural_tag", structural_tag: tag },
          max_tokens: 64,
          stream: true,
        }),
      },
    ]);
    expect(chunks.at(-1)).toEqual({
      type: "usage",
      usage: expect.objectContaining({ promptTokens: 12, prefilledTokens: 12, reusedTokens: 0, grammarInitMs: 250, grammarPerTokenMs: 0.4, timeToFirstTokenMs: 500, finishReason: "stop", constraintSentAs: "response_format" }),
    });
  });

  it("a model loaded without the lab's conv_template takes the raw path and says it cannot constrain", async () => {
    const { t, sent } = transport([{ choices: [{ text: "Hi", finish_reason: "stop" }] }]);
    const engine = new WebLlmEngine(t, "SomeOther-Model", {});
    expect(engine.constrains).toMatchObject({ supported: false });
    await collect(engine.generate("<prompt>", {}, new AbortController().signal, { chat, structuralTag: tag }));
    expect(sent).toEqual([{ path: "raw", request: expect.objectContaining({ prompt: "<prompt>" }) }]);
  });
});
