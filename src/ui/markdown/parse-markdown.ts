// A small Markdown reader for model output: paragraphs, headings, fenced code, lists, quotes,
// rules, inline code, bold, italic and http(s) links. It produces a plain tree that the renderer
// turns into React elements, so raw HTML in the text stays text — model and tool output can never
// become live markup. Unfinished constructs (a fence still streaming) degrade to what they are.
// Model output can be anything: the work is linear in the text (each nesting level reads its
// lines once, and the levels are capped), and no regex here can backtrack more than a line.
import { isSafeHref, parseInline, type Inline } from "./parse-inline.ts";
import { countWork, type WorkMeter } from "./work-meter.ts";

export type { Inline, WorkMeter };
export { isSafeHref, parseInline };

export type Block =
  | { type: "paragraph"; children: Inline[] }
  | { type: "heading"; level: number; children: Inline[] }
  | { type: "code"; lang: string; text: string }
  | { type: "list"; ordered: boolean; start: number; items: Block[][] }
  | { type: "quote"; children: Block[] }
  | { type: "rule" };

/** Quotes and lists inside each other beyond this depth are shown as the text they were written as. */
export const MAX_BLOCK_DEPTH = 12;

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
// The s flag lets "." match every character, so ".*$" always reaches the end without backtracking.
const BULLET = /^( {0,3})([-*+])[ \t]+(.*)$/s;
const ORDERED = /^( {0,3})(\d{1,9})[.)][ \t]+(.*)$/s;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/s;

export function parseMarkdown(source: string, meter?: WorkMeter): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, "\n").split("\n"), 0, meter);
}

/** `# Title ##` → level and text (closing #s dropped); written out so no regex backtracks. */
function readHeading(line: string): { level: number; text: string } | null {
  const trimmed = line.replace(/^ {0,3}/, "");
  let level = 0;
  while (level < trimmed.length && trimmed[level] === "#") level += 1;
  if (level < 1 || level > 6) return null;
  const rest = trimmed.slice(level);
  if (rest !== "" && rest[0] !== " " && rest[0] !== "\t") return null;
  let text = rest.trim();
  const closing = text.replace(/#+$/, "");
  if (closing === "" || /\s$/.test(closing)) text = closing.trim();
  return { level, text };
}

/** Lines nested deeper than MAX_BLOCK_DEPTH: one paragraph of what was written. */
function asWritten(lines: string[], meter: WorkMeter | undefined): Block[] {
  return [{ type: "paragraph", children: parseInline(lines.join("\n"), meter) }];
}

function parseBlocks(lines: string[], depth: number, meter: WorkMeter | undefined): Block[] {
  if (depth >= MAX_BLOCK_DEPTH) return asWritten(lines, meter);
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ type: "paragraph", children: parseInline(paragraph.join("\n"), meter) });
    paragraph = [];
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    countWork(meter, 1 + line.length);
    const fence = FENCE.exec(line);
    if (fence) {
      flushParagraph();
      const marker = fence[1]!;
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i]!.trim().startsWith(marker) && lines[i]!.trim().replace(/[`~]/g, "") === "")) {
        countWork(meter, 1 + lines[i]!.length);
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
    const heading = readHeading(line);
    if (heading) {
      flushParagraph();
      blocks.push({ type: "heading", level: heading.level, children: parseInline(heading.text, meter) });
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
        countWork(meter, 1 + lines[i]!.length);
        quoted.push(QUOTE.exec(lines[i]!)![1]!);
        i += 1;
      }
      blocks.push({ type: "quote", children: parseBlocks(quoted, depth + 1, meter) });
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
          countWork(meter, 1 + next.length);
          if (/^\s{2,}\S/.test(next) && !pattern.exec(next)) {
            itemLines.push(next.replace(/^\s{2,4}/, ""));
            i += 1;
          } else if (/^(\s{2,}|\t)(?:[-*+]|\d{1,9}[.)])\s/.test(next)) {
            itemLines.push(next.replace(/^\s{2,4}/, ""));
            i += 1;
          } else break;
        }
        items.push(parseBlocks(itemLines, depth + 1, meter));
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
