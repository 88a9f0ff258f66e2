// A tool call inside the chat: the tool, its arguments, what came back, how long it took and
// how it ended. Clicking it opens the step that made the call in the debugger.
import { memo, useState } from "react";
import { describeToolOutcome, type ToolCallCard as Card } from "../../store/derive-chat.ts";
import { useDebuggerSelection, useMcpServers } from "../../app/lab-stores-context.tsx";
import { showBidiControls } from "../bidi/bidi-controls.ts";
import { visibleBidi, visibleName } from "../bidi/VisibleBidi.tsx";
import { McpResultResources } from "../mcp/McpResultResources.tsx";

const STATUS_LABEL: Record<string, string> = {
  writing: "writing…",
  running: "running…",
  "not-run": "not run",
};

function statusLabel(card: Card): string {
  return STATUS_LABEL[card.status] ?? describeToolOutcome(card.status as Parameters<typeof describeToolOutcome>[0]);
}

function tone(card: Card): "ok" | "err" | "busy" | "muted" {
  if (card.status === "ok") return "ok";
  if (card.status === "writing" || card.status === "running") return "busy";
  if (card.status === "not-run" || card.status === "aborted") return "muted";
  return "err";
}

function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return "";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function argumentsPreview(card: Card): string {
  if (card.arguments) {
    const entries = Object.entries(card.arguments).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
    return entries.join(", ");
  }
  return card.argumentsText;
}

export const ToolCallCard = memo(function ToolCallCard({ card }: { card: Card }) {
  const [open, setOpen] = useState(false);
  const selected = useDebuggerSelection((s) => s.stepId === card.stepId);
  const selectStep = useDebuggerSelection((s) => s.selectStep);
  const t = tone(card);
  // An MCP server's progress notifications while the call runs.
  const progress = useMcpServers((s) => (card.status === "running" ? s.progress[card.callId] : undefined));
  const preview = argumentsPreview(card);
  const resultText = card.status === "ok" ? card.content : (card.error ?? card.content);
  return (
    <div
      className={`tool-card tc-${t}${selected ? " is-selected" : ""}`}
      data-testid="tool-call-card"
      data-tool={card.name}
      data-status={card.status}
      data-step-id={card.stepId}
    >
      <button
        type="button"
        className="tool-card-head"
        aria-expanded={open}
        title="Show this call's step in the debugger"
        onClick={() => {
          selectStep(card.stepId);
          setOpen((value) => !value);
        }}
      >
        <span className={`dot dot-${t}`} aria-hidden="true" />
        <span className="tool-name mono">{visibleName(card.name)}</span>
        <span className="tool-args mono">({visibleBidi(preview)})</span>
        <span className="tool-meta">
          {card.nestedSteps > 0 && <span className="chip">{card.nestedSteps} sub-steps</span>}
          {card.repairs > 0 && <span className="chip chip-repair" title="The parser repaired this call; see its parse steps">{card.repairs} repaired</span>}
          <span className={`tool-status status-${t}`}>{statusLabel(card)}</span>
          {card.durationMs !== undefined && <span className="tool-duration">{formatDuration(card.durationMs)}</span>}
        </span>
      </button>
      {progress && (
        <div className="tool-card-progress" data-testid="tool-progress">
          {progress.total ? <progress max={progress.total} value={progress.progress} /> : null}
          <span>
            {progress.total ? `${progress.progress} of ${progress.total}` : `${progress.progress}`}
            {progress.message ? ` · ${progress.message}` : ""}
          </span>
        </div>
      )}
      {!open && resultText !== undefined && resultText !== "" && (
        <div className="tool-card-result-line mono" title={showBidiControls(resultText)}>
          → {visibleBidi(resultText)}
        </div>
      )}
      {card.resources && <McpResultResources toolName={card.name} resources={card.resources} />}
      {open && (
        <div className="tool-card-body">
          <div className="tool-card-label">Arguments {card.protocol && <span className="chip">{card.protocol}</span>}</div>
          <pre className="mono">{visibleBidi(card.arguments ? JSON.stringify(card.arguments, null, 2) : card.argumentsText || "(none yet)")}</pre>
          {card.content !== undefined && (
            <>
              <div className="tool-card-label">Result given to the model</div>
              <pre className="mono">{visibleBidi(card.content)}</pre>
            </>
          )}
          {card.error !== undefined && card.error !== card.content && (
            <>
              <div className="tool-card-label">Error</div>
              <pre className="mono tool-error">{visibleBidi(card.error)}</pre>
            </>
          )}
        </div>
      )}
    </div>
  );
});
