// Renders parsed Markdown as React elements. Every piece of text goes through React as a text
// node (escaped); there is no innerHTML anywhere, and only http(s) links are made clickable.
// Bidi control characters are shown as marks, never applied (see bidi-controls.ts).
//
// Streamed text is parsed again on every update, but drawn so the work stays in proportion to
// what changed: each top-level block, and each part of a long paragraph, is a memoized element
// that React skips while its source lines are unchanged, and long runs of blocks are grouped so
// new content is built off the page and inserted in few DOM operations. (50,000 short lines
// used to put 150,000 inline nodes into one live paragraph on each chunk: a 15–60 s task.)
import { Fragment, memo, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import { PARAGRAPH_PART_LINES, parseMarkdownSourced, type Block, type Inline, type ParagraphPart, type PartCache, type SourcedBlock } from "./parse-markdown.ts";

/** Top-level blocks per group: a group's blocks are inserted into the page together. */
export const BLOCKS_PER_GROUP = 50;

function renderInline(nodes: Inline[], keyPrefix: string): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${keyPrefix}.${index}`;
    switch (node.type) {
      case "text":
        return <Fragment key={key}>{visibleBidi(node.text)}</Fragment>;
      case "code":
        return <code key={key}>{visibleBidi(node.text)}</code>;
      case "strong":
        return <strong key={key}>{renderInline(node.children, key)}</strong>;
      case "em":
        return <em key={key}>{renderInline(node.children, key)}</em>;
      case "link":
        return (
          <a key={key} href={node.href} target="_blank" rel="noopener noreferrer">
            {renderInline(node.children, key)}
          </a>
        );
      case "break":
        return <br key={key} />;
    }
  });
}

/**
 * One part of a long paragraph: redrawn only when its lines change. Parts are blocks of their
 * own (.md-part), laid out only when near the view (content-visibility), their size until then
 * guessed from their lines (and the rows a long one wraps to) so a scroll lands where it would.
 */
const PartOfParagraph = memo(
  function PartOfParagraph({ part }: { part: ParagraphPart }) {
    // Rows, a long line taken as wrapping every ~90 characters.
    let rows = 0;
    for (const line of part.source.split("\n", PARAGRAPH_PART_LINES + 1)) rows += Math.max(1, Math.ceil(line.length / 90));
    return (
      <span className="md-part" style={{ containIntrinsicSize: `auto ${(rows * 1.5).toFixed(1)}em` }}>
        {renderInline(part.children, "i")}
      </span>
    );
  },
  (before, after) => before.part.source === after.part.source,
);

/** `limit`: how many of a long paragraph's parts to draw (the rest come in later tasks). */
function renderBlock(block: Block, key: string, limit = Infinity): ReactNode {
  switch (block.type) {
    case "paragraph":
      return (
        <p key={key} className={block.parts ? "md-parted" : undefined}>
          {block.parts ? block.parts.slice(0, limit).map((part, i) => <PartOfParagraph key={i} part={part} />) : renderInline(block.children, key)}
        </p>
      );
    case "heading": {
      const Tag = `h${Math.min(6, block.level + 2)}` as "h3";
      return <Tag key={key}>{renderInline(block.children, key)}</Tag>;
    }
    case "code":
      return (
        <pre key={key} className="md-code" data-lang={block.lang || undefined}>
          <code>{visibleBidi(block.text)}</code>
        </pre>
      );
    case "list": {
      const items = block.items.map((item, i) => <li key={`${key}.${i}`}>{renderBlocks(item, `${key}.${i}`)}</li>);
      return block.ordered ? (
        <ol key={key} start={block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case "quote":
      return <blockquote key={key}>{renderBlocks(block.children, key)}</blockquote>;
    case "rule":
      return <hr key={key} />;
  }
}

function renderBlocks(blocks: Block[], keyPrefix: string): ReactNode[] {
  return blocks.map((block, index) => renderBlock(block, `${keyPrefix}.${index}`));
}

/** A top-level block: redrawn only when its source lines (or how much of it is drawn) change. */
const TopBlock = memo(
  function TopBlock({ sourced, limit }: { sourced: SourcedBlock; limit: number }) {
    return renderBlock(sourced.block, "b", limit);
  },
  (before, after) => before.limit === after.limit && before.sourced.source === after.sourced.source,
);

/**
 * What a block costs to draw, in source lines (a long paragraph's parts are drawn whole, so a
 * paragraph can only be cut between parts: see drawWithin).
 */
const piecesOf = (sourced: SourcedBlock) => sourced.lines;

/** A run of top-level blocks, inserted into the page at once; its blocks skip redrawing on their own. */
const BlockGroup = memo(
  function BlockGroup({ blocks, budget }: { blocks: SourcedBlock[]; budget: number }) {
    return <div className="md-group">{drawWithin(blocks, budget)}</div>;
  },
  (before, after) => before.budget === after.budget && before.blocks.length === after.blocks.length && before.blocks.every((b, i) => b.source === after.blocks[i]!.source),
);

/** The blocks that fit in `budget` pieces (the last one maybe in part). */
function drawWithin(blocks: SourcedBlock[], budget: number): ReactNode[] {
  const out: ReactNode[] = [];
  let left = budget;
  for (const [i, sourced] of blocks.entries()) {
    if (left <= 0) break;
    const pieces = piecesOf(sourced);
    // The memo compares limits: a fully drawn block always gets Infinity, so it stays skipped.
    // A block cut short is a long paragraph: its first parts that fit (at least one) are drawn.
    out.push(<TopBlock key={i} sourced={sourced} limit={pieces <= left ? Infinity : Math.max(1, Math.floor(left / PARAGRAPH_PART_LINES))} />);
    left -= pieces;
  }
  return out;
}

/**
 * Source lines drawn in the first render, and added per later task: a huge message is drawn a
 * slice per task (each a few thousand DOM nodes) instead of in one task that holds the page;
 * an ordinary reply is drawn at once.
 */
export const FIRST_LINES = 1_000;
export const LINES_PER_TASK = 500;

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const parts = useRef<PartCache>(new Map());
  const blocks = useMemo(() => parseMarkdownSourced(text, undefined, parts.current), [text]);
  const total = useMemo(() => blocks.reduce((sum, b) => sum + piecesOf(b), 0), [blocks]);
  const [budget, setBudget] = useState(FIRST_LINES);
  useEffect(() => {
    if (total <= budget) return;
    const timer = setTimeout(() => setBudget((b) => b + LINES_PER_TASK), 0);
    return () => clearTimeout(timer);
  }, [total, budget]);
  if (blocks.length <= BLOCKS_PER_GROUP) return <div className="md">{drawWithin(blocks, budget)}</div>;
  const groups: ReactNode[] = [];
  let left = budget;
  for (let at = 0; at < blocks.length && left > 0; at += BLOCKS_PER_GROUP) {
    const group = blocks.slice(at, at + BLOCKS_PER_GROUP);
    const pieces = group.reduce((sum, b) => sum + piecesOf(b), 0);
    groups.push(<BlockGroup key={at} blocks={group} budget={pieces <= left ? Infinity : left} />);
    left -= pieces;
  }
  return <div className="md">{groups}</div>;
});
