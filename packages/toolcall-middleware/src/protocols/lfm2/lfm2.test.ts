import { describe, expect, it } from "vitest";
import { charChunks, parseText, testTools } from "../../parser/test-fixtures.ts";
import { lfm2Protocol as lfm2 } from "./protocol.ts";

describe("lfm2", () => {
  it("lists the tools as the chat template does: List of tools: <|tool_list_start|>[…]<|tool_list_end|>", () => {
    const prompt = lfm2.systemPrompt(testTools);
    expect(prompt.startsWith("List of tools: <|tool_list_start|>[")).toBe(true);
    expect(JSON.parse(prompt.slice("List of tools: <|tool_list_start|>".length, -"<|tool_list_end|>".length))).toHaveLength(2);
  });

  it("reads the pythonic form, which the model writes, in any chunking", () => {
    const raw = "<|tool_call_start|>[get_weather(location='Oslo', days=2), tag_items(tags=['a'])]<|tool_call_end|>Done.";
    for (const chunks of [[raw], charChunks(raw)]) {
      const r = parseText(lfm2, chunks);
      expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([
        ["get_weather", { location: "Oslo", days: 2 }],
        ["tag_items", { tags: ["a"] }],
      ]);
      expect(r.text).toBe("Done.");
    }
  });

  it("drops a call list echoed after the calls and capped by a stray <|tool_call_end|>, with a repair (issue #28)", () => {
    const raw = '<|tool_call_start|>[get_weather(location="Oslo")]<|tool_call_end|>\n[get_weather(location="Oslo")]<|tool_call_end|>Checking.';
    for (const chunks of [[raw], charChunks(raw)]) {
      const r = parseText(lfm2, chunks);
      expect(r.calls.map((c) => c.name)).toEqual(["get_weather"]);
      expect(r.text).toBe("Checking.");
      expect(r.repairs.map((x) => x.kind)).toEqual(["echoed-calls"]);
    }
    // Prose in brackets before a stray close is text; only the close is dropped.
    const prose = parseText(lfm2, '<|tool_call_start|>[get_weather(location="Oslo")]<|tool_call_end|>[see above]<|tool_call_end|>');
    expect(prose.text).toBe("[see above]");
    expect(prose.repairs.map((x) => x.kind)).toEqual(["stray-close-tag"]);
  });

  it("writes a result between <|tool_response_start|> and <|tool_response_end|>, in a tool turn", () => {
    expect(lfm2.renderToolResult({ role: "tool", toolCallId: "c", name: "get_weather", content: "sunny" })).toBe("<|tool_response_start|>sunny<|tool_response_end|>");
    expect(lfm2.toolResultRole).toBe("tool");
  });
});
