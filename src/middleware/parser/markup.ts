// A small, forgiving reader for the XML-like markup of tool calls: `<location>Seoul</location>`,
// `<parameter=location>Seoul</parameter>`, `<parameter name="location">`, nested `<item>`s.
// It is not an XML parser: text that is not a well-formed tag is text, and a tag left open runs
// to the end of its container (reported as not closed) instead of failing the whole call.

export interface MarkupElement {
  tag: string;
  /** `name` from `<tag=name>` or `<tag name="...">`, when given. */
  name?: string;
  /** The inner text, raw (entities not decoded). */
  raw: string;
  closed: boolean;
}

export interface MarkupReading {
  elements: MarkupElement[];
  /** Non-blank text between the elements. */
  strayText: string;
}

// `<tag>`, `<tag=value>`, `<tag attr="v" …>`, `<tag/>`, matched at one position (sticky).
const OPEN_TAG = /<([A-Za-z_][\w.:-]*)(?:=([^>\n]*))?((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))*)\s*(\/?)>/y;
const NAME_ATTRIBUTE = /(?:^|\s)name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/;

/** Reads the elements directly inside `text`. */
export function readElements(text: string): MarkupReading {
  const elements: MarkupElement[] = [];
  let stray = "";
  let pos = 0;
  while (pos < text.length) {
    const lt = text.indexOf("<", pos);
    if (lt < 0) {
      stray += text.slice(pos);
      break;
    }
    stray += text.slice(pos, lt);
    OPEN_TAG.lastIndex = lt;
    const open = OPEN_TAG.exec(text);
    if (!open) {
      // Not an opening tag (a stray close tag, `a < b`): keep it as text.
      stray += "<";
      pos = lt + 1;
      continue;
    }
    const tag = open[1]!;
    const name = open[2] !== undefined ? open[2].trim() : nameAttribute(open[3] ?? "");
    const contentStart = lt + open[0].length;
    if (open[4] === "/") {
      elements.push(element(tag, name, "", true));
      pos = contentStart;
      continue;
    }
    const close = findClose(text, tag, contentStart);
    if (close) {
      elements.push(element(tag, name, text.slice(contentStart, close.start), true));
      pos = close.end;
    } else {
      const end = unclosedEnd(text, tag, contentStart);
      elements.push(element(tag, name, text.slice(contentStart, end), false));
      pos = end;
    }
  }
  return { elements, strayText: stray.trim() };
}

function element(tag: string, name: string | undefined, raw: string, closed: boolean): MarkupElement {
  return name === undefined ? { tag, raw, closed } : { tag, name, raw, closed };
}

function nameAttribute(attributes: string): string | undefined {
  const m = NAME_ATTRIBUTE.exec(attributes);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/** The matching `</tag>` after `from`, counting nested elements of the same tag. */
function findClose(text: string, tag: string, from: number): { start: number; end: number } | undefined {
  const closeTag = `</${tag}`;
  const openTag = `<${tag}`;
  let depth = 1;
  let pos = from;
  for (;;) {
    const close = text.indexOf(closeTag, pos);
    if (close < 0) return undefined;
    const closeEnd = text.indexOf(">", close + closeTag.length);
    if (closeEnd < 0) return undefined;
    if (text.slice(close + closeTag.length, closeEnd).trim() !== "") {
      pos = close + closeTag.length; // `</tagger>`: a different tag
      continue;
    }
    // Count same-tag openings between here and the close.
    let open = text.indexOf(openTag, pos);
    while (open >= 0 && open < close) {
      const after = text.charAt(open + openTag.length);
      if (after === ">" || after === "=" || after === "/" || /\s/.test(after)) depth++;
      open = text.indexOf(openTag, open + openTag.length);
    }
    depth--;
    if (depth === 0) return { start: close, end: closeEnd + 1 };
    pos = closeEnd + 1;
  }
}

/** Where an element left open ends: at the next sibling of the same tag, or at the end. */
function unclosedEnd(text: string, tag: string, from: number): number {
  // `<parameter=a>1 <parameter=b>2` — a new parameter closes the previous one.
  const next = text.indexOf(`<${tag}`, from);
  if (next >= 0 && tag === "parameter") return next;
  const functionEnd = tag === "parameter" ? text.indexOf("</function>", from) : -1;
  return functionEnd >= 0 ? functionEnd : text.length;
}

const ENTITY = /&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Decodes the five XML entities and numeric character references. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(ENTITY, (whole, name: string) => {
    if (name[0] !== "#") return NAMED[name] ?? whole;
    const code = name[1] === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Escapes text for a markup value, so the parser reads back exactly it. */
export function encodeEntities(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Values are written on their own lines by some formats: drop one newline at each end. */
export function stripEdgeNewlines(text: string): string {
  let start = 0;
  let end = text.length;
  if (text.startsWith("\r\n")) start = 2;
  else if (text.startsWith("\n")) start = 1;
  if (end - start >= 2 && text.endsWith("\r\n")) end -= 2;
  else if (end - start >= 1 && text.endsWith("\n")) end -= 1;
  return text.slice(start, end);
}
