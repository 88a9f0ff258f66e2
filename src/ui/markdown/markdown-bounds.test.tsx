// Model output chooses the Markdown, so the renderer must survive any of it: no input throws
// (deep nesting used to overflow the stack), and the work grows linearly with the input (long
// runs of markers used to cost quadratic time, re-paid on every streamed update). Work is
// counted by the parser's own meter, never timed.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./Markdown.tsx";
import { MAX_BLOCK_DEPTH, parseMarkdown, type Block, type Inline, type WorkMeter } from "./parse-markdown.ts";
import { MAX_INLINE_DEPTH } from "./parse-inline.ts";

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

function workFor(text: string): number {
  const meter: WorkMeter = { steps: 0 };
  parseMarkdown(text, meter);
  return meter.steps;
}

function depthOf(nodes: readonly (Block | Inline)[]): number {
  let deepest = 0;
  for (const node of nodes) {
    const children: (Block | Inline)[] =
      "children" in node ? node.children : node.type === "list" ? node.items.flat() : [];
    deepest = Math.max(deepest, 1 + depthOf(children));
  }
  return deepest;
}

// Each pattern repeated n times (prefix + pattern × n + suffix): shapes that nest or leave
// markers unmatched — the inputs that broke the old renderer, and their relatives.
const patterns: [name: string, make: (n: number) => string][] = [
  ["deep quote", (n) => ">".repeat(n) + " deep"],
  ["deep list", (n) => "- ".repeat(n) + "x"],
  ["dash rule", (n) => "- ".repeat(n)],
  ["ordered in ordered", (n) => "1. ".repeat(n) + "x"],
  ["quote in list", (n) => "- > ".repeat(n) + "x"],
  ["indented lists", (n) => Array.from({ length: Math.min(n, 2000) }, (_, i) => " ".repeat(2 * (i % 50)) + "- item").join("\n")],
  ["lone stars", (n) => "a " + "* ".repeat(n)],
  ["star runs", (n) => "**a ".repeat(n)],
  ["nested emphasis", (n) => "*a ".repeat(n) + "b" + " c*".repeat(n)],
  ["nested strong", (n) => "**a ".repeat(n) + "b" + " c**".repeat(n)],
  ["underscores", (n) => "_a ".repeat(n) + "_".repeat(n)],
  ["open brackets", (n) => "[".repeat(n) + "a"],
  ["nested links", (n) => "[".repeat(n) + "a" + "](https://x.y)".repeat(n)],
  ["links without close", (n) => "[a](".repeat(n)],
  ["bracket pairs", (n) => "[a]".repeat(n) + "(https://x.y"],
  ["backticks", (n) => "`a``".repeat(n)],
  ["backtick runs", (n) => Array.from({ length: n }, (_, i) => "`".repeat(1 + (i % 40))).join(" ")],
  ["escapes", (n) => "\\*\\_\\[".repeat(n)],
  ["bare urls", (n) => "http://x.".repeat(n)],
  ["headings", (n) => "# a" + " #".repeat(n) + " b"],
  ["heading spaces", (n) => "# a" + " ".repeat(n) + "b"],
  ["fence openers", (n) => "```" + " a".repeat(n) + "!"],
  ["many lines", (n) => "> - *a* [b](https://c.d) `e`\n".repeat(Math.ceil(n / 10))],
];

describe("Markdown rendering of hostile input", () => {
  it("reads a quote nested 4,000 deep and a list nested 4,000 deep without overflowing the stack", () => {
    const quote = html(">".repeat(4000) + " deep");
    expect(quote).toContain("deep");
    expect(html("- ".repeat(4000) + "deep")).toContain("deep");
    expect(() => html("- ".repeat(4000))).not.toThrow();
  });

  it("shows nesting beyond the cap as the text it was written as, losing nothing", () => {
    const blocks = parseMarkdown(">".repeat(100) + " deep");
    expect(depthOf(blocks)).toBeLessThanOrEqual(MAX_BLOCK_DEPTH + 3);
    const out = html(">".repeat(100) + " deep");
    expect(out.match(/<blockquote>/g)).toHaveLength(MAX_BLOCK_DEPTH);
    expect(out).toContain("&gt;".repeat(100 - MAX_BLOCK_DEPTH - 1) + " deep");

    const emphasis = "*a ".repeat(50) + "b" + " c*".repeat(50);
    const inline = parseMarkdown(emphasis);
    expect(depthOf(inline)).toBeLessThanOrEqual(MAX_INLINE_DEPTH + 2);
    const out2 = html(emphasis);
    expect(out2.match(/<em>/g)).toHaveLength(MAX_INLINE_DEPTH - 1);
    const shownAsWritten = 50 - (MAX_INLINE_DEPTH - 1);
    expect(out2).toContain("a " + "*a ".repeat(shownAsWritten) + "b" + " c*".repeat(shownAsWritten) + " c");
  });

  it("never throws, and keeps the nesting bounded, for every pattern repeated up to 100,000 times", () => {
    for (const [name, make] of patterns) {
      for (const n of [1, 7, 100, 3_000, 100_000]) {
        const text = make(n);
        let blocks: Block[] = [];
        expect(() => (blocks = parseMarkdown(text)), `${name} × ${n}`).not.toThrow();
        expect(depthOf(blocks), `${name} × ${n}`).toBeLessThanOrEqual(MAX_BLOCK_DEPTH + MAX_INLINE_DEPTH + 4);
      }
      expect(() => html(make(3_000)), name).not.toThrow();
    }
  });

  it("does work linear in the input: doubling the input at most doubles the work (plus slack), and the work per character is bounded", () => {
    for (const [name, make] of patterns) {
      const small = make(25_000);
      const large = make(50_000);
      const smallWork = workFor(small);
      const largeWork = workFor(large);
      expect(largeWork / smallWork, name).toBeLessThan(2.3 * (large.length / small.length) / 2);
      expect(largeWork / large.length, name).toBeLessThan(40);
    }
  });

  it("never throws on random mixes of Markdown's markers", () => {
    const pieces = [">", " ", "- ", "* ", "*", "**", "_", "__", "[", "]", "(", ")", "](https://a.b)", "`", "``", "\\", "\n", "\n\n", "a", "#", "1. ", "http://x.y", "```", "  ", "\t", "!", "\u202e"];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let round = 0; round < 300; round++) {
      const length = Math.floor(random() * 400);
      let text = "";
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)]!;
      expect(() => html(text), JSON.stringify(text)).not.toThrow();
    }
  });
});
