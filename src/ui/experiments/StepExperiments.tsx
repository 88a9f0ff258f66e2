// The experiments a debugger step offers: read its output as another protocol (Parse as…),
// edit its inputs and run it again as a branch (Edit and re-run), and compare it with another
// step. A bar under the step's header; each opens its own panel.
import { branchOutcome, describeOutcome } from "../../experiments/branch-outcome.ts";
import { useConversation, useLabStores } from "../../app/lab-stores-context.tsx";
import "./experiments.css";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { StepFolder } from "../debugger/build-steps.ts";
import { listProtocols } from "toolcall-middleware/protocols/registry.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { collectParse } from "toolcall-middleware/parser/collect.ts";
import { userSystemPrompt } from "../../experiments/rerun-draft.ts";
import type { RunView, StepsModel, StepView } from "../debugger/build-steps.ts";
import { stepLabel } from "../debugger/format.ts";
import type { ComparedStep } from "./CompareSteps.tsx";

// The panels load when first opened: the first screen does not carry them (docs/measured.md).
const CompareSteps = lazy(() => import("./CompareSteps.tsx").then((m) => ({ default: m.CompareSteps })));
const BranchActions = lazy(() => import("./BranchActions.tsx").then((m) => ({ default: m.BranchActions })));
const ReparsePanel = lazy(() => import("./ReparsePanel.tsx").then((m) => ({ default: m.ReparsePanel })));
const DerivedTwinPanel = lazy(() => import("./ReparsePanel.tsx").then((m) => ({ default: m.DerivedTwinPanel })));

/** Parse as…'s choice of the format derived from the step's own model template (no registered protocol has a space in its name). */
export const DERIVED_TWIN_CHOICE = "derived from its template";
const RerunPanel = lazy(() => import("./RerunPanel.tsx").then((m) => ({ default: m.RerunPanel })));
const loadingPanel = <p className="dbg-hint">Loading…</p>;

export interface StepExperimentsProps {
  step: StepView;
  run: RunView | undefined;
  /** Every step of the conversation (the steps to compare with). */
  model: StepsModel;
  /** The tools of the step's run, as recorded. */
  tools: ToolSpec[];
}

/** A debugger step as the compare view takes it. */
export function comparable(step: StepView, label = stepLabel(step)): ComparedStep {
  return {
    label,
    protocol: step.protocol,
    prompt: step.prompt,
    ...(step.request ? { request: step.request } : {}),
    templateMessages: step.templateMessages,
    ...(step.toolSectionAt ? { toolSectionAt: step.toolSectionAt } : {}),
    rawOutput: step.rawOutput,
    parseEvents: step.parseEvents.map((e) => e.event),
    usage: step.usage,
    ...(step.durationMs !== undefined ? { durationMs: step.durationMs } : {}),
    template: step.template,
    controlTokens: step.controlTokens ?? [],
  };
}

