// The Jinja2 behaviours our bounded renderer supplies on top of @huggingface/jinja: each expected
// text below is what Python's Jinja2 3.1.6 (SandboxedEnvironment, trim_blocks and lstrip_blocks
// as transformers sets them) rendered for the same template and values.
import { Template } from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { boundedTemplateRenderer } from "../templates/derived-from-template.ts";
import { renderWithinBudget, TEMPLATE_RENDER_BUDGET } from "./jinja-budget.ts";

const GENEROUS = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };
const render = (source: string, items: Record<string, unknown> = {}) => renderWithinBudget(new Template(source), items, GENEROUS, "t");

describe("Jinja2 behaviours @huggingface/jinja lacks, as Jinja2 renders them", () => {
  it("writes a dict or a list through `string` as Python's str() does", () => {
    const tool = { type: "function", function: { name: "f", ok: true, n: null, x: [1, 2.5, "it's"], q: 'say "hi"' } };
    expect(render("{{ tool | string }}", { tool })).toBe(`{'type': 'function', 'function': {'name': 'f', 'ok': True, 'n': None, 'x': [1, 2.5, "it's"], 'q': 'say "hi"'}}`);
    expect(render("{{ [1, 'x', true, none] | string }}")).toBe("[1, 'x', True, None]");
    expect(render("{% set v = {'f': 1.5, 'g': 1.0, 'h': 0.00001} %}{{ v | string }}")).toBe("{'f': 1.5, 'g': 1.0, 'h': 1e-05}");
  });

  it("has min and max of a list (strings compared without case), undefined for an empty one", () => {
    expect(render("{{ [3, 1, 2] | min }}-{{ [3, 1, 2] | max }}-{{ ['b', 'A', 'c'] | min }}-{{ [] | min }}")).toBe("1-3-A-");
  });

  it("unpacks tuples in a for loop", () => {
    expect(render("{% for a, b in [('x', 'y'), ('z', 'w')] %}{{ a }}{{ b }};{% endfor %}")).toBe("xy;zw;");
  });

  it("treats undefined as Jinja2 does: an empty iterable, length 0, text '', a key that finds nothing", () => {
    expect(render("{% for x in m.missing %}{{ x }}{% else %}none{% endfor %}", { m: {} })).toBe("none");
    // (Written through `if`: the library writes a boolean as true/false where Jinja2 writes True/False; see jinja-python-compat.ts.)
    const yes = (test: string) => `{{ 'y' if ${test} else 'n' }}`;
    expect(render(["m.missing is iterable", "{'a': 1} is iterable", "('a', 'b') is iterable", "1 is iterable"].map(yes).join(""), { m: {} })).toBe("yyyn");
    expect(render("{{ missing | length }}[{{ missing | string }}]")).toBe("0[]");
    expect(render(`${yes("m[m.missing] is defined")}-${yes("m[1] is defined")}`, { m: { a: 1 } })).toBe("n-n");
  });

  it("formats with str.format's plain fields, and refuses the fields it does not implement", () => {
    expect(render("{{ '<a{}b{}>'.format('X', 2) }}{{ '{0}{0}{{}}'.format('y') }}{{ '{k}'.format(k='v') }}")).toBe("<aXb2>yy{}v");
    expect(() => render("{{ '{:>5}'.format('x') }}")).toThrow(/not supported/);
    expect(() => render("{{ '{}{}'.format('x') }}")).toThrow(/out of range/);
  });

  it("appends to and pops from a list", () => {
    expect(render("{% set l = [] %}{% set _ = l.append(1) %}{% set _ = l.append('b') %}{{ l.pop(0) }}{{ l | length }}")).toBe("11");
  });

  it("refuses text + dict or list as Python's TypeError (the library wrote '[object Map]')", () => {
    expect(() => render(`{{ "a" + {"b": 1} }}`)).toThrow('can only concatenate str (not "dict") to str');
    expect(() => render(`{{ "a" + [1] }}`)).toThrow('can only concatenate str (not "list") to str');
  });

  it("keeps every step within the render's bounds", () => {
    const appending = "{% set l = [] %}{% for i in range(90000) %}{% for j in range(90000) %}{% set _ = l.append(j) %}{% endfor %}{% endfor %}";
    expect(() => renderWithinBudget(new Template(appending), {}, { ...TEMPLATE_RENDER_BUDGET, milliseconds: 50 }, "t")).toThrow(/time budget of 50 ms/);
    const unpacking = "{% for i in range(90000) %}{% for a, b in [(1, 2), (3, 4)] %}{% endfor %}{% endfor %}";
    expect(() => renderWithinBudget(new Template(unpacking), {}, { ...TEMPLATE_RENDER_BUDGET, milliseconds: 50 }, "t")).toThrow(/time budget of 50 ms/);
  });
});

describe("a call's arguments as the template takes them", () => {
  const call = (args: unknown) => ({ role: "assistant", content: "", tool_calls: [{ id: "call00000", type: "function", function: { name: "f", arguments: args } }] });

  it("gives an object (transformers' form) to a template that takes one", () => {
    const renderer = boundedTemplateRenderer("{% for m in messages %}{% for c in m.tool_calls %}{{ c.function.arguments | tojson }}{% endfor %}{% endfor %}", "t", GENEROUS);
    expect(renderer({ messages: [call({ a: 1 })] })).toBe('{"a": 1}');
  });

  it("gives JSON text (OpenAI's form) to a template that can only write text, as functionary v3.2 does", () => {
    const renderer = boundedTemplateRenderer("{% for m in messages %}{% for c in m.tool_calls %}{{ '>>>' + c.function.name + '\\n' + c.function.arguments }}{% endfor %}{% endfor %}", "t", GENEROUS);
    expect(renderer({ messages: [call({ a: 1, b: "x" })] })).toBe('>>>f\n{"a":1,"b":"x"}');
    // Settled for the template: later renders get text at once.
    expect(renderer({ messages: [call({ c: true })] })).toBe('>>>f\n{"c":true}');
  });

  it("still throws a template's own error when neither form renders", () => {
    const renderer = boundedTemplateRenderer("{% for m in messages %}{% for c in m.tool_calls %}{{ raise_exception('no calls here') }}{% endfor %}{% endfor %}", "t", GENEROUS);
    expect(() => renderer({ messages: [call({ a: 1 })] })).toThrow("no calls here");
  });
});
