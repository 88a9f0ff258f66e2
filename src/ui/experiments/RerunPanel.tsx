// "Edit and re-run": the step's inputs, editable — the exact prompt, or by part (system prompt,
// each tool's description and schema, each message) — plus protocol, sampling, seed and the
// constraint. Run generates the step again on the current engine as a branch in the log and
// shows its output and calls beside the original's. With the replay engine there is no model:
// the person says which output to use (the recorded one by default).
import { useMemo, useRef, useState } from "react";
import { collectParse } from "toolcall-middleware/parser/collect.ts";
import { getProtocol, listProtocols } from "toolcall-middleware/protocols/registry.ts";
import type { GenerationSettings, ParseEvent, ToolSpec } from "toolcall-middleware/types.ts";
import { describeChanges, partsOf, renderParts, toolsOf, withMessageEdited, type RerunParts, type StepInputs } from "../../experiments/rerun-draft.ts";
import type { BranchResult } from "../../experiments/branch-run.ts";
import { currentEngine } from "../../store/branch-controller.ts";
import { useBranchRun, useConversation, useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";
import type { RunView, StepView } from "../debugger/build-steps.ts";
import { visibleBidi } from "../bidi/VisibleBidi.tsx";
import { BranchActions } from "./BranchActions.tsx";
import { CallList, ParseEventList } from "./ParsedCalls.tsx";
import { rerunDifference } from "../../experiments/rerun-difference.ts";
import type { DiffOp } from "../../experiments/text-diff.ts";
import { templateOfRecordedStep } from "../../experiments/recorded-template.ts";

interface RerunPanelProps {
  step: StepView;
  run: RunView | undefined;
  tools: ToolSpec[];
}

function numberOrUndefined(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

export function RerunPanel({ step, run, tools }: RerunPanelProps) {
  const inputs: StepInputs = useMemo(
    () => ({ prompt: step.prompt, templateMessages: step.templateMessages, messages: step.messages, protocol: step.protocol, settings: step.settings, constrained: step.constraint !== undefined }),
    [step],
  );
  const originalParts = useMemo(() => partsOf(inputs, tools, run?.toolSection), [inputs, tools, run?.toolSection]);
  // The engine of the moment: it may be switched, loaded or unloaded while the panel is open.
  const engineState = useEngineState((s) => s);
  const { runController } = useLabStores();
  const now = useMemo(() => currentEngine(runController, engineState), [runController, engineState]);
  const replay = !("error" in now) && now.replay;

  const [prompt, setPrompt] = useState(step.prompt);
  const [promptEditedDirectly, setPromptEditedDirectly] = useState(false);
  const [parts, setParts] = useState<RerunParts>(originalParts);
  const [protocol, setProtocol] = useState(getProtocol(step.protocol) ? step.protocol : "hermes");
  const [sampling, setSampling] = useState({
    temperature: step.settings.temperature?.toString() ?? "",
    topP: step.settings.topP?.toString() ?? "",
    seed: step.settings.seed?.toString() ?? "",
    maxTokens: step.settings.maxTokens?.toString() ?? "",
  });
  const [constrained, setConstrained] = useState(step.constraint !== undefined);
  const [output, setOutput] = useState(step.rawOutput);
  const [partsError, setPartsError] = useState<string | null>(null);
  const [result, setResult] = useState<BranchResult | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const latestEdit = useRef(0);
  const busy = useBranchRun((s) => s.busy);
  const { rerunStep, stopBranch } = useLabStores().branchController;
  const toolTimeoutMs = useConversation((s) => s.active?.settings.toolTimeoutMs ?? 30_000);

  const settings: GenerationSettings = useMemo(() => {
    const next: GenerationSettings = { ...step.settings };
    for (const key of ["temperature", "topP", "seed", "maxTokens"] as const) {
      const value = numberOrUndefined(sampling[key]);
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    return next;
  }, [step.settings, sampling]);

  /** Parts changed: the prompt is rendered again from them (a direct edit of the text is replaced). */
  const rerender = async (nextParts: RerunParts, nextProtocol: string) => {
    setParts(nextParts);
    const edited = toolsOf(nextParts);
    const chosen = getProtocol(nextProtocol);
    if ("error" in edited) {
      setPartsError(edited.error);
      return;
    }
    if (!chosen || "error" in now) return;
    setPartsError(null);
    // A GGUF's own template renders in a worker: only the newest edit's prompt is shown.
    const edit = ++latestEdit.current;
    try {
      const { prompt: rendered } = await renderParts(nextParts, edited.tools, chosen, now.template);
      if (edit !== latestEdit.current) return;
      setPrompt(rendered);
      setPromptEditedDirectly(false);
    } catch (error) {
      if (edit !== latestEdit.current) return;
      setPartsError(`The prompt could not be rendered: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const changes = describeChanges(inputs, originalParts, step.rawOutput, { prompt, promptEditedDirectly, parts, protocol, settings, constrained, output: replay ? output : null });

  const onRun = async () => {
    const chosen = getProtocol(protocol);
    const edited = toolsOf(parts);
    if (!chosen || "error" in edited || "error" in now) return;
    setRunError(null);
    setResult(null);
    let rendered: Awaited<ReturnType<typeof renderParts>> | null;
    try {
      rendered = promptEditedDirectly || prompt === step.prompt ? null : await renderParts(parts, edited.tools, chosen, now.template);
    } catch (error) {
      setRunError(`The prompt could not be rendered: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const outcome = await rerunStep(
      {
        origin: { runId: step.runId, stepId: step.id },
        protocol: chosen,
        tools: edited.tools,
        messages: parts.messages,
        prompt,
        templateMessages: rendered?.templateMessages ?? [...step.templateMessages],
        // Rendered from the parts: the current engine's template; else the recorded step's text (edited or not).
        template: rendered ? now.template : templateOfRecordedStep(step, now.template.controlTokens),
        settings,
        changes,
        toolTimeoutMs,
        ...(constrained ? { constrain: { toolChoice: step.constraint?.toolChoice ?? "auto" } } : {}),
      },
      replay ? output : null,
    );
    if ("error" in outcome) setRunError(outcome.error);
    else setResult(outcome);
  };

  const recordedEvents = useMemo(() => step.parseEvents.map((e) => e.event), [step.parseEvents]);
  const recorded = useMemo(() => collectParse(recordedEvents), [recordedEvents]);
  // What the branch changed, marked on both outputs (a word diff, bounded as Compare's is).
  const difference = useMemo(
    () => (result ? rerunDifference({ rawOutput: step.rawOutput, calls: recorded.calls }, { rawOutput: result.output.rawOutput, calls: result.output.calls }) : null),
    [result, step.rawOutput, recorded.calls],
  );
  const engineNote =
    "error" in now
      ? `No engine: ${now.error}`
      : now.template.name !== step.template
        ? `This step ran with the template ${step.template}; the current engine (${now.engine.name}) renders with ${now.template.name}. The re-run runs on a different model or template, so its output can differ for that reason alone.`
        : null;
  const seedNote = "error" in now
    ? null
    : replay
      ? "The replay engine has no model: the re-run uses the output below (the recorded one unless you edit it), parsed as the loop would."
      : now.engine.name.startsWith("openai")
        ? "A server may ignore the seed: even an unchanged re-run may not reproduce the original."
        : "Same seed and sampling as the original unless you change them: an unchanged re-run on the same model reproduces it.";

  return (
    <section className="xp-panel" aria-label="Edit and re-run" data-testid="rerun-panel">
      {engineNote && (
        <p className="xp-note tone-warn" role="status" data-testid="rerun-engine-note">
          {engineNote}
        </p>
      )}
      {seedNote && (
        <p className="dbg-hint" data-testid="rerun-seed-note">
          {seedNote}
        </p>
      )}
      <div className="xp-bar">
        <label className="xp-control">
          Protocol{" "}
          <select data-testid="rerun-protocol" value={protocol} onChange={(e) => { setProtocol(e.target.value); void rerender(parts, e.target.value); }}>
            {listProtocols().map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        {(["temperature", "topP", "seed", "maxTokens"] as const).map((key) => (
          <label key={key} className="xp-control">
            {key === "topP" ? "top_p" : key === "maxTokens" ? "max tokens" : key}{" "}
            <input className="xp-number" data-testid={`rerun-${key}`} inputMode="decimal" value={sampling[key]} onChange={(e) => setSampling({ ...sampling, [key]: e.target.value })} />
          </label>
        ))}
        <label className="xp-control">
          <input type="checkbox" data-testid="rerun-constrained" checked={constrained} onChange={(e) => setConstrained(e.target.checked)} /> constrained
        </label>
      </div>
      <details className="xp-parts" open>
        <summary>By part (the prompt is rendered again from these)</summary>
        <label className="xp-field">
          System prompt
          <textarea data-testid="rerun-system" value={parts.systemPrompt} onChange={(e) => void rerender({ ...parts, systemPrompt: e.target.value }, protocol)} rows={3} />
        </label>
        {parts.tools.map((tool, i) => (
          <details key={tool.name} className="xp-tool">
            <summary>Tool {tool.name}</summary>
            <label className="xp-field">
              Description
              <input data-testid="rerun-tool-description" value={tool.description} onChange={(e) => void rerender({ ...parts, tools: parts.tools.map((t, j) => (j === i ? { ...t, description: e.target.value } : t)) }, protocol)} />
            </label>
            <label className="xp-field">
              Schema (JSON)
              <textarea className="mono" data-testid="rerun-tool-schema" rows={5} value={tool.schema} onChange={(e) => void rerender({ ...parts, tools: parts.tools.map((t, j) => (j === i ? { ...t, schema: e.target.value } : t)) }, protocol)} />
            </label>
          </details>
        ))}
        {parts.messages.map((message, i) => (
          <label key={i} className="xp-field">
            Message {i + 1} ({message.role})
            <textarea data-testid="rerun-message" rows={2} value={message.content} onChange={(e) => void rerender(withMessageEdited(parts, i, e.target.value), protocol)} />
          </label>
        ))}
        {partsError && (
          <p className="xp-note tone-err" role="alert">
            {partsError}
          </p>
        )}
      </details>
      <label className="xp-field">
        Exact prompt ({prompt.length.toLocaleString("en")} characters{prompt === step.prompt ? ", as recorded" : ""})
        <textarea
          className="mono xp-prompt"
          data-testid="rerun-prompt"
          rows={8}
          value={prompt}
          onChange={(e) => {
            setPrompt(e.target.value);
            setPromptEditedDirectly(true);
          }}
        />
      </label>
      {replay && (
        <label className="xp-field">
          Output to use (the replay engine does not generate)
          <textarea className="mono" data-testid="rerun-output" rows={4} value={output} onChange={(e) => setOutput(e.target.value)} />
        </label>
      )}
      <div className="xp-bar">
        <button type="button" data-testid="rerun-run" disabled={busy !== null || "error" in now || partsError !== null} onClick={() => void onRun()}>
          Run
        </button>
        {busy && (
          <button type="button" onClick={stopBranch}>
            Stop
          </button>
        )}
        <span className="dbg-hint" data-testid="rerun-changes">
          {changes.length === 0 ? "Unchanged: the same inputs as the original." : `Changed: ${changes.join("; ")}`}
        </span>
      </div>
      {runError && (
        <p className="xp-note tone-err" role="alert" data-testid="rerun-error">
          {runError}
        </p>
      )}
      {result && difference && (
        <div data-testid="rerun-result">
          {result.refused && (
            <p className="xp-note tone-err" role="alert" data-testid="rerun-refused">
              {result.refused}
            </p>
          )}
          <p className="dbg-hint xp-key" data-testid="rerun-difference">
            {difference.summary} <span className="xp-delete">dropped</span> and <span className="xp-insert">added</span> words are marked.
          </p>
          <div className="xp-sides">
            <OutputSide title={`original · ${step.protocol}`} marked={difference.original} calls={recorded.calls} events={recordedEvents} testId="rerun-original" />
            <OutputSide title={`branch · ${protocol} · ${result.status}`} marked={difference.branch} calls={result.output.calls} events={result.parseEvents} testId="rerun-branch" />
          </div>
          <BranchActions
            branch={{
              runId: result.runId,
              stepId: result.stepId,
              output: result.output,
              protocolName: protocol,
              messages: parts.messages,
              systemPrompt: parts.systemPrompt,
              ...toolSpecsOf(parts),
            }}
          />
        </div>
      )}
    </section>
  );
}

/** Parse events listed beside an output: the decisions (calls, repairs, errors) and how many in all. */
const DECISION_ROWS = 40;

function OutputSide({ title, marked, calls, events, testId }: { title: string; marked: readonly DiffOp[]; calls: { id: string; name: string; arguments: Record<string, unknown> }[]; events: readonly ParseEvent[]; testId: string }) {
  return (
    <div className="xp-side" data-testid={testId}>
      <h4>{title}</h4>
      <pre className="xp-raw xp-words" data-testid={`${testId}-output`}>
        {marked.map((op, i) => (
          <span key={i} className={`xp-${op.type}`} data-diff={op.type === "equal" ? undefined : op.type}>
            {visibleBidi(op.items.join(""))}
          </span>
        ))}
      </pre>
      <CallList calls={calls} testId={`${testId}-calls`} />
      <ParseEventList events={events} listed="decisions" rows={DECISION_ROWS} testId={`${testId}-parse-count`} />
    </div>
  );
}

/** The edited tools, for a continuation of the branch (none when a schema does not read). */
function toolSpecsOf(parts: RerunParts): { toolSpecs?: ToolSpec[] } {
  const edited = toolsOf(parts);
  return "tools" in edited ? { toolSpecs: edited.tools } : {};
}
