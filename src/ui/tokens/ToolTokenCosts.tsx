// What each tool costs in context: the tokens its definition adds to the protocol's tool
// section (the section with every tool, less the section without it), counted by the
// tokenizer of the step's template. Written by the protocol's code of today, and said so.
import { memo, useMemo } from "react";
import type { ToolSpec } from "../../middleware/types.ts";
import { controlTokensOf, toolSectionOf } from "../debugger/protocol-support.ts";
import { useTokenCounts, wantTokens } from "./use-tokenization.ts";
import "./tokens.css";

const n = (value: number) => value.toLocaleString("en-US");

interface ToolTokenCostsProps {
  protocol: string | undefined;
  tools: ToolSpec[];
  /** The template whose tokenizer counts (the step's, or the current engine's). */
  template: string;
}

export const ToolTokenCosts = memo(function ToolTokenCosts({ protocol, tools, template }: ToolTokenCostsProps) {
  // Texts: the section with every tool, then with each tool left out in turn.
  const sections = useMemo(() => {
    if (!protocol || tools.length === 0) return null;
    const texts: string[] = [];
    for (const subset of [tools, ...tools.map((_, i) => tools.filter((__, j) => j !== i))]) {
      const section = subset.length === 0 ? { text: "" } : toolSectionOf(protocol, subset);
      if ("error" in section) return { error: section.error };
      texts.push(section.text);
    }
    return { texts };
  }, [protocol, tools]);
  const controlTokens = useMemo(() => controlTokensOf(template), [template]);
  const counts = useTokenCounts(sections?.texts ?? null, template, controlTokens);

  if (!sections) return null;
  if ("error" in sections) return <p className="dbg-error-text">{sections.error}</p>;
  return (
    <section className="dbg-def tool-cost" data-testid="tool-token-costs">
      <header className="dbg-panel-head">
        <h3>What each tool costs in context ({protocol})</h3>
      </header>
      {counts.state === "off" ? (
        <p>
          <button type="button" data-testid="count-tokens" onClick={wantTokens}>
            Count tokens
          </button>
        </p>
      ) : counts.state === "unavailable" ? (
        <p className="dbg-empty">{counts.reason}</p>
      ) : counts.state === "error" ? (
        <p className="dbg-error-text">Counting failed: {counts.message}</p>
      ) : counts.state === "loading" ? (
        <p className="dbg-empty">Counting…</p>
      ) : (
        <>
          <table>
            <tbody>
              {tools.map((tool, i) => (
                <tr key={tool.name} data-testid="tool-token-cost" data-tool={tool.name}>
                  <td>{tool.name}</td>
                  <td className="num">{n(counts.counts[0]! - counts.counts[i + 1]!)} tokens</td>
                </tr>
              ))}
              <tr className="tok-total">
                <td>the whole tool section</td>
                <td className="num" data-testid="tool-section-tokens">
                  {n(counts.counts[0]!)} tokens
                </td>
              </tr>
            </tbody>
          </table>
          <p className="dbg-hint">
            Counted with {counts.label}, as today's {protocol} code writes the section: a tool's cost is what leaving it out would save.
          </p>
        </>
      )}
    </section>
  );
});
