import { describe, expect, it } from "vitest";
import { parseChunks } from "../../parser/collect.ts";
import { charChunks, foldOf, parseText, testTools } from "../../parser/test-fixtures.ts";
import { xlamProtocol as xlam } from "./protocol.ts";

describe("xlam", () => {
  it("uses xLAM's format instruction and writes a turn's calls as one JSON array", () => {
    expect(xlam.systemPrompt(testTools)).toContain("When using tools, make calls in a single JSON array");
    const rendered = xlam.renderAssistant({ role: "assistant", content: "", toolCalls: [{ id: "c", name: "get_weather", arguments: { location: "Oslo" } }] });
    expect(rendered).toBe('[{"name": "get_weather", "arguments": {"location": "Oslo"}}]');
  });

  it("reads the array after prose, in a fence, in <tool_call> tags or after [TOOL_CALLS], in any chunking", () => {
    const call = '[{"name": "get_weather", "arguments": {"location": "Oslo"}}]';
    for (const raw of [`Sure.\n${call}`, `Sure.\n\`\`\`json\n${call}\n\`\`\``, `Sure.<tool_call>${call}</tool_call>`, `Sure.[TOOL_CALLS]${call}`]) {
      const r = parseText(xlam, raw);
      expect(r.calls.map((c) => c.arguments), raw).toEqual([{ location: "Oslo" }]);
      expect(r.text.trim(), raw).toBe("Sure.");
      expect(foldOf(xlam, charChunks(raw)), raw).toEqual(foldOf(xlam, [raw]));
    }
  });

  it("leaves JSON that is not a call, and brackets in prose, as text", () => {
    const raw = 'The data is [{"city": "Oslo"}] (see [1]).';
    expect(parseText(xlam, raw)).toMatchObject({ text: raw, calls: [], errors: [] });
  });
});

describe("xlam: a call in text announced early and then not a call", () => {
  // Found by scanner.property.test.ts: a `{"name": …` after a fence line streamed as a call
  // (tool-call-start), then its broken quotes made it text. The call is taken back and its id
  // given back, so the next call is numbered as in the one-piece output.
  const raw =
    '```<tool_call>\n{"name": "get_weather", "arguments": {"location": "an "odd quote"}}\n</tool_call>' +
    '<tool_call>{"name": "get_weather", "parameters": {"location": "}}", "days": "3",}}</tool_call>' +
    "<tool_call>\n<tool_name>tag_items</tool_name>\n<tags><item>a</item><item>b</item></tags>\n</tool_call>";

  it("takes the announced call back with a not-a-call repair and numbers what follows as one-shot does", () => {
    const streamed = parseChunks(xlam, testTools, charChunks(raw));
    const start = streamed.find((e) => e.type === "tool-call-start");
    expect(start).toMatchObject({ id: "call_1", name: "get_weather" });
    expect(streamed.filter((e) => e.type === "repair" && e.kind === "not-a-call").map((e) => e.type === "repair" && e.id)).toEqual(["call_1"]);
    expect(foldOf(xlam, charChunks(raw))).toEqual(foldOf(xlam, [raw]));
    expect(foldOf(xlam, [raw]).errors.map((e) => e.id)).toEqual(["call_1"]);
  });
});
