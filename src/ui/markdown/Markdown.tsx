// Renders parsed Markdown as React elements. Every piece of text goes through React as a text
// node (escaped); there is no innerHTML anywhere, and only http(s) links are made clickable.
// Bidi control characters are shown as marks, never applied (see bidi-controls.ts).
import { Fragment, memo, useMemo, type ReactNode } from "react";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import { parseMarkdown, type Block, type Inline } from "./parse-markdown.ts";

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

function renderBlocks(blocks: Block[], keyPrefix: string): ReactNode[] {
  return blocks.map((block, index) => {
    const key = `${keyPrefix}.${index}`;
    switch (block.type) {
      case "paragraph":
        return <p key={key}>{renderInline(block.children, key)}</p>;
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
  });
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return <div className="md">{renderBlocks(blocks, "b")}</div>;
});
