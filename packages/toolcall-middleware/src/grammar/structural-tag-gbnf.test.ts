import { describe, expect, it } from "vitest";
import { listProtocols } from "../protocols/registry.ts";
import type { JsonSchema, StructuralTag, ToolSpec } from "../types.ts";
import { addEbnf } from "./ebnf-to-gbnf.ts";
import { GbnfBuilder, gbnfLiteral } from "./gbnf-builder.ts";
import { JsonSchemaGbnf } from "./json-schema-gbnf.ts";
import { GrammarConversionError, structuralTagToGbnf } from "./structural-tag-gbnf.ts";
import { GbnfMatcher } from "./testing/gbnf-matcher.ts";
import { addTextWithout } from "./text-without.ts";

const tools: ToolSpec[] = [
  { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] }, days: { type: "integer" } }, required: ["city"] } },
  { name: "add", description: "Adds.", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
];

function matcherFor(build: (builder: GbnfBuilder) => string): GbnfMatcher {
  const builder = new GbnfBuilder();
  return new GbnfMatcher(builder.toString(build(builder)));
}

describe("JSON schema to GBNF", () => {
  const schemaMatcher = (schema: object) => matcherFor((builder) => new JsonSchemaGbnf(builder, schema as JsonSchema).rule(schema as JsonSchema, "value"));

  it("an object: required properties always, optional ones in order, nothing else", () => {
    const m = schemaMatcher(tools[0]!.parameters);
    expect(m.accepts('{"city": "Paris"}')).toBe(true);
    expect(m.accepts('{"city":"Paris","unit":"celsius","days":3}')).toBe(true);
    expect(m.accepts('{\n  "city": "Paris",\n  "days": -2\n}')).toBe(true);
    expect(m.accepts('{"unit": "celsius"}')).toBe(false); // city missing
    expect(m.accepts('{"city": "Paris", "unit": "kelvin"}')).toBe(false);
    expect(m.accepts('{"city": "Paris", "days": 1.5}')).toBe(false);
    expect(m.accepts('{"city": "Paris", "country": "FR"}')).toBe(false);
    expect(m.accepts('{"city": Paris}')).toBe(false);
  });

  it("an object of optional properties only: any subset in order, or none", () => {
    const m = schemaMatcher({ type: "object", properties: { a: { type: "boolean" }, b: { type: "null" }, c: { type: "string" } } });
    for (const ok of ["{}", '{"a": true}', '{"b": null}', '{"c": "x"}', '{"a": false, "c": "x"}', '{"a": true, "b": null, "c": ""}']) expect(m.accepts(ok), ok).toBe(true);
    for (const bad of ['{"c": "x", "a": true}', '{, "a": true}', '{"a": true,}']) expect(m.accepts(bad), bad).toBe(false);
  });

  it("strings escape as JSON does; numbers, arrays with bounds, anyOf, type lists, const and $ref", () => {
    const string = schemaMatcher({ type: "string" });
    expect(string.accepts('"a \\"quoted\\" \\u00e9 \\n"')).toBe(true);
    expect(string.accepts('"raw \n newline"')).toBe(false);
    const list = schemaMatcher({ type: "array", items: { type: "integer" }, minItems: 1, maxItems: 2 });
    expect([list.accepts("[1]"), list.accepts("[1, 2]"), list.accepts("[]"), list.accepts("[1,2,3]")]).toEqual([true, true, false, false]);
    const either = schemaMatcher({ anyOf: [{ type: "number" }, { type: "string", maxLength: 2 }] });
    expect([either.accepts("-1.5e3"), either.accepts('"ab"'), either.accepts('"abc"')]).toEqual([true, true, false]);
    expect(schemaMatcher({ type: ["string", "null"] }).accepts("null")).toBe(true);
    expect(schemaMatcher({ const: { k: [1] } }).accepts('{"k":[1]}')).toBe(true);
    const tree = { type: "object", properties: { child: { $ref: "#/$defs/node" } }, $defs: { node: { type: "object", properties: { child: { $ref: "#/$defs/node" } } } } };
    expect(schemaMatcher(tree).accepts('{"child": {"child": {}}}')).toBe(true);
    expect(() => schemaMatcher({ $ref: "#/$defs/missing" })).toThrow(/does not define/);
  });
});

