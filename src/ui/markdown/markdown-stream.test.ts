// Streamed Markdown is parsed again on every update: a long paragraph is read in parts of
// PARAGRAPH_PART_LINES lines, each top-level block knows its source (so the renderer skips the
// unchanged ones), and a part read by the previous parse is not read again. Work is counted by
// the parser's own meter, never timed.
import { describe, expect, it } from "vitest";
import { LIST_PART_ITEMS, PARAGRAPH_PART_CHARS, PARAGRAPH_PART_LINES, parseMarkdown, parseMarkdownSourced, type PartCache, type WorkMeter } from "./parse-markdown.ts";

const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `row ${from + i} _x_`).join("\n");

describe("streamed Markdown", () => {
  it("reads a paragraph of many lines in parts, each with its source, keeping every line's emphasis", () => {
    const [block] = parseMarkdown(rows(0, 250));
    expect(block?.type).toBe("paragraph");
    const parts = block?.type === "paragraph" ? (block.parts ?? []) : [];
    expect(parts.map((p) => p.source.split("\n").length)).toEqual([PARAGRAPH_PART_LINES, PARAGRAPH_PART_LINES, 50]);
    expect(parts[1]?.source.startsWith("row 100 _x_\nrow 101")).toBe(true);
    expect(parts.flatMap((p) => p.children).filter((n) => n.type === "em")).toHaveLength(250);
    // A short paragraph is one run of inline nodes, as before.
    expect(parseMarkdown(rows(0, 3))).toEqual([{ type: "paragraph", children: expect.any(Array) }]);
  });

  it("parts a paragraph of one line longer than PARAGRAPH_PART_CHARS, losing no character and splitting no surrogate pair", () => {
    // 250,000 digits with no line end (an imported step's reply), an emoji placed across the first cut.
    const line = "7".repeat(PARAGRAPH_PART_CHARS - 1) + "😀" + "0123456789".repeat(25_000);
    const [block] = parseMarkdown(line);
    const parts = block?.type === "paragraph" ? (block.parts ?? []) : [];
    // The first cut moves back one character, before the pair; the rest are full parts.
    expect(parts[0]?.source.length).toBe(PARAGRAPH_PART_CHARS - 1);
    expect(parts.length).toBe(1 + Math.ceil((line.length - (PARAGRAPH_PART_CHARS - 1)) / PARAGRAPH_PART_CHARS));
    expect(parts.every((p) => p.source.length <= PARAGRAPH_PART_CHARS)).toBe(true);
    expect(parts.map((p) => p.source).join("")).toBe(line);
    expect(parts[1]?.source.startsWith("😀")).toBe(true);
    // Short lines before a long one stay a part of their own, in order.
    const mixed = parseMarkdown(`a _b_\nc\n${"x".repeat(PARAGRAPH_PART_CHARS + 5)}`)[0];
    const mixedParts = mixed?.type === "paragraph" ? (mixed.parts ?? []) : [];
    expect(mixedParts.map((p) => p.source.length)).toEqual([7, PARAGRAPH_PART_CHARS, 5]);
    expect(mixedParts[0]?.children.some((n) => n.type === "em")).toBe(true);
  });

  it("reads a long list as lists of LIST_PART_ITEMS items, numbering carried on, each with its own source", () => {
    const list = Array.from({ length: 250 }, (_, i) => `${i + 1}. item _${i + 1}_`).join("\n");
    const sourced = parseMarkdownSourced(`Intro\n\n${list}`);
    expect(sourced.map((s) => s.block.type)).toEqual(["paragraph", "list", "list", "list"]);
    expect(sourced.slice(1).map((s) => (s.block.type === "list" ? [s.block.start, s.block.items.length, s.lines] : null))).toEqual([
      [1, LIST_PART_ITEMS, 100],
      [101, LIST_PART_ITEMS, 100],
      [201, 50, 50],
    ]);
    expect(sourced[2]?.source.startsWith("101. item _101_\n102.")).toBe(true);
  });

  it("gives each top-level block the lines it was read from", () => {
    const sourced = parseMarkdownSourced("# Title\n\nfirst\nsecond\n\n```js\nx\n```\n- a\n- b\n> q");
    expect(sourced.map((s) => [s.block.type, s.source])).toEqual([
      ["heading", "# Title"],
      ["paragraph", "first\nsecond"],
      ["code", "```js\nx\n```"],
      ["list", "- a\n- b"],
      ["quote", "> q"],
    ]);
  });

  it("does not read again the parts an earlier parse of the same growing text read", () => {
    const cache: PartCache = new Map();
    const first = rows(0, 25_000);
    const whole = `${first}\n${rows(25_000, 50_000)}`;
    parseMarkdownSourced(first, undefined, cache);
    const again: WorkMeter = { steps: 0 };
    const fresh: WorkMeter = { steps: 0 };
    const withCache = parseMarkdownSourced(whole, again, cache);
    const withoutCache = parseMarkdownSourced(whole, fresh);
    expect(withCache).toEqual(withoutCache);
    // The first half's inline reading (3 steps a character and more) is skipped; only the line scan remains for it.
    expect(again.steps).toBeLessThan(fresh.steps * 0.7);
    // The cache keeps only the latest parse's parts.
    expect(cache.size).toBe(50_000 / PARAGRAPH_PART_LINES);
  });
});
