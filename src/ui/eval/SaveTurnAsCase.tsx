// *Save as eval case*: the active conversation's turns (each run's messages up to the person's
// message, the tools it offered, the calls its first step made); the person marks the calls that
// are right and saves the turn as a case. Saved cases run as a suite and export as BFCL files.
import { useMemo, useState } from "react";
import { useConversation } from "../../app/lab-stores-context.tsx";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { savedCaseFiles } from "../../store/eval-store.ts";
import { useEvalState, useEvaluation } from "./use-evaluation.ts";

const EMPTY: LoopEvent[] = [];

interface Turn {
  runId: string;
  question: string;
  messages: Extract<LoopEvent, { type: "run-start" }>["messages"];
  tools: Extract<LoopEvent, { type: "run-start" }>["tools"];
  calls: Array<{ name: string; arguments: Record<string, unknown> }>;
}

/** Top-level runs of the log, newest first, with the calls their first reply made. */
function turnsOf(events: readonly LoopEvent[]): Turn[] {
  const turns = new Map<string, Turn>();
  for (const event of events) {
    if (event.type === "run-start" && !("parent" in event && event.parent)) {
      const question = event.messages.findLast((m) => m.role === "user")?.content ?? "";
      turns.set(event.runId, { runId: event.runId, question, messages: event.messages, tools: event.tools, calls: [] });
    } else if (event.type === "message" && event.message.role === "assistant") {
      const turn = turns.get(event.runId);
      if (turn && turn.calls.length === 0 && event.message.toolCalls) turn.calls = event.message.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args }));
    }
  }
  return [...turns.values()].reverse();
}

export function SaveTurnAsCase() {
  const { saveTurnAsCase, removeSavedCase, runSavedCases } = useEvaluation();
  const events = useConversation((s) => s.active?.events ?? EMPTY);
  const title = useConversation((s) => s.active?.title);
  const saved = useEvalState((s) => s.saved);
  const turns = useMemo(() => turnsOf(events).slice(0, 10), [events]);
  const [unmarked, setUnmarked] = useState<Set<string>>(() => new Set());
  const [lastSaved, setLastSaved] = useState<string | null>(null);
  const download = (name: string, text: string) => {
    const url = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <details className="eval-save" data-testid="eval-save-turns">
      <summary>
        Save a conversation turn as an eval case ({saved.length} saved)
      </summary>
      <p className="eval-muted">
        From the open conversation{title ? ` “${title}”` : ""}: mark the calls that are right (none: the right answer is no call) and save the turn.
      </p>
      {turns.length === 0 && <p className="eval-muted">The open conversation has no turns yet.</p>}
      <ul className="eval-turns">
        {turns.map((turn) => (
          <li key={turn.runId} data-testid="eval-turn">
            <span className="eval-turn-question">{turn.question.length > 140 ? `${turn.question.slice(0, 140)}…` : turn.question}</span>
            {turn.calls.map((call, index) => {
              const key = `${turn.runId}#${index}`;
              return (
                <label key={key} className="eval-check mono">
                  <input
                    type="checkbox"
                    data-testid="eval-turn-call"
                    checked={!unmarked.has(key)}
                    onChange={(e) => setUnmarked((old) => {
                      const next = new Set(old);
                      if (e.target.checked) next.delete(key);
                      else next.add(key);
                      return next;
                    })}
                  />
                  {call.name}({JSON.stringify(call.arguments).slice(0, 80)})
                </label>
              );
            })}
            <button
              type="button"
              data-testid="eval-turn-save"
              onClick={() =>
                void saveTurnAsCase({ messages: turn.messages, tools: turn.tools, calls: turn.calls.filter((_, index) => !unmarked.has(`${turn.runId}#${index}`)) }).then((id) => setLastSaved(id ?? null))
              }
            >
              Save as eval case
            </button>
          </li>
        ))}
      </ul>
      {lastSaved && <p data-testid="eval-turn-saved">Saved as {lastSaved}.</p>}
      {saved.length > 0 && (
        <div className="eval-files">
          <span>Saved: {saved.map((c) => c.id).join(", ")}</span>
          <button type="button" data-testid="eval-saved-run" onClick={runSavedCases}>
            Use them as the suite
          </button>
          <button type="button" onClick={() => download("saved-cases.questions.jsonl", savedCaseFiles(saved).questions)}>
            Export questions
          </button>
          <button type="button" onClick={() => download("saved-cases.answers.jsonl", savedCaseFiles(saved).answers)}>
            Export answers
          </button>
          <button type="button" onClick={() => void removeSavedCase(saved.at(-1)!.id)}>
            Remove {saved.at(-1)!.id}
          </button>
        </div>
      )}
    </details>
  );
}
