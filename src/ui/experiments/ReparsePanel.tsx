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
import type { DerivedFormat } from "toolcall-middleware/derive/derive-format.ts";
import { DERIVED_PROTOCOL_PREFIX, type TwinDerivation } from "../../store/derived-protocols.ts";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import { CallList, ParseEventList } from "./ParsedCalls.tsx";
import { createReparseRunner } from "./reparse-runner.ts";
import { templateOfRecordedStep } from "../../experiments/recorded-template.ts";

const ROWS = 200;

/** The name a step's derived twin reads as: the file's, where the step ran on a GGUF's own template. */
export function twinProtocolName(step: Pick<StepView, "template">): string {
  return `${DERIVED_PROTOCOL_PREFIX}${step.template.startsWith("gguf:") ? step.template.slice("gguf:".length) : "the model's own"}`;
}

/**
 * "Parse as… the format derived from its template": the step's recorded model chat template is
 * derived in the page's kept worker (the same template once), then the output is read by that
 * format beside the recorded reading. Until then the panel says so; a template that does not
 * derive says why here, and nothing else changes.
 */
export function DerivedTwinPanel({ step, template, tools, strict }: { step: StepView; template: string; tools: ToolSpec[]; strict: boolean }) {
  const { derivedProtocols } = useLabStores();
  const [twin, setTwin] = useState<{ template: string; result: TwinDerivation } | null>(null);
  useEffect(() => {
    let current = true;
    void derivedProtocols
      .getState()
      .twinOf(template)
      .then((result) => current && setTwin({ template, result }));
    return () => {
      current = false;
    };
  }, [derivedProtocols, template]);
  const result = twin?.template === template ? twin.result : null;
  return <DerivedTwinView step={step} tools={tools} strict={strict} twin={result} />;
}

/** The derived twin's reading as it stands: deriving, cannot derive (why), or its words and the two readings side by side. */
export function DerivedTwinView({ step, tools, strict, twin }: { step: StepView; tools: ToolSpec[]; strict: boolean; twin: TwinDerivation | null }) {
  const name = twinProtocolName(step);
  if (!twin) {
    return (
      <section className="xp-panel" aria-label="Parse as" data-testid="reparse-view" aria-busy="true">
        <p className="xp-explain" data-testid="derived-twin-pending" role="status">
          Deriving the call format from the model's own chat template…
        </p>
      </section>
    );
  }
  if (!twin.ok) {
    return (
      <section className="xp-panel" aria-label="Parse as" data-testid="reparse-view">
        <p className="xp-explain tone-warn" data-testid="derived-twin-failure" role="status">
          The model's own chat template gives no format to read this step with: {visibleBidi(twin.reason)}
        </p>
      </section>
    );
  }
  return (
    <>
      <div className="xp-panel" data-testid="derived-twin-words">
        <p className="xp-explain">
          The format derived from the model's own chat template (<code className="mono">{visibleBidi(name)}</code>), read beside the recorded {visibleBidi(step.protocol)}:
        </p>
        <ul className="dbg-derivation">
          {twin.lines.map((line, i) => (
            <li key={i}>
              <WithCode text={line} />
            </li>
          ))}
        </ul>
      </div>
      <ReparsePanel step={step} tools={tools} protocol={name} strict={strict} derived={twin.format} />
    </>
  );
}

export function ReparsePanel({ step, tools, protocol, strict, derived }: { step: StepView; tools: ToolSpec[]; protocol: string; strict: boolean; derived?: DerivedFormat }) {
  const recordedEvents = useMemo(() => step.parseEvents.map((e) => e.event), [step.parseEvents]);
  const recorded = useMemo(() => collectParse(recordedEvents), [recordedEvents]);
  // The re-read runs in a worker; until it answers, the panel says so.
  const [view, setView] = useState<{ key: string; view: ReparseView } | null>(null);
  const key = `${step.runId}/${step.id}/${derived ? "derived:" : ""}${protocol}/${strict}`;
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
    runner.current?.run({ rawOutput: step.rawOutput, tools, protocol, strict, recorded, ...(recordedCallEnd ? { recordedCallEnd } : {}), ...(derived ? { derived } : {}) });
  }, [key, step.rawOutput, tools, protocol, strict, recorded, recordedEvents, derived]);
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
      {derived ? (
        <p className="dbg-hint">Nothing is saved: this is a reading of the recorded output by the derived format, not a new step.</p>
      ) : (
        <KeepAsBranch step={step} tools={tools} protocol={protocol} strict={strict} />
      )}
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
        template: templateOfRecordedStep(step),
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
