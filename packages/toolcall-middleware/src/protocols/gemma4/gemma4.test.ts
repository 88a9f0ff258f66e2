import { describe, expect, it } from "vitest";
import { charChunks, parseText, testTools } from "../../parser/test-fixtures.ts";
import { getProtocol } from "../registry.ts";
import { gemmaArguments, gemmaDeclaration } from "./gemma-calls.ts";

// Through the registry: the write-back protects every registered protocol's markers.
const gemma4 = getProtocol("gemma4")!;
const QUOTE = '<|"|>';

describe("gemma4", () => {
  it("reads a string whose opening delimiter is missing, and says so (issue #28, after SGLang)", () => {
    const r = parseText(gemma4, `<|tool_call>call:get_weather{location:Paris${QUOTE}}<tool_call|>`);
    expect(r.calls[0]!.arguments).toEqual({ location: "Paris" });
    expect(r.repairs.map((x) => x.kind)).toEqual(["missing-string-delimiter"]);
  });

  it("ends a call at the first <tool_call|> outside a string, in any chunking (issue #28, after vLLM and SGLang)", () => {
    const raw = `<|tool_call>call:get_weather{location:${QUOTE}a <tool_call|> b${QUOTE}}<tool_call|>After.`;
    for (const chunks of [[raw], charChunks(raw)]) {
      const r = parseText(gemma4, chunks);
      expect(r.calls[0]!.arguments).toEqual({ location: "a <tool_call|> b" });
      expect(r.text).toBe("After.");
    }
  });

  it("declares each tool as the chat template's format_function_declaration does", () => {
    expect(gemmaDeclaration(testTools[0]!, QUOTE)).toBe(
      'declaration:get_weather{description:<|"|>Get the current weather in a given location<|"|>,parameters:{properties:{days:{type:<|"|>INTEGER<|"|>},detailed:{type:<|"|>BOOLEAN<|"|>},location:{type:<|"|>STRING<|"|>},unit:{enum:[<|"|>celsius<|"|>,<|"|>fahrenheit<|"|>],type:<|"|>STRING<|"|>}},required:[<|"|>location<|"|>],type:<|"|>OBJECT<|"|>}}',
    );
    expect(gemma4.systemPrompt(testTools)).toMatch(/^<\|tool>declaration:get_weather\{.*<tool\|><\|tool>declaration:tag_items\{.*<tool\|>$/);
  });

  it("writes arguments as the template does: keys sorted, strings delimited, other values bare", () => {
    expect(gemmaArguments({ location: "Paris", days: 3, detailed: false, tags: ["a", 1], o: { k: null } }, QUOTE)).toBe('{days:3,detailed:false,location:<|"|>Paris<|"|>,o:{k:null},tags:[<|"|>a<|"|>,1]}');
  });

  it("never lets its string delimiter into a value, and reads back a value that holds it", () => {
    const value = 'say <|"|> and }<tool_call|> then &lt; too';
    const rendered = gemma4.renderAssistant({ role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "get_weather", arguments: { location: value } }] });
    expect(rendered.split(QUOTE)).toHaveLength(3);
    for (const chunks of [[rendered], charChunks(rendered)]) expect(parseText(gemma4, chunks).calls[0]!.arguments).toEqual({ location: value });
  });

  it("coerces bare values to the tool's schema", () => {
    const r = parseText(gemma4, '<|tool_call>call:get_weather{location:10115,days:<|"|>3<|"|>,detailed:true}<tool_call|>');
    expect(r.calls[0]!.arguments).toEqual({ location: "10115", days: 3, detailed: true });
  });

  it("reads thinking between <|channel>thought and <channel|> as reasoning", () => {
    const r = parseText(gemma4, '<|channel>thought\nOslo it is.<channel|>Sure. <|tool_call>call:get_weather{location:<|"|>Oslo<|"|>}<tool_call|>');
    expect(r.reasoning).toBe("\nOslo it is.");
    expect(r.text.trim()).toBe("Sure.");
    expect(r.calls).toHaveLength(1);
  });

  it("writes a result as response:NAME{value:…}, its delimiter escaped", () => {
    expect(gemma4.renderToolResult({ role: "tool", toolCallId: "c", name: "get_weather", content: 'sunny <|"|>' })).toBe('<|tool_response>response:get_weather{value:<|"|>sunny &lt;|"|><|"|>}<tool_response|>');
  });
});