export function StepExperiments({ step, run, model, tools }: StepExperimentsProps) {
  const { loadConversationEvents } = useLabStores().conversations;
  const protocols = useMemo(() => listProtocols(), []);
  const [reparseAs, setReparseAs] = useState("");
  const [strict, setStrict] = useState(false);
  const [rerunOpen, setRerunOpen] = useState(false);
  const [compareWith, setCompareWith] = useState("");
  // Steps to compare with: this conversation's, or another saved one's (read, not opened).
  const conversations = useConversation((s) => s.list);
  const activeId = useConversation((s) => s.active?.id);
  const [source, setSource] = useState("");
  const [otherModel, setOtherModel] = useState<{ id: string; model: StepsModel } | { id: string; error: string } | null>(null);
  useEffect(() => {
    if (source === "" || source === activeId) return;
    let current = true;
    loadConversationEvents(source).then(
      (events) => current && setOtherModel(events ? { id: source, model: new StepFolder().update(events) } : { id: source, error: "That conversation is no longer stored." }),
      (error: unknown) => current && setOtherModel({ id: source, error: `It could not be read: ${error instanceof Error ? error.message : String(error)}` }),
    );
    return () => {
      current = false;
    };
  }, [source, activeId, loadConversationEvents]);
  const fromOther = source !== "" && source !== activeId;
  const candidates: StepsModel | null = !fromOther ? model : otherModel && otherModel.id === source && "model" in otherModel ? otherModel.model : null;
  const otherTitle = fromOther ? (conversations.find((c) => c.id === source)?.title ?? "another conversation") : null;
  const other = compareWith !== "" ? candidates?.steps.get(compareWith) : undefined;
  // A is the earlier step, B the later, so the diff reads forwards (another conversation's step is A).
  const compared = useMemo(() => {
    if (!other || (!fromOther && other.key === step.key)) return null;
    const otherSide = comparable(other, `${otherTitle ? `${otherTitle} · ` : ""}${stepLabel(other)}`);
    const thisSide = comparable(step);
    const otherFirst = fromOther || model.order.indexOf(other.key) < model.order.indexOf(step.key);
    return otherFirst ? { a: otherSide, b: thisSide } : { a: thisSide, b: otherSide };
  }, [other, step, fromOther, otherTitle, model]);
  const nativeStep = step.request !== undefined;
  // The step's recorded model template, read by the format derived from it (a native step's calls came from the server).
  const twinTemplate = nativeStep ? undefined : step.modelChatTemplate;
  const readsTwin = reparseAs === DERIVED_TWIN_CHOICE && twinTemplate !== undefined;
  const finished = step.status !== "running";
  return (
    <div className="xp" data-testid="step-experiments">
      <div className="xp-bar">
        <label className="xp-control" title="Read the recorded raw output again with another protocol, without generating">
          Parse as…{" "}
          <select data-testid="reparse-protocol" value={reparseAs} disabled={!finished} onChange={(e) => setReparseAs(e.target.value)}>
            <option value="">—</option>
            {(twinTemplate !== undefined || reparseAs === DERIVED_TWIN_CHOICE) && (
              <option value={DERIVED_TWIN_CHOICE} title="The call format derived from the chat template the model's file carries, to set beside the recorded protocol">
                the format derived from its template
              </option>
            )}
            {protocols.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="xp-control" title="No repairs and no lenient readings: a call must be written as the protocol writes calls">
          <input type="checkbox" data-testid="reparse-strict" checked={strict} onChange={(e) => setStrict(e.target.checked)} /> strict
        </label>
        {reparseAs !== "" && (
          <button type="button" onClick={() => setReparseAs("")}>
            Close
          </button>
        )}
        <button type="button" data-testid="step-rerun" aria-expanded={rerunOpen} disabled={!finished || nativeStep} title={nativeStep ? "A native step has no prompt of ours to edit" : undefined} onClick={() => setRerunOpen(!rerunOpen)}>
          Edit and re-run
        </button>
        <label className="xp-control" title="Set this step against another: prompts, outputs, calls, timings">
          Compare with…{" "}
          {conversations.length > 1 && (
            <select
              data-testid="compare-conversation"
              value={source === "" ? (activeId ?? "") : source}
              onChange={(e) => {
                setSource(e.target.value);
                setCompareWith("");
              }}
            >
              {conversations.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.id === activeId ? "this conversation" : c.title}
                </option>
              ))}
            </select>
          )}
          <select data-testid="compare-with" value={compareWith} onChange={(e) => setCompareWith(e.target.value)}>
            <option value="">{fromOther && !candidates ? "reading…" : "—"}</option>
            {(candidates?.order ?? [])
              .filter((key) => fromOther || key !== step.key)
              .map((key) => {
                const candidate = candidates!.steps.get(key)!;
                return (
                  <option key={key} value={key}>
                    {!fromOther && candidate.key === step.branch?.fromKey ? "the original: " : ""}
                    {stepLabel(candidate)} · {candidate.protocol}
                  </option>
                );
              })}
          </select>
        </label>
      </div>
      {otherModel && "error" in otherModel && otherModel.id === source && (
        <p className="xp-note tone-err" role="alert">
          {otherModel.error}
        </p>
      )}
      <Suspense fallback={loadingPanel}>
        {step.branch && <BranchNote step={step} run={run} />}
        {compared && <CompareSteps a={compared.a} b={compared.b} />}
        {rerunOpen && <RerunPanel key={step.key} step={step} run={run} tools={tools} />}
        {nativeStep && reparseAs !== "" && reparseAs !== DERIVED_TWIN_CHOICE && <p className="dbg-hint">A native step's output is the server's text; its calls came structured, so a re-read sees only the text.</p>}
        {reparseAs === DERIVED_TWIN_CHOICE && !readsTwin && (
          <p className="dbg-hint" data-testid="derived-twin-unavailable">
            {nativeStep ? "A native step's calls came from the server's own reading; there is no template of ours to derive from." : "This step records no chat template of its model's own (only a GGUF's, on the CPU engine, is recorded; not in older logs), so there is no format to derive from it."}
          </p>
        )}
        {readsTwin && <DerivedTwinPanel key={step.key} step={step} template={twinTemplate} tools={tools} strict={strict} />}
        {reparseAs !== "" && reparseAs !== DERIVED_TWIN_CHOICE && <ReparsePanel step={step} tools={tools} protocol={reparseAs} strict={strict} />}
      </Suspense>
    </div>
  );
}

/** On a branch's step: what it re-ran and what changed; while its run is open, continue or discard. */
function BranchNote({ step, run }: { step: StepView; run: RunView | undefined }) {
  const branch = step.branch!;
  const recorded = useMemo(() => collectParse(step.parseEvents.map((e) => e.event)), [step.parseEvents]);
  const outcome = useMemo(() => branchOutcome(step.parseEvents.map((e) => e.event), step.status), [step.parseEvents, step.status]);
  const own = !branch.continues && run !== undefined && step.status !== "running";
  const ended = run?.ended === true;
  return (
    <div className="xp-panel" data-testid="branch-note">
      <p className="xp-explain">
        {branch.continues ? "Continues a branch." : `A re-run (branch) of an earlier step. Changed: ${branch.changes.length > 0 ? branch.changes.join("; ") : "nothing (the same inputs)"}.`}
      </p>
      {!branch.continues && (
        <p className="xp-explain" data-testid="branch-outcome" data-outcome={outcome.kind}>
          <strong>What came of it:</strong> {describeOutcome(outcome)}.
        </p>
      )}
      {own && ended && (
        <p className="dbg-hint" data-testid="branch-ended">
          {run?.discarded ? "Discarded." : `This branch went on and ended: ${run?.status ?? "unknown"}.`}
        </p>
      )}
      {own && (
        <BranchActions
          closed={ended}
          branch={{
            runId: step.runId,
            stepId: step.id,
            output: { content: recorded.text, reasoning: recorded.reasoning, calls: recorded.calls, rawOutput: step.rawOutput },
            protocolName: step.protocol,
            messages: step.messages,
            // What the branch recorded: its system text without the tool section, and its tools.
            systemPrompt: userSystemPrompt(step.templateMessages, run?.toolSection),
            ...(run ? { toolSpecs: run.tools } : {}),
          }}
        />
      )}
    </div>
  );
}
