import { describe, expect, it } from "vitest";
import { readPythonicCalls } from "../../parser/pythonic-calls.ts";
import { parseText } from "../../parser/test-fixtures.ts";
import { pythonicProtocol as py, pythonLiteral } from "./protocol.ts";

describe("pythonic", () => {
  it("reads Python literals: both quotes, True/False/None, lists and dicts", () => {
    const r = parseText(py, "[tag_items(tags=['a', \"b\"], options={'deep': True, 'limit': 3}), get_weather(location='X', detailed=False)]");
    expect(r.errors).toEqual([]);
    expect(r.calls.map((c) => c.arguments)).toEqual([{ tags: ["a", "b"], options: { deep: true, limit: 3 } }, { location: "X", detailed: false }]);
    const none = readPythonicCalls("[f(a=None, b=-1.5e3, c=(1, 2))]");
    expect(none.ok && none.outcomes[0]).toMatchObject({ ok: true, call: { name: "f", arguments: { a: null, b: -1500, c: [1, 2] } } });
  });

  it("reports a bare list that is not a call list as a malformed call, keeping the text", () => {
    const r = parseText(py, "[get_weather(location=somewhere)]");
    expect(r.calls).toEqual([]);
    expect(r.errors.map((e) => e.kind)).toEqual(["invalid-call"]);
    expect(r.text).toBe("[get_weather(location=somewhere)]");
  });

  it("writes literals that read back exactly, a marker's < escaped", () => {
    const value = "it's \"quoted\"\n\\ <|python_end|> </x> a<b";
    expect(pythonLiteral(value)).not.toContain("<|");
    const rendered = py.renderAssistant({ role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "get_weather", arguments: { location: value } }] });
    expect(parseText(py, rendered).calls[0]!.arguments).toEqual({ location: value });
  });
});
