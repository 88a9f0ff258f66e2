// "Parse as…": the step's recorded raw output read again with another protocol, or strictly,
// at once and without generating. The re-read's calls and parse steps show beside the recorded
// ones, with the differences listed and explained in words. Nothing is written to the log.
import { useEffect, useMemo, useRef, useState } from "react";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { useBranchRun, useConversation, useLabStores } from "../../app/lab-stores-context.tsx";
import { collectParse } from "toolcall-middleware/parser/collect.ts";
import type { ParseEvent, ToolSpec } from "toolcall-middleware/types.ts";
import type { ReparseView } from "../../experiments/reparse.ts";
import type { StepView } from "../debugger/build-steps.ts";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import { CallList, ParseEventList } from "./ParsedCalls.tsx";
import { createReparseRunner } from "./reparse-runner.ts";

const ROWS = 200;

export function ReparsePanel({ step, tools, protocol, strict }: { step: StepView; tools: ToolSpec[]; protocol: string; strict: boolean }) {
  const recordedEvents = useMemo(() => step.parseEvents.map((e) => e.event), [step.parseEvents]);
  const recorded = useMemo(() => collectParse(recordedEvents), [recordedEvents]);
  // The re-read runs in a worker; until it answers, the panel says so.
  const [view, setView] = useState<{ key: string; view: ReparseView } | null>(null);
  const key = `${step.runId}/${step.id}/${protocol}/${strict}`;
  const latestKey = useRef(key);
  const runner = useRef<ReturnType<typeof createReparseRunner> | null>(null);
  useEffect(() => {
    const created = createReparseRunner((result) => setView({ key: latestKey.current, view: result }));
    runner.current = created;
    return () => created.dispose();
  }, []);
  useEffect(() => {
    latestKey.current = key;
    // The recorded parse goes as its result, not its events: a large step has a great many.
    const recordedCallEnd = recordedEvents.find((e) => e.type === "tool-call-end");
    runner.current?.run({ rawOutput: step.rawOutput, tools, protocol, strict, recorded, ...(recordedCallEnd ? { recordedCallEnd } : {}) });
  }, [key, step.rawOutput, tools, protocol, strict, recorded, recordedEvents]);
  const again = view?.key === key ? view.view : null;
  if (!again) {
    return (
      <section className="xp-panel" aria-label="Parse as" data-testid="reparse-view" aria-busy="true">
        <p className="xp-explain" data-testid="reparse-pending" role="status">
          Reading the output again as {protocol}
          {strict ? " (strict)" : ""}…
        </p>
      </section>
    );
  }
  const { differences, explanation } = again;
  return (
    <section className="xp-panel" aria-label="Parse as" data-testid="reparse-view">
      <p className={`xp-explain ${differences.length === 0 ? "tone-ok" : "tone-warn"}`} data-testid="reparse-explanation" role="status">
        <WithCode text={explanation} />
      </p>
      <div className="xp-sides">
        <ParseSide title={`recorded · ${step.protocol}`} calls={recorded.calls} events={recordedEvents} testId="reparse-recorded" />
        <ParseSide
          title={`as ${again.protocol}${strict ? " (strict)" : ""}`}
          calls={again.calls}
          events={again.events}
          counts={{ events: again.eventCount, decisions: again.decisionCount }}
          testId="reparse-calls"
          errors={again.errors}
          errorCount={again.errorCount}
        />
      </div>
      {differences.length > 0 && (
        <ul className="xp-differences" data-testid="reparse-differences">
          {differences.map((d, i) => (
            <li key={i} data-kind={d.kind}>
              {visibleBidi(d.text)}
            </li>
          ))}
        </ul>
      )}
      <KeepAsBranch step={step} tools={tools} protocol={protocol} strict={strict} />
    </section>
  );
}

function ParseSide({
  title,
  calls,
  events,
  counts,
  testId,
  errors = [],
  errorCount = errors.length,
}: {
  title: string;
  calls: { id: string; name: string; arguments: Record<string, unknown> }[];
  events: readonly ParseEvent[];
  counts?: { events: number; decisions: number };
  testId: string;
  errors?: string[];
  errorCount?: number;
}) {
  return (
    <div className="xp-side">
      <h4>{title}</h4>
      <CallList calls={calls} testId={testId} itemTestId={`${testId}-call`} />
      {errors.length > 0 && (
        <ul className="xp-errors" data-testid={`${testId}-errors`} data-count={errorCount}>
          {errors.map((e, i) => (
            <li key={i}>{visibleBidi(e)}</li>
          ))}
          {errorCount > errors.length && <li className="dbg-hint">… and {(errorCount - errors.length).toLocaleString("en-US")} more errors, not listed</li>}
        </ul>
      )}
      <ParseEventList events={events} listed="all" rows={ROWS} {...(counts ? { counts } : {})} />
    </div>
  );
}

/** Nothing is saved unless asked: then the re-read becomes a branch (the same prompt and output, parsed with this protocol). */
function KeepAsBranch({ step, tools, protocol, strict }: { step: StepView; tools: ToolSpec[]; protocol: string; strict: boolean }) {
  const busy = useBranchRun((s) => s.busy);
  const { rerunStep } = useLabStores().branchController;
  const toolTimeoutMs = useConversation((s) => s.active?.settings.toolTimeoutMs ?? 30_000);
  const [message, setMessage] = useState<string | null>(null);
  const chosen = getProtocol(protocol);
  const keep = async () => {
    if (!chosen) return;
    const outcome = await rerunStep(
      {
        origin: { runId: step.runId, stepId: step.id },
        protocol: chosen,
        tools,
        messages: step.messages,
        prompt: step.prompt,
        templateMessages: [...step.templateMessages],
        template: { name: step.template, controlTokens: [...(step.controlTokens ?? [])] },
        settings: step.settings,
        changes: [`re-parsed as ${protocol} (the recorded output, not generated)`],
        toolTimeoutMs,
      },
      step.rawOutput,
    );
    setMessage("error" in outcome ? outcome.error : "Kept as a branch under this step in the timeline.");
  };
  return (
    <p className="dbg-hint">
      Nothing is saved: this is a reading of the recorded output, not a new step.{" "}
      <button type="button" data-testid="reparse-keep" disabled={busy !== null || strict || !chosen} title={strict ? "A branch is parsed as the loop parses; strict mode is a reading only" : undefined} onClick={() => void keep()}>
        Keep as a branch
      </button>
      {message && <span role="status"> {message}</span>}
    </p>
  );
}

/** The explanation's `marker` spans (written in backticks) shown as code, not as backticks. */
function WithCode({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`)/).map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="mono">
            {visibleBidi(part.slice(1, -1))}
          </code>
        ) : (
          <span key={i}>{visibleBidi(part)}</span>
        ),
      )}
    </>
  );
}