describe("text without triggers", () => {
  const m = matcherFor((builder) => addTextWithout(builder, ["<tool_call>", '{"name": "'], "free"));
  it("allows any text that does not contain a trigger, partial triggers included", () => {
    for (const ok of ["", "hello", "<tool_cal", "<<tool_callx>", '{"name": x', "a < b > c", "<tool_call", "{{{\"name\": "]) expect(m.accepts(ok), ok).toBe(true);
  });
  it("refuses a trigger anywhere, also after a false start", () => {
    for (const bad of ["<tool_call>", "x<tool_call>y", "<<tool_call>", "<tool_<tool_call>", '{"name": "x', 'a{{"name": "']) expect(m.accepts(bad), bad).toBe(false);
  });
});

describe("XGrammar EBNF to GBNF", () => {
  it("renames rules (no underscores in llama.cpp) and keeps literals and classes as they are", () => {
    const builder = new GbnfBuilder();
    const root = addEbnf(builder, 'root ::= "<a_b>" arg_text "</a_b>"\narg_text ::= [^<_]*', "t0");
    const text = builder.toString(root);
    expect(text).not.toMatch(/^arg_text|[a-z]_[a-z]+ ::=/m);
    expect(text).toContain('"<a_b>"');
    const m = new GbnfMatcher(text);
    expect([m.accepts("<a_b>x y</a_b>"), m.accepts("<a_b>x_y</a_b>")]).toEqual([true, false]);
  });
  it("refuses a grammar using a rule it does not define", () => {
    expect(() => addEbnf(new GbnfBuilder(), "root ::= missing", "t")).toThrow(/"missing" but does not define/);
  });
});

describe("structural tags to GBNF", () => {
  it("literals escape quotes, backslashes and control characters", () => {
    expect(gbnfLiteral('a"b\\c\nd\u0001')).toBe('"a\\"b\\\\c\\nd\\x01"');
  });

  it("refuses a regex format with a clear error", () => {
    const tag: StructuralTag = { type: "structural_tag", format: { type: "regex", pattern: "[a-z]+" } };
    expect(() => structuralTagToGbnf(tag)).toThrow(GrammarConversionError);
  });

  it("a required call (at_least_one) opens the output, as in XGrammar; stop_after_first ends the output after it", () => {
    const tag = listProtocols().find((p) => p.name === "hermes")!.structuralTag!(tools, "required");
    const m = new GbnfMatcher(structuralTagToGbnf(tag).grammar);
    const call = '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n</tool_call>';
    expect([m.accepts("just text"), m.accepts(call), m.accepts(`${call} done`), m.accepts(`Sure. ${call}`)]).toEqual([false, true, true, false]);
    expect(structuralTagToGbnf(tag).lazy).toBeNull();
    const once = { ...tag, format: { ...tag.format, stop_after_first: true } } as StructuralTag;
    const first = new GbnfMatcher(structuralTagToGbnf(once).grammar);
    expect([first.accepts(call), first.accepts(`${call} more`)]).toEqual([true, false]);
  });

  it("a named tool choice allows only that tool", () => {
    const tag = listProtocols().find((p) => p.name === "hermes")!.structuralTag!(tools, { name: "add" });
    const m = new GbnfMatcher(structuralTagToGbnf(tag).grammar);
    expect(m.accepts('<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n</tool_call>')).toBe(true);
    expect(m.accepts('<tool_call>\n{"name": "get_weather", "arguments": {"city": "x"}}\n</tool_call>')).toBe(false);
  });

  const calls = [
    { id: "c1", name: "get_weather", arguments: { city: "Paris", unit: "celsius" } },
    { id: "c2", name: "add", arguments: { a: 1, b: 2.5 } },
  ];
  it.each(listProtocols().map((protocol) => [protocol.name, protocol] as const))("%s: free text, and the lab's own writing of each call, are accepted; an unknown tool is not", (_name, protocol) => {
    const grammars = structuralTagToGbnf(protocol.structuralTag!(tools, "auto"));
    const plain = new GbnfMatcher(grammars.grammar);
    const lazy = new GbnfMatcher(grammars.lazy!.grammar);
    expect(plain.accepts("I will check that for you.")).toBe(true);
    for (const call of calls) {
      const written = protocol.renderAssistant({ role: "assistant", content: "", toolCalls: [call] });
      expect(plain.accepts(written), written).toBe(true);
      expect(plain.accepts(`Let me look.\n${written}`), written).toBe(true);
      const start = Math.min(...grammars.lazy!.triggers.map((trigger) => written.indexOf(trigger)).filter((at) => at >= 0));
      expect(lazy.accepts(written.slice(start)), written).toBe(true);
      const unknown = protocol.renderAssistant({ role: "assistant", content: "", toolCalls: [{ ...call, name: "delete_everything" }] });
      expect(plain.accepts(unknown), unknown).toBe(false);
    }
  });
});
