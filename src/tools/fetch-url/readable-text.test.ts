import { describe, expect, it } from "vitest";
import { collapseWhitespace, stripTags } from "./readable-text.ts";

describe("stripTags (the reader without DOMParser)", () => {
  it("drops scripts, styles and comments even when they contain markup", () => {
    const html = `<p>keep</p><script>if (a < b) { document.write("<p>no</p>") }</script><style>p > b {}</style><!-- <p>no</p> --><p>also</p>`;
    expect(stripTags(html)).toEqual({ text: "keep\n\nalso" });
  });

  it("decodes entities, numeric ones included, and leaves unknown ones", () => {
    expect(stripTags("<p>a &lt;b&gt; &#65;&#x42; &copy2 &bogus;</p>").text).toBe("a <b> AB &copy2 &bogus;");
  });

  it("reads the title", () => {
    expect(stripTags("<title> My   page </title><p>x</p>")).toEqual({ title: "My page", text: "x" });
  });
});

describe("collapseWhitespace", () => {
  it("keeps at most one blank line and trims lines", () => {
    expect(collapseWhitespace("  a \t b \r\n\r\n\r\n\n c  ")).toBe("a b\n\nc");
  });
});
