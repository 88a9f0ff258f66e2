import { describe, expect, it } from "vitest";
import { decodeEntities, encodeEntities, readElements, stripEdgeNewlines } from "./markup.ts";

describe("readElements", () => {
  it("reads sibling elements, `=name` and name attributes, self-closing tags and stray text", () => {
    const r = readElements('x <a>1</a> <parameter=b>2</parameter><param name="c">3</param><d/> y');
    expect(r.elements).toEqual([
      { tag: "a", raw: "1", closed: true },
      { tag: "parameter", name: "b", raw: "2", closed: true },
      { tag: "param", name: "c", raw: "3", closed: true },
      { tag: "d", raw: "", closed: true },
    ]);
    expect(r.strayText.replace(/\s+/g, " ")).toBe("x y");
  });

  it("matches nested elements of the same tag", () => {
    const r = readElements("<item><item>a</item><item>b</item></item><item>c</item>");
    expect(r.elements.map((e) => e.raw)).toEqual(["<item>a</item><item>b</item>", "c"]);
  });

  it("does not take a longer tag's close for its own", () => {
    const r = readElements("<tag>1</tagger></tag>");
    expect(r.elements).toEqual([{ tag: "tag", raw: "1</tagger>", closed: true }]);
  });

  it("runs an element left open to the end, or a parameter to the next one", () => {
    expect(readElements("<a>open").elements).toEqual([{ tag: "a", raw: "open", closed: false }]);
    expect(readElements("<parameter=a>1\n<parameter=b>2</parameter>").elements).toEqual([
      { tag: "parameter", name: "a", raw: "1\n", closed: false },
      { tag: "parameter", name: "b", raw: "2", closed: true },
    ]);
  });

  it("keeps a < that opens no tag as text", () => {
    expect(readElements("1 < 2 </x>").strayText).toBe("1 < 2 </x>");
  });
});

describe("entities and edges", () => {
  it("decodes the XML entities and character references, leaving unknown ones", () => {
    expect(decodeEntities("&lt;a&gt; &amp;amp; &quot;&apos; &#65;&#x42; &nbsp;")).toBe("<a> &amp; \"' AB &nbsp;");
  });

  it("round-trips text through encode and decode", () => {
    const text = 'a < b && c > "d" &lt;';
    expect(decodeEntities(encodeEntities(text))).toBe(text);
  });

  it("strips exactly one newline at each end", () => {
    expect(stripEdgeNewlines("\n\nx\n\n")).toBe("\nx\n");
    expect(stripEdgeNewlines("\r\nx\r\n")).toBe("x");
    expect(stripEdgeNewlines("\n")).toBe("");
    expect(stripEdgeNewlines("x")).toBe("x");
  });
});
