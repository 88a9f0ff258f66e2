// LFM2 with its trained lfm2 protocol against its chat template as llama.cpp keeps it
// (llama-cpp-lfm2.jinja), rendered by @huggingface/jinja from the same conversation and tools.
// Liquid's original (the chat_template of LiquidAI/LFM2-*'s tokenizer_config.json, not kept here:
// no verbatim copy was at hand) writes the same system turn and tool turns but no tool_calls;
// llama.cpp's edit adds them in the JSON form, which is the lab's.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage } from "toolcall-middleware/types.ts";
import { parseText } from "toolcall-middleware/parser/test-fixtures.ts";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { SYSTEM, commonScenarios, fixture, official, ours, tools } from "./parity-harness.ts";

const models = ["LiquidAI/LFM2-1.2B", "LiquidAI/LFM2-350M"];
const template = fixture("llama-cpp-lfm2.jinja");
const context = { bos_token: "<|startoftext|>" };

describe("LFM2 with lfm2: the tool list after the system text, JSON calls, <|tool_response_start|> results", () => {
  for (const [scenario, messagesFor] of commonScenarios) {
    for (const system of [SYSTEM, undefined]) {
      it(`${scenario}, ${system ? "a system prompt" : "no system prompt"}`, () => {
        // The one stated difference: llama.cpp's edit writes each call's id into its JSON object
        // (`"id": "c1"`); the model writes none, and the lab writes its calls back as the model wrote them.
        const messages = messagesFor("lfm2").map((m) => (m.role === "assistant" && m.toolCalls ? { ...m, toolCalls: m.toolCalls.map((c) => ({ ...c, id: "" })) } : m));
        const want = official(template, messages, system, context);
        expect(want).toContain("List of tools: <|tool_list_start|>[");
        for (const model of models) expect(ours(model, "lfm2", messages, system), model).toBe(want);
      });
    }
  }

  it("with ids, llama.cpp's edit writes them into each call; the lab does not", () => {
    const messages = commonScenarios[0]![1]("lfm2");
    const want = official(template, messages, SYSTEM, context);
    expect(want).toContain('"arguments": {"expression": "1234 * 5678"}, "id": "c1"}]<|tool_call_end|>');
    expect(ours(models[0]!, "lfm2", messages, SYSTEM)).toBe(want.replace(', "id": "c1"}', "}"));
  });

  it("without tools: ChatML after <|startoftext|>, no system turn unless given one", () => {
    const plain: ChatMessage[] = [
      { role: "user", content: "Hello" },
      { role: "assistant", content: "Hi! How can I help?" },
      { role: "user", content: "What is 2 + 2?" },
    ];
    for (const system of [SYSTEM, undefined]) {
      const prompt = renderModelPrompt({ modelId: models[0]!, protocol: getProtocol("lfm2")!, tools: [], messages: plain, systemPrompt: system ?? "" }).prompt;
      expect(prompt).toBe(official(template, plain, system, { ...context, tools: undefined }));
    }
  });
});

describe("LFM2.5 with lfm2: its own current template (LFM2.5-8B-A1B.jinja, llama.cpp de3ff815): a plain JSON tool list after a newline, no date, pythonic calls, bare results", () => {
  const lfm25 = fixture("LFM2.5-8B-A1B.jinja");
  const lfm25Models = ["LiquidAI/LFM2.5-8B-A1B", "LiquidAI/LFM2.5-1.2B-Instruct"];
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 10, 24, 12, 0));
  });
  afterAll(() => vi.useRealTimers());
  // @huggingface/jinja's own strftime_now reads the (fixed) clock, as the lab's prompt does.
  const day = context;

  for (const [scenario, messagesFor] of commonScenarios) {
    for (const system of [SYSTEM, undefined]) {
      it(`${scenario}, ${system ? "a system prompt" : "no system prompt"}`, () => {
        const messages = messagesFor("lfm2");
        const want = official(lfm25, messages, system, day);
        // The earlier copy wrote "Today's date: …" and a blank line; the current one neither (the clock stays faked to show it).
        expect(want).toContain(`${system ? `${system}\n` : "<|im_start|>system\n"}List of tools: [{`);
        expect(want).not.toContain("Today's date");
        expect(want).toMatch(/<\|tool_call_start\|>\[\w+\((expression|timezone)='/);
        for (const model of lfm25Models) expect(ours(model, "lfm2", messages, system), model).toBe(want);
      });
    }
  }

  it("a string with a quote: the template writes it as it is (an unterminated Python string); the lab escapes it", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Time?" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "get_current_time", arguments: { timezone: "it's \\ here" } }], protocol: "lfm2" },
      { role: "tool", toolCallId: "c1", name: "get_current_time", content: "12:00" },
    ];
    expect(official(lfm25, messages, undefined, day)).toContain("get_current_time(timezone='it's \\ here')");
    expect(ours(lfm25Models[0]!, "lfm2", messages, undefined)).toContain(`get_current_time(timezone="it's \\\\ here")`);
  });
});

describe("the lfm2 protocol reads calls as LFM2.5's template writes them", () => {
  it("a pythonic list with single-quoted strings and a JSON mapping", () => {
    const raw = `<|tool_call_start|>[calculator(expression='1234 * 5678'), get_current_time(timezone='Asia/Seoul', options={"utc": true})]<|tool_call_end|>`;
    const withOptions = tools.map((t) => (t.name === "get_current_time" ? { ...t, parameters: { type: "object", properties: { timezone: { type: "string" }, options: { type: "object" } } } } : t));
    const r = parseText(getProtocol("lfm2")!, raw, withOptions);
    expect(r.calls.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: "calculator", args: { expression: "1234 * 5678" } },
      { name: "get_current_time", args: { timezone: "Asia/Seoul", options: { utc: true } } },
    ]);
  });
});
