// The step debugger: a timeline of the run's loop steps and, for the selected step, the prompt,
// the raw output, the parse steps and the tool executions side by side, plus the tool
// definitions. A view of the event log; selection lives in the debugger store (useDebuggerSelection).
// This shell shows the empty state; the step views (DebuggerSteps, which also folds the log into
// steps) and the tool definitions load when first needed, so the first screen does not carry them.
import "./debugger.css";
import { lazy, Suspense, useMemo, useState } from "react";
import type { LoopEvent, ToolSpec } from "toolcall-middleware/types.ts";
import { useEngineState, useProtocolChoice } from "../../app/lab-stores-context.tsx";

const DebuggerSteps = lazy(() => import("./DebuggerSteps.tsx").then((m) => ({ default: m.DebuggerSteps })));
const NextTurnToolDefinitions = lazy(() => import("./NextTurnToolDefinitions.tsx").then((m) => ({ default: m.NextTurnToolDefinitions })));

export interface DebuggerPaneProps {
  /** The conversation's event log. */
  events: LoopEvent[];
  /** The tools enabled now (shown when no step's run says which tools it had). */
  tools: ToolSpec[];
  /** Whether this page started a top-level run; a step left running in any other was interrupted (a reload). Absent: none was. */
  startedOnThisPage?: (runId: string) => boolean;
}

export function DebuggerPane({ events, tools, startedOnThisPage }: DebuggerPaneProps) {
  // A log has a step once it has a step-start (every step, branches included, begins with one).
  const hasSteps = useMemo(() => events.some((event) => event.type === "step-start"), [events]);
  const [toolsOpen, setToolsOpen] = useState(false);
  // With no step yet, the tools are shown as the protocol chosen for the next turn will write them.
  const nextProtocol = useProtocolChoice((s) => s.protocol);
  const nextTemplate = useEngineState((s) => s.template.name);

  if (!hasSteps) {
    return (
      <div className="dbg dbg-empty-state" data-testid="debugger-pane">
        <p className="dbg-empty">
          No loop steps yet. Send a message and each step the loop takes appears here: the exact
          prompt the model read, its raw output as it streams, what the parser made of it, and every tool it ran.
        </p>
        <details className="dbg-empty-tools" onToggle={(event) => setToolsOpen(event.currentTarget.open)}>
          <summary>Tool definitions ({tools.length})</summary>
          {/* Written only when opened: with thousands of MCP tools the definitions are megabytes of text. */}
          {toolsOpen && (
            <Suspense fallback={<p className="dbg-hint">Loading the tool definitions…</p>}>
              <NextTurnToolDefinitions protocol={nextProtocol} tools={tools} template={nextTemplate} />
            </Suspense>
          )}
        </details>
      </div>
    );
  }

  return (
    <Suspense
      fallback={
        <div className="dbg" data-testid="debugger-pane">
          <p className="dbg-hint">Loading the step view…</p>
        </div>
      }
    >
      <DebuggerSteps events={events} tools={tools} {...(startedOnThisPage ? { startedOnThisPage } : {})} />
    </Suspense>
  );
}
