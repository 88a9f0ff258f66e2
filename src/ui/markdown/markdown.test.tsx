import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./Markdown.tsx";
import { isSafeHref, parseInline, parseMarkdown } from "./parse-markdown.ts";

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("parseMarkdown", () => {
  it("reads paragraphs, headings, fenced code, lists, quotes and rules", () => {
    const blocks = parseMarkdown("# Title\n\nfirst line\nsecond\n\n```js\nlet a = 1;\n```\n\n- one\n- two\n\n3. three\n4. four\n\n> quoted\n\n---");
    expect(blocks.map((b) => b.type)).toEqual(["heading", "paragraph", "code", "list", "list", "quote", "rule"]);
    expect(blocks[2]).toEqual({ type: "code", lang: "js", text: "let a = 1;" });
    expect(blocks[4]).toMatchObject({ type: "list", ordered: true, start: 3 });
  });

  it("keeps a fence that is still streaming as code", () => {
    expect(parseMarkdown("look:\n```py\nprint(1)")).toEqual([
      { type: "paragraph", children: [{ type: "text", text: "look:" }] },
      { type: "code", lang: "py", text: "print(1)" },
    ]);
  });

  it("reads inline code, bold, italic and escapes", () => {
    expect(parseInline("a `x*y` **b** *c* _d_ \\*e\\*")).toEqual([
      { type: "text", text: "a " },
      { type: "code", text: "x*y" },
      { type: "text", text: " " },
      { type: "strong", children: [{ type: "text", text: "b" }] },
      { type: "text", text: " " },
      { type: "em", children: [{ type: "text", text: "c" }] },
      { type: "text", text: " " },
      { type: "em", children: [{ type: "text", text: "d" }] },
      { type: "text", text: " *e*" },
    ]);
  });

  it("leaves snake_case words and lone markers alone", () => {
    expect(parseInline("use get_current_time or 2 * 3")).toEqual([{ type: "text", text: "use get_current_time or 2 * 3" }]);
  });

  it("makes only http(s) links clickable", () => {
    expect(isSafeHref("https://example.com/a?b=1")).toBe(true);
    expect(isSafeHref("javascript:alert(1)")).toBe(false);
    expect(isSafeHref("data:text/html,<script>")).toBe(false);
    expect(parseInline("[x](javascript:alert(1))")).toEqual([{ type: "text", text: "x" }, { type: "text", text: ")" }]);
    expect(parseInline("see https://example.com/page.")).toEqual([
      { type: "text", text: "see " },
      { type: "link", href: "https://example.com/page", children: [{ type: "text", text: "https://example.com/page" }] },
      { type: "text", text: "." },
    ]);
  });
});

describe("Markdown rendering", () => {
  it("renders raw HTML in model output as text, never as elements", () => {
    const out = html('Hi <img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script> **bold**');
    expect(out).not.toMatch(/<img|<script/i);
    expect(out).toContain("&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;");
    expect(out).toContain("&lt;script&gt;window.__xss=2&lt;/script&gt;");
    expect(out).toContain("<strong>bold</strong>");
  });

  it("renders HTML inside code blocks and link labels as text too", () => {
    const out = html("```\n<iframe src=x></iframe>\n```\n[<b>hi</b>](https://example.com)");
    expect(out).not.toMatch(/<iframe|<b>/);
    expect(out).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">&lt;b&gt;hi&lt;/b&gt;</a>');
  });

  it("never emits a javascript: link", () => {
    expect(html("[click](javascript:alert(1)) [x](JAVASCRIPT:alert(1))")).not.toMatch(/href/);
  });

  it("renders lists and code", () => {
    expect(html("- a\n- `b`")).toBe('<div class="md"><ul><li><p>a</p></li><li><p><code>b</code></p></li></ul></div>');
  });
});
