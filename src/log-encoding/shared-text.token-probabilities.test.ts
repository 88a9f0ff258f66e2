// A log with its tokens' probabilities reads back exactly as recorded through the boundary every
// saved chunk, eval case and exported file passes (the shared-text codec).
import { describe, expect, it } from "vitest";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import type { Engine, LoopEvent, TokenProbability } from "toolcall-middleware/types.ts";
import { decodeEventLog, encodeEventLog, type DecodeIssue } from "./shared-text.ts";

const token = (text: string, p: number, alternative: string): TokenProbability => ({ text, p, id: text.length, top: [{ text, p }, { text: alternative, p: (1 - p) / 2 }] });

const engine: Engine = {
  name: "with probabilities",
  tokenProbabilities: { supported: true },
  generate: async function* () {
    yield { type: "text", text: "<tool_call>", tokens: [token("<tool_call>", 0.62, "I")] };
    yield { type: "text", text: '{"name": "x", "arguments": {}}', tokens: [token('{"name": "x", ', 0.9, "{"), token('"arguments": {}}', 0.99, '"')] };
    yield { type: "text", text: "</tool_call>", tokens: [token("</tool_call>", 0.97, "\n")] };
    yield { type: "usage", usage: { finishReason: "stop" } };
  },
};

describe("token probabilities through the shared-text codec", () => {
  it("encode then decode gives the very events, tokens and step-start record included", async () => {
    const events: LoopEvent[] = [];
    for await (const event of runToolLoop({ engine, protocol: getProtocol("hermes")!, tools: [], messages: [{ role: "user", content: "Hi" }], runId: "r", maxSteps: 1 })) events.push(event);
    const withTokens = events.filter((e) => e.type === "output-delta" && e.tokens);
    expect(withTokens).toHaveLength(3);
    const issues: DecodeIssue[] = [];
    const decoded = decodeEventLog(JSON.parse(JSON.stringify(encodeEventLog(events))) as unknown[], issues);
    expect(issues).toEqual([]);
    expect(decoded).toEqual(events);
  });
});
