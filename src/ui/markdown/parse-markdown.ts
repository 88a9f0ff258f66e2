// A small Markdown reader for model output: paragraphs, headings, fenced code, lists, quotes,
// rules, inline code, bold, italic and http(s) links. It produces a plain tree that the renderer
// turns into React elements, so raw HTML in the text stays text — model and tool output can never
// become live markup. Unfinished constructs (a fence still streaming) degrade to what they are.
// Model output can be anything: the work is linear in the text (each nesting level reads its
// lines once, and the levels are capped), and no regex here can backtrack more than a line.
import { cutOutsidePair } from "toolcall-middleware/text/surrogate-pairs.ts";
import { isSafeHref, parseInline, type Inline } from "./parse-inline.ts";
import { countWork, type WorkMeter } from "./work-meter.ts";

export type { Inline, WorkMeter };
export { isSafeHref, parseInline };

/** A run of a long paragraph's lines, read on its own (see PARAGRAPH_PART_LINES). */
export interface ParagraphPart {
  /** The lines as written: a renderer can skip a part whose source did not change. */
  source: string;
  children: Inline[];
}

export type Block =
  | { type: "paragraph"; children: Inline[]; parts?: ParagraphPart[] }
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

/**
 * A paragraph of more lines than this is read and drawn in parts of this many lines (its
 * `parts`; `children` is then empty): emphasis cannot span two parts, and a renderer redraws
 * only the parts that changed. Model output of 50,000 short lines in one paragraph made one
 * paragraph of 150,000 inline nodes, rebuilt and re-inserted whole on every streamed chunk.
 */
export const PARAGRAPH_PART_LINES = 100;

/**
 * A paragraph of more characters than this is parted too, and a part holds at most this many
 * (a longer line is cut): a reply of 250,000 characters with no line end was one paragraph the
 * browser laid out whole, 0.6 s at once, each time the chat measured its height.
 */
export const PARAGRAPH_PART_CHARS = 16_000;

/** A list of more items than this is read as several lists of this many (numbering carried on). */
export const LIST_PART_ITEMS = 100;

/** A top-level block with the lines it was read from, so a renderer can skip blocks that did not change. */
export interface SourcedBlock {
  block: Block;
  source: string;
  /** How many source lines it was read from. */
  lines: number;
}

export function parseMarkdown(source: string, meter?: WorkMeter): Block[] {
  return parseBlocks(splitLines(source), 0, meter);
}

/**
 * Long paragraphs' parts already read, by their source: streamed text is parsed again on each
 * update, and a part that did not change is not read again. Give the same map to each parse of
 * one growing text; it keeps only the parts of the latest parse.
 */
export type PartCache = Map<string, Inline[]>;

/** The top-level blocks, each with its source lines (nested blocks are not sourced). */
export function parseMarkdownSourced(source: string, meter?: WorkMeter, parts?: PartCache): SourcedBlock[] {
  const lines = splitLines(source);
  const sources: { text: string; lines: number }[] = [];
  const cache = parts ? { previous: new Map(parts), next: parts } : undefined;
  parts?.clear();
  const blocks = parseBlocks(lines, 0, meter, sources, cache);
  return blocks.map((block, index) => ({ block, source: sources[index]?.text ?? "", lines: sources[index]?.lines ?? 1 }));
}

/** Parts read by the previous parse, and the map the parts of this one go into. */
interface PartReuse {
  previous: PartCache;
  next: PartCache;
}

function splitLines(source: string): string[] {
  return source.replace(/\r\n?/g, "\n").split("\n");
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

/** `sources`, when given, receives each block's source lines, joined, and their count (a parallel array). */
function parseBlocks(lines: string[], depth: number, meter: WorkMeter | undefined, sources?: { text: string; lines: number }[], cache?: PartReuse): Block[] {
  // Nested deeper than MAX_BLOCK_DEPTH: one paragraph of what was written.
  if (depth >= MAX_BLOCK_DEPTH) return [paragraphOf(lines, meter, cache)];
  const blocks: Block[] = [];
  let from = 0;
  const push = (block: Block, to: number) => {
    blocks.push(block);
    const end = Math.min(to, lines.length);
    sources?.push({ text: lines.slice(from, end).join("\n"), lines: Math.max(1, end - from) });
  };
  let paragraph: string[] = [];
  let paragraphFrom = 0;
  const flushParagraph = () => {
    if (paragraph.length > 0) {
      const start = from;
      from = paragraphFrom;
      push(paragraphOf(paragraph, meter, cache), paragraphFrom + paragraph.length);
      from = start;
    }
    paragraph = [];
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    from = i;
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
      push({ type: "code", lang: fence[2] ?? "", text: body.join("\n") }, i);
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
      push({ type: "heading", level: heading.level, children: parseInline(heading.text, meter) }, i + 1);
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      flushParagraph();
      push({ type: "rule" }, i + 1);
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
      push({ type: "quote", children: parseBlocks(quoted, depth + 1, meter, undefined, cache) }, i);
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
      const itemFrom: number[] = [];
      while (i < lines.length) {
        const match = pattern.exec(lines[i]!);
        if (!match) break;
        itemFrom.push(i);
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
        items.push(parseBlocks(itemLines, depth + 1, meter, undefined, cache));
      }
      // A long list is several lists of LIST_PART_ITEMS items (numbering carried on), each a
      // block of its own: drawn, skipped and inserted like any other block.
      for (let at = 0; at < items.length; at += LIST_PART_ITEMS) {
        from = itemFrom[at]!;
        push({ type: "list", ordered: isOrdered, start: start + at, items: items.slice(at, at + LIST_PART_ITEMS) }, itemFrom[at + LIST_PART_ITEMS] ?? i);
      }
      continue;
    }
    if (paragraph.length === 0) paragraphFrom = i;
    paragraph.push(line);
    i += 1;
  }
  flushParagraph();
  return blocks;
}

function paragraphOf(lines: string[], meter: WorkMeter | undefined, cache?: PartReuse): Block {
  let chars = 0;
  for (const line of lines) chars += line.length + 1;
  if (lines.length <= PARAGRAPH_PART_LINES && chars <= PARAGRAPH_PART_CHARS) return { type: "paragraph", children: parseInline(lines.join("\n"), meter) };
  const parts: ParagraphPart[] = [];
  const addPart = (source: string) => {
    const children = cache?.previous.get(source) ?? parseInline(source, meter);
    cache?.next.set(source, children);
    parts.push({ source, children });
  };
  let group: string[] = [];
  let groupChars = 0;
  const closeGroup = () => {
    if (group.length > 0) addPart(group.join("\n"));
    group = [];
    groupChars = 0;
  };
  for (const line of lines) {
    if (line.length > PARAGRAPH_PART_CHARS) {
      // A line with no end for this long is cut into parts of its own (each a row of its own).
      closeGroup();
      for (let at = 0; at < line.length; ) {
        const end = cutOutsidePair(line, Math.min(line.length, at + PARAGRAPH_PART_CHARS));
        addPart(line.slice(at, end > at ? end : at + PARAGRAPH_PART_CHARS));
        at = end > at ? end : at + PARAGRAPH_PART_CHARS;
      }
      continue;
    }
    if (group.length >= PARAGRAPH_PART_LINES || groupChars + line.length > PARAGRAPH_PART_CHARS) closeGroup();
    group.push(line);
    groupChars += line.length + 1;
  }
  closeGroup();
  return { type: "paragraph", children: [], parts };
}
