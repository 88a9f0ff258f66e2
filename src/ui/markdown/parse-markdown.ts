// A small Markdown reader for model output: paragraphs, headings, fenced code, lists, quotes,
// rules, inline code, bold, italic and http(s) links. It produces a plain tree that the renderer
// turns into React elements, so raw HTML in the text stays text — model and tool output can never
// become live markup. Unfinished constructs (a fence still streaming) degrade to what they are.

export type Inline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] }
  | { type: "break" };

export type Block =
  | { type: "paragraph"; children: Inline[] }
  | { type: "heading"; level: number; children: Inline[] }
  | { type: "code"; lang: string; text: string }
  | { type: "list"; ordered: boolean; start: number; items: Block[][] }
  | { type: "quote"; children: Block[] }
  | { type: "rule" };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)\s*$/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^( {0,3})([-*+])\s+(.*)$/;
const ORDERED = /^( {0,3})(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

/** Only these schemes may become links; everything else is shown as text. */
export function isSafeHref(href: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(href.trim());
}

export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, "\n").split("\n"));
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ type: "paragraph", children: parseInline(paragraph.join("\n")) });
    paragraph = [];
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flushParagraph();
      const marker = fence[1]!;
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i]!.trim().startsWith(marker) && lines[i]!.trim().replace(/[`~]/g, "") === "")) {
        body.push(lines[i]!);
        i += 1;
      }
      i += 1; // the closing fence (or the end of the text while it is still streaming)
      blocks.push({ type: "code", lang: fence[2] ?? "", text: body.join("\n") });
      continue;
    }
    if (line.trim() === "") {
      flushParagraph();
      i += 1;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      blocks.push({ type: "heading", level: heading[1]!.length, children: parseInline(heading[2]!) });
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      flushParagraph();
      blocks.push({ type: "rule" });
      i += 1;
      continue;
    }
    if (QUOTE.test(line)) {
      flushParagraph();
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) {
        quoted.push(QUOTE.exec(lines[i]!)![1]!);
        i += 1;
      }
      blocks.push({ type: "quote", children: parseBlocks(quoted) });
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = bullet ? null : ORDERED.exec(line);
    if (bullet || ordered) {
      flushParagraph();
      const isOrdered = Boolean(ordered);
      const pattern = isOrdered ? ORDERED : BULLET;
      const items: Block[][] = [];
      const start = ordered ? Number(ordered[2]) : 1;
      while (i < lines.length) {
        const match = pattern.exec(lines[i]!);
        if (!match) break;
        const itemLines = [match[3]!];
        i += 1;
        // Continuation: indented lines (and blank lines followed by indented ones) belong to the item.
        while (i < lines.length) {
          const next = lines[i]!;
          if (/^\s{2,}\S/.test(next) && !pattern.exec(next)) {
            itemLines.push(next.replace(/^\s{2,4}/, ""));
            i += 1;
          } else if (/^(\s{2,}|\t)(?:[-*+]|\d{1,9}[.)])\s/.test(next)) {
            itemLines.push(next.replace(/^\s{2,4}/, ""));
            i += 1;
          } else break;
        }
        items.push(parseBlocks(itemLines));
      }
      blocks.push({ type: "list", ordered: isOrdered, start, items });
      continue;
    }
    paragraph.push(line);
    i += 1;
  }
  flushParagraph();
  return blocks;
}

const ESCAPABLE = new Set("\\`*_{}[]()#+-.!<>|~");
const URL_START = /https?:\/\/[^\s<>()[\]"'`]+[^\s<>()[\]"'`.,;:!?]/y;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buffer = "";
  const pushText = (value: string) => {
    buffer += value;
  };
  const flush = () => {
    if (buffer) out.push({ type: "text", text: buffer });
    buffer = "";
  };

  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length && ESCAPABLE.has(text[i + 1]!)) {
      pushText(text[i + 1]!);
      i += 2;
      continue;
    }
    if (ch === "\n") {
      flush();
      out.push({ type: "break" });
      i += 1;
      continue;
    }
    if (ch === "`") {
      let run = 1;
      while (text[i + run] === "`") run += 1;
      const marker = "`".repeat(run);
      const close = text.indexOf(marker, i + run);
      if (close > 0) {
        flush();
        out.push({ type: "code", text: text.slice(i + run, close).replace(/\n/g, " ") });
        i = close + run;
        continue;
      }
      pushText(marker);
      i += run;
      continue;
    }
    if ((ch === "*" || ch === "_") && text[i + 1] === ch) {
      const before = i > 0 ? text[i - 1]! : " ";
      const opens = ch === "*" || !WORD_CHAR.test(before);
      const close = opens ? findStrongClose(text, i + 2, ch) : -1;
      if (close > i + 2 && !/\s/.test(text[i + 2]!)) {
        flush();
        out.push({ type: "strong", children: parseInline(text.slice(i + 2, close)) });
        i = close + 2;
        continue;
      }
    } else if (ch === "*" || ch === "_") {
      const before = i > 0 ? text[i - 1]! : " ";
      const opensWord = ch === "*" || !WORD_CHAR.test(before);
      const close = findEmphasisClose(text, i + 1, ch);
      if (opensWord && close > i + 1 && text[i + 1] !== " ") {
        flush();
        out.push({ type: "em", children: parseInline(text.slice(i + 1, close)) });
        i = close + 1;
        continue;
      }
    }
    if (ch === "[") {
      const link = readLink(text, i);
      if (link) {
        flush();
        const children = parseInline(link.label);
        out.push(isSafeHref(link.href) ? { type: "link", href: link.href.trim(), children } : { type: "text", text: link.label });
        i = link.end;
        continue;
      }
    }
    if ((ch === "h" || ch === "H") && (i === 0 || !/[\p{L}\p{N}]/u.test(text[i - 1]!))) {
      URL_START.lastIndex = i;
      const match = URL_START.exec(text);
      if (match) {
        flush();
        out.push({ type: "link", href: match[0], children: [{ type: "text", text: match[0] }] });
        i += match[0].length;
        continue;
      }
    }
    pushText(ch);
    i += 1;
  }
  flush();
  return out;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A closing ** or __: not after a space; __ also not inside a word (snake__case). */
function findStrongClose(text: string, from: number, ch: string): number {
  const marker = ch + ch;
  let j = text.indexOf(marker, from);
  while (j >= 0) {
    const before = text[j - 1] ?? " ";
    const after = text[j + 2] ?? " ";
    if (!/\s/.test(before) && (ch === "*" || !WORD_CHAR.test(after))) return j;
    j = text.indexOf(marker, j + 1);
  }
  return -1;
}

function findEmphasisClose(text: string, from: number, marker: string): number {
  for (let j = from; j < text.length; j += 1) {
    const c = text[j];
    if (c === "\\") {
      j += 1;
      continue;
    }
    if (c === "\n" && text[j + 1] === "\n") return -1;
    if (c === marker && text[j + 1] !== marker && text[j - 1] !== " " && text[j - 1] !== marker) {
      if (marker === "_" && j + 1 < text.length && /[\p{L}\p{N}]/u.test(text[j + 1]!)) continue;
      return j;
    }
  }
  return -1;
}

function readLink(text: string, open: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let j = open;
  for (; j < text.length; j += 1) {
    const c = text[j];
    if (c === "\\") {
      j += 1;
      continue;
    }
    if (c === "[") depth += 1;
    else if (c === "]") {
      depth -= 1;
      if (depth === 0) break;
    } else if (c === "\n" && text[j + 1] === "\n") return null;
  }
  if (j >= text.length || text[j + 1] !== "(") return null;
  const close = text.indexOf(")", j + 2);
  if (close < 0) return null;
  const href = text.slice(j + 2, close).split(/\s+"/)[0]!;
  return { label: text.slice(open + 1, j), href, end: close + 1 };
}
