// The lab's lexer against @huggingface/jinja's own: the same tokens (value and type, in order) or
// the same error (class and message) for every template the project holds and for sources
// generated from the lexer's edge cases. A library update that changes its lexer fails here.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parse, Template, tokenize } from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../experiments/chunking.ts";
import * as hfTemplates from "../templates/hf-chat-templates.test-fixture.ts";
import { parseTemplate, tokenizeTemplate } from "./jinja-tokenize.ts";

type Lexed = { tokens: Array<[string, string]> } | { error: string };

function lexedBy(lex: (source: string) => ReadonlyArray<{ value: string; type: string }>, source: string): Lexed {
  try {
    return { tokens: lex(source).map((token) => [token.type, token.value]) };
  } catch (error) {
    return { error: error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error) };
  }
}

const libraryLexed = (source: string) => lexedBy((text) => tokenize(text, { lstrip_blocks: true, trim_blocks: true }), source);
const oursLexed = (source: string) => lexedBy(tokenizeTemplate, source);

/** Every .jinja file in the repository (vendor templates of llama.cpp, family fixtures, the warm-up's), read once. */
const REPOSITORY_TEMPLATES: Array<[string, string]> = execFileSync("git", ["ls-files", "*.jinja"], { encoding: "utf8" })
  .split("\n")
  .filter(Boolean)
  .map((path) => [path, readFileSync(path, "utf8")]);

/** The Hugging Face templates of the model list's families (test data). */
function fixtureTemplates(): Array<[string, string]> {
  return (Object.entries(hfTemplates) as Array<[string, unknown]>).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1].includes("{"));
}

/** Pieces that meet the lexer's every branch, and its edges when put side by side at random. */
const PIECES = [
  "{{", "{{-", "}}", "-}}", "{%", "{%-", "%}", "-%}", "{#", "{#-", "#}", "-#}", "{", "}", "(", ")", "[", "]",
  ",", ".", ":", "|", "<=", ">=", "==", "!=", "<", ">", "+", "-", "~", "**", "*", "//", "/", "%", "=",
  " ", "  ", "\t", "\n", "\n\n", "\r\n", "\u00a0", "x", "messages", "loop.index0", "_a1", "é", "1", "42", "3.14", "1.", ".5",
  "'", '"', "'text'", '"text"', "'a\\nb'", "'\\x41'", "'\\u00e9'", "'\\xZZ'", "'\\q'", "'\\", "'\\''", '"\\""', "\\",
  "{% generation %}", "{%- endgeneration -%}", "{%generation%}", "{%-generation %}", "{% endgeneration -%}", " \n {%- generation -%} \t", "{% if x %}", "{% endif %}", "{{ x }}", "-1", "+2.5", "- x", "#", "@", "$",
  "{% for a in b %}", "{% endfor %}", "text ", "  {%", "%}\n", "{{ {'a': 1} }}", "{{ {} }}", "{{ {'a': {'b': 2}} }}",
];

function generatedSource(random: () => number): string {
  const count = 1 + Math.floor(random() * 14);
  let source = "";
  for (let i = 0; i < count; i++) source += PIECES[Math.floor(random() * PIECES.length)]!;
  return source;
}

describe("the lab's Jinja lexer", () => {
  it.each(REPOSITORY_TEMPLATES)("gives @huggingface/jinja's tokens for %s", (_path, source) => {
    const library = libraryLexed(source);
    expect("tokens" in library, "every template the project holds lexes").toBe(true);
    expect(oursLexed(source)).toEqual(library);
  });

  it("gives @huggingface/jinja's tokens for the model list's Hugging Face templates", () => {
    const templates = fixtureTemplates();
    expect(templates.length).toBeGreaterThan(5);
    for (const [name, source] of templates) expect(oursLexed(source), name).toEqual(libraryLexed(source));
  });

  it("gives @huggingface/jinja's tokens or its error for 40,000 sources built from the lexer's edge cases", () => {
    // Seeded, so that a failure repeats.
    const random = seededRandom(20261130);
    let errors = 0;
    for (let i = 0; i < 40_000; i++) {
      const source = generatedSource(random);
      const library = libraryLexed(source);
      if ("error" in library) errors += 1;
      expect(oursLexed(source), JSON.stringify(source)).toEqual(library);
    }
    // Both outcomes are met many times: the comparison covers the errors as well as the tokens.
    expect(errors).toBeGreaterThan(4_000);
    expect(errors).toBeLessThan(36_000);
  });

  it("gives the library's errors word for word at the end of input and for bad escapes", () => {
    for (const source of ["{{ x", "{{ 'abc", "{{ 'a\\", "{{ '\\x4", "{{ '\\q' }}", "{# open", "{{ 12", "{{ x   ", "{{ @ }}"]) {
      const ours = oursLexed(source);
      expect(ours, source).toEqual(libraryLexed(source));
      expect("error" in ours, source).toBe(true);
    }
  });

  it("reads long whitespace around generation tags as the library does, in time linear in the source", () => {
    // The library's one regular expression for these tags is quadratic in a whitespace run (40,000 spaces: 1.9 s):
    // compared with it at a size it still lexes quickly, then lexed alone at a size it would take minutes on.
    const around = (spaces: number) => `{{ a }}${" ".repeat(spaces)}{%- generation %}${"\n".repeat(spaces)}x{% endgeneration -%}${" ".repeat(spaces)}{{ b }}`;
    expect(oursLexed(around(2_000))).toEqual(libraryLexed(around(2_000)));
    const tokens = tokenizeTemplate(around(1_000_000) + " ".repeat(1_000_000) + "end");
    expect(tokens.map((token) => token.type)).toEqual(["OpenExpression", "Identifier", "CloseExpression", "Text", "OpenExpression", "Identifier", "CloseExpression", "Text"]);
    // The first tag keeps the run after it (no `-` there) less the one newline trim_blocks takes; the second drops the spaces after it.
    expect(tokens[3]!.value).toBe(`${"\n".repeat(999_999)}x`);
    expect(tokens[7]!.value).toBe(`${" ".repeat(1_000_000)}end`);
  });

  it("parses to the tree the library's Template parses to", () => {
    for (const [path, source] of REPOSITORY_TEMPLATES) expect(JSON.stringify(parseTemplate(source).parsed), path).toEqual(JSON.stringify(new Template(source).parsed));
    expect(() => parseTemplate("{% if %}")).toThrow();
    expect(() => parse(tokenize("{% if %}"))).toThrow();
  });
});
