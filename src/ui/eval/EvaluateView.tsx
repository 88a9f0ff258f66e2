// The Evaluate view: choose a suite, an engine, protocols and constraint, run it in the
// background (progress, Stop, Resume), read the matrix and the cases, open a case's step in the
// debugger, export the results, import a results file to compare.
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useEngineState } from "../../app/lab-stores-context.tsx";
import { serverTemplateLabels, serverTemplateNames } from "toolcall-middleware/families/server-templates.ts";
import { BUILTIN_CATEGORIES, type BuiltinCategory } from "../../eval/builtin-suite.ts";
import { resultsCsv } from "../../eval/results-file.ts";
import { formatDuration, formatRate, progressFigures } from "../../eval/progress.ts";
import { listProtocols } from "toolcall-middleware/protocols/registry.ts";
import { PanelBoundary } from "../ErrorBoundary.tsx";
import { DebuggerPane } from "../debugger/DebuggerPane.tsx";
import { useCaseBranches } from "../debugger/use-case-branches.ts";
import { BranchRunnerContext } from "../debugger/use-force-token.ts";
import { useThrottled } from "../debugger/use-throttled.ts";
import { EvalCaseList } from "./EvalCaseList.tsx";
import { EvalEmptyState } from "./EvalEmptyState.tsx";
import { EvalLiveCase } from "./EvalLiveCase.tsx";
import { EvalQuickRun } from "./EvalQuickRun.tsx";
import { EvalMatrix, type MatrixSource } from "./EvalMatrix.tsx";
import { SaveTurnAsCase } from "./SaveTurnAsCase.tsx";
import { runsInThePage, type EvalConfig, type EvalEngineChoice } from "../../store/eval-store.ts";
import { useEvalState, useEvaluation } from "./use-evaluation.ts";
import { HiddenFileInput } from "../HiddenFileInput.tsx";
import "./eval.css";

export default function EvaluateView() {
  const { initEval, openCase, openImportedCase, closeCase, dismissEvalError, setConfig, openExamples } = useEvaluation();
  const status = useEvalState((s) => s.status);
  const error = useEvalState((s) => s.error);
  const run = useEvalState((s) => s.run);
  const results = useEvalState((s) => s.results);
  const jobKeys = useEvalState((s) => s.jobKeys);
  const imported = useEvalState((s) => s.imported);
  const opened = useEvalState((s) => s.opened);
  useEffect(() => void initEval(), [initEval]);
  // The case list (hundreds of rows) redraws at most every 2 s while a run adds results; the
  // matrix and the progress follow every batch.
  const running = status === "running";
  const busyRun = status === "running" || status === "starting";
  const listedNow = useMemo(() => ({ results, jobKeys }), [results, jobKeys]);
  const throttled = useThrottled(listedNow, running ? 2000 : 0);
  const { results: listed, jobKeys: listedKeys } = running ? throttled : listedNow;
  const sources: MatrixSource[] = useMemo(() => [...(results.length > 0 ? [{ label: run?.label ?? "this run", results }] : []), ...imported], [results, run, imported]);

  // Whose cases the list shows: this run's, or an imported results file's (its cases open from the logs it holds).
  const [chosenSource, setChosenSource] = useState<string | null>(null);
  const caseSources: Array<string | null> = [...(results.length > 0 ? [null] : []), ...imported.map((i) => i.label)];
  const shownSource = caseSources.includes(chosenSource) ? chosenSource : (caseSources[0] ?? null);
  const shownImport = shownSource === null ? undefined : imported.find((i) => i.label === shownSource);
  // An imported file's cases are keyed by their place in it.
  const importKeys = useMemo(() => shownImport?.results.map((_, index) => String(index)) ?? [], [shownImport]);

  const empty = sources.length === 0 && status === "idle";
  // Once results exist, what Evaluate needs (and the way to choose an engine) is one click away.
  const [needsShown, setNeedsShown] = useState(false);
  /** The empty state's choice: the setup shows that engine's fields, the first one focused. */
  const chooseEngine = (engine: EvalEngineChoice) => {
    setConfig({ engine });
    requestAnimationFrame(() => {
      const first = document.querySelector<HTMLElement>(engine === "webllm" ? '[data-testid="eval-engine"]' : '[data-testid="eval-base-url"]');
      first?.scrollIntoView({ block: "center" });
      first?.focus();
    });
  };

  return (
    <div className="eval-view" data-testid="evaluate-view">
      {empty || needsShown ? (
        <EvalEmptyState
          onUse={(engine) => {
            setNeedsShown(false);
            chooseEngine(engine);
          }}
          onOpenExamples={() => void openExamples()}
          {...(empty ? {} : { onClose: () => setNeedsShown(false) })}
        />
      ) : (
        <div className="eval-needs-toggle">
          <button type="button" data-testid="eval-show-needs" onClick={() => setNeedsShown(true)}>
            What Evaluate needs
          </button>
          <span className="eval-muted">choose an engine: a model in this page, on the CPU, or a server</span>
        </div>
      )}
      <EvalQuickRun />
      <EvalSetup />
      <SaveTurnAsCase />
      {error && (
        <div className="notice notice-err notice-row" role="alert" data-testid="eval-error">
          <span>{error}</span>
          <button type="button" onClick={dismissEvalError}>
            Dismiss
          </button>
        </div>
      )}
      <EvalProgress />
      <EvalFiles />
      {sources.length > 0 || busyRun ? (
        <div className="eval-board">
          {sources.length > 0 && (
            <div className="eval-board-matrix">
              <h3 className="eval-heading">Matrix</h3>
              <EvalMatrix sources={sources} />
            </div>
          )}
          <EvalLiveCase />
        </div>
      ) : null}
      {(results.length > 0 || imported.length > 0) && (
        <>
          <div className="eval-cases-head">
            <h3 className="eval-heading">Cases</h3>
            {caseSources.length > 1 && (
              <label className="eval-field eval-cases-source">
                <span>of</span>
                <select data-testid="eval-cases-source" value={shownSource ?? THIS_RUN} onChange={(e) => setChosenSource(e.target.value === THIS_RUN ? null : e.target.value)}>
                  {caseSources.map((source) => (
                    <option key={source ?? THIS_RUN} value={source ?? THIS_RUN}>
                      {source ?? `this run${run?.label ? ` (${run.label})` : ""}`}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </div>
          {shownImport ? (
            <EvalCaseList
              key={shownImport.label}
              results={shownImport.results}
              jobKeys={importKeys}
              openedKey={opened?.source === shownImport.label ? opened.jobKey : null}
              onOpen={(key) => openImportedCase(shownImport.label, Number(key))}
              openable={always}
            />
          ) : (
            <EvalCaseList results={listed} jobKeys={listedKeys} openedKey={opened && opened.source === undefined ? opened.jobKey : null} onOpen={(key) => void openCase(key)} />
          )}
        </>
      )}
      {opened && (
        <section className="eval-debugger" aria-label="Case in the debugger" data-testid="eval-case-debugger">
          <div className="eval-debugger-head">
            <h3 className="eval-heading">
              {opened.result.id} · {opened.result.protocol}
              {opened.result.constrained ? " + constrained" : ""}
              {opened.source !== undefined && <span className="eval-muted" data-testid="eval-opened-source"> · {opened.source}</span>}
            </h3>
            <span className={`eval-verdict eval-verdict-${opened.result.pass ? (opened.result.strictPass ? "strict" : "pass") : "fail"}`} data-testid="eval-opened-verdict">
              {opened.result.pass ? (opened.result.strictPass ? "pass" : "pass, not strict") : "fail"}
              {opened.result.reason ? `: ${opened.result.reason}` : ""}
            </span>
            <button type="button" onClick={closeCase}>
              Close
            </button>
          </div>
          {opened.events.length === 0 ? (
            <p className="eval-muted" data-testid="eval-opened-note">
              {opened.note ?? "This case has no recorded step (it failed before it ran)."}
            </p>
          ) : (
            <PanelBoundary name="Debugger" resetKeys={[opened.jobKey, opened.source]}>
              <CaseDebugger key={`${opened.source ?? ""}\u0000${opened.jobKey}`} events={opened.events} />
            </PanelBoundary>
          )}
        </section>
      )}
    </div>
  );
}

/** The select's value for this run's cases (an imported file's value is its label). */
const THIS_RUN = "\u0000this run";
const always = () => true;

function CaseDebugger({ events: recorded }: { events: import("toolcall-middleware/types.ts").LoopEvent[] }) {
  const start = recorded.find((event) => event.type === "run-start");
  const tools = start?.type === "run-start" ? start.tools : [];
  // A branch forced here stays with this case (its events join the case's log on screen), never the Lab's conversation.
  const { events, runner } = useCaseBranches(recorded);
  return (
    <BranchRunnerContext.Provider value={runner}>
      <DebuggerPane events={events} tools={tools} />
    </BranchRunnerContext.Provider>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="eval-field">
      <span>{label}</span>
      {children}
    </label>
  );
}

function EvalSetup() {
  const { setConfig } = useEvaluation();
  const config = useEvalState((s) => s.config);
  const status = useEvalState((s) => s.status);
  const loadedModel = useEngineState((s) => s.loadedModelId);
  const noGpu = useEngineState((s) => s.gpu.state === "unavailable");
  const cpuModel = useEngineState((s) => s.cpuEngine?.name.replace(/^llama\.cpp \(wasm\) /, "") ?? null);
  const busy = status === "running" || status === "starting" || status === "stopping";
  const patch = (p: Partial<EvalConfig>) => setConfig(p);
  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item));
  const server = !runsInThePage(config.engine);
  return (
    <fieldset className="eval-setup" disabled={busy} data-testid="eval-setup">
      <legend>Evaluate tool calling (BFCL cases)</legend>
      <SuiteChoice />
      {config.caseIds && !config.importedSuite && (
        <div className="eval-row" data-testid="eval-preset-cases">
          <span className="eval-label">Cases</span>
          <span>
            the quick CPU run's: <span className="mono">{config.caseIds.join(", ")}</span>
          </span>
          <button type="button" onClick={() => patch({ categories: config.categories })}>
            Choose by category instead
          </button>
        </div>
      )}
      <div className="eval-row" hidden={config.importedSuite !== undefined || config.caseIds !== undefined}>
        <span className="eval-label">Categories</span>
        {BUILTIN_CATEGORIES.map((category) => (
          <label key={category} className="eval-check">
            <input type="checkbox" data-testid={`eval-category-${category}`} checked={config.categories.includes(category)} onChange={(e) => patch({ categories: toggle<BuiltinCategory>(config.categories, category, e.target.checked) })} />
            {category}
          </label>
        ))}
      </div>
      <div className="eval-row">
        <Field label="Cases per category">
          <input type="number" min={1} max={50} data-testid="eval-per-category" value={config.perCategory} onChange={(e) => patch({ perCategory: clampInt(e.target.value, 1, 50) })} />
        </Field>
        <Field label="Seed (0: file order)">
          <input type="number" min={0} data-testid="eval-seed" value={config.seed} onChange={(e) => patch({ seed: clampInt(e.target.value, 0, 2 ** 31) })} />
        </Field>
        <Field label="Temperature">
          <input type="number" min={0} max={2} step={0.1} data-testid="eval-temperature" value={config.temperature} onChange={(e) => patch({ temperature: Math.min(2, Math.max(0, Number(e.target.value) || 0)) })} />
        </Field>
        <Field label="Repeats">
          <input type="number" min={1} max={10} data-testid="eval-repeats" value={config.repeats} onChange={(e) => patch({ repeats: clampInt(e.target.value, 1, 10) })} />
        </Field>
      </div>
      <div className="eval-row">
        <Field label="Engine">
          <select data-testid="eval-engine" value={config.engine} onChange={(e) => patch({ engine: e.target.value as EvalEngineChoice })}>
            <option value="webllm" disabled={noGpu && config.engine !== "webllm"}>
              {loadedModel ? `WebLLM: ${loadedModel}` : noGpu ? "WebLLM (needs WebGPU, which this browser lacks)" : "WebLLM (no model loaded)"}
            </option>
            <option value="cpu" disabled={!cpuModel && config.engine !== "cpu"}>
              {cpuModel ? `CPU: ${cpuModel}` : "CPU (no model loaded)"}
            </option>
            <option value="server-prompt">Server, prompt mode</option>
            <option value="server-native">Server, native tool calling</option>
          </select>
        </Field>
        {server && (
          <>
            <Field label="Base URL">
              <input type="url" data-testid="eval-base-url" value={config.baseUrl} onChange={(e) => patch({ baseUrl: e.target.value })} />
            </Field>
            <Field label="Model id">
              <input type="text" data-testid="eval-model" value={config.model} onChange={(e) => patch({ model: e.target.value })} />
            </Field>
            <Field label="Concurrency">
              <input type="number" min={1} max={64} data-testid="eval-concurrency" value={config.concurrency} onChange={(e) => patch({ concurrency: clampInt(e.target.value, 1, 64) })} />
            </Field>
          </>
        )}
        {config.engine === "server-prompt" && (
          <Field label="Chat template">
            <select data-testid="eval-template" value={config.template} onChange={(e) => patch({ template: e.target.value })}>
              <option value="">from the model's name</option>
              {serverTemplateNames.map((name) => (
                <option key={name} value={name}>
                  {serverTemplateLabels[name]}
                </option>
              ))}
            </select>
          </Field>
        )}
      </div>
      {config.engine !== "server-native" && (
        <div className="eval-row">
          <span className="eval-label">Protocols</span>
          {listProtocols().map((protocol) => (
            <label key={protocol.name} className="eval-check">
              <input type="checkbox" data-testid={`eval-protocol-${protocol.name}`} checked={config.protocols.includes(protocol.name)} onChange={(e) => patch({ protocols: toggle(config.protocols, protocol.name, e.target.checked) })} />
              {protocol.name}
            </label>
          ))}
          <span className="eval-label">Constrained</span>
          <label className="eval-check">
            <input type="checkbox" data-testid="eval-constrained-off" checked={config.constrained.includes(false)} onChange={(e) => patch({ constrained: toggle(config.constrained, false, e.target.checked) })} />
            off
          </label>
          <label className="eval-check">
            <input type="checkbox" data-testid="eval-constrained-on" checked={config.constrained.includes(true)} onChange={(e) => patch({ constrained: toggle(config.constrained, true, e.target.checked) })} />
            on
          </label>
        </div>
      )}
    </fieldset>
  );
}

/** Built-in cases, or BFCL's own files (questions JSON Lines and possible answers) imported. */
function SuiteChoice() {
  const { setImportedSuite, chooseBuiltinSuite } = useEvaluation();
  const imported = useEvalState((s) => s.config.importedSuite);
  const [questions, setQuestions] = useState<File | null>(null);
  const [answers, setAnswers] = useState<File | null>(null);
  const load = async () => {
    if (!questions) return;
    setImportedSuite({ questionsName: questions.name, questions: await questions.text(), ...(answers ? { answersName: answers.name, answers: await answers.text() } : {}) });
  };
  return (
    <div className="eval-row">
      <span className="eval-label">Suite</span>
      {imported ? (
        <>
          <span data-testid="eval-suite-imported">
            {imported.name}: {imported.cases} cases
          </span>
          <button type="button" data-testid="eval-suite-builtin" onClick={chooseBuiltinSuite}>
            Use the built-in cases
          </button>
        </>
      ) : (
        <>
          <span>built-in BFCL cases, or import BFCL files:</span>
          <Field label="Questions (.jsonl)">
            <input type="file" accept=".json,.jsonl" data-testid="eval-suite-questions" onChange={(e) => setQuestions(e.target.files?.[0] ?? null)} />
          </Field>
          <Field label="Possible answers (.jsonl)">
            <input type="file" accept=".json,.jsonl" data-testid="eval-suite-answers" onChange={(e) => setAnswers(e.target.files?.[0] ?? null)} />
          </Field>
          <button type="button" data-testid="eval-suite-import" disabled={!questions} onClick={() => void load()}>
            Import suite
          </button>
        </>
      )}
    </div>
  );
}

function EvalProgress() {
  const { startEval, resumeEval, stopEval } = useEvaluation();
  const status = useEvalState((s) => s.status);
  const run = useEvalState((s) => s.run);
  const results = useEvalState((s) => s.results);
  const session = useEvalState((s) => s.session);
  const interrupted = useEvalState((s) => s.interrupted);
  const busy = status === "running" || status === "starting" || status === "stopping";
  const total = run?.total ?? 0;
  const done = results.length;
  const passed = results.filter((r) => r.pass).length;
  // From the cases finished in this session: the engine's own timings, not the clock.
  const figures = useMemo(() => (session ? progressFigures(session.figures, total - done, session.concurrency) : {}), [session, total, done]);
  const resumable = !busy && run !== null && status === "stopped" && done < total;
  return (
    <div className="eval-progress" data-testid="eval-progress" data-status={status}>
      <div className="eval-buttons">
        <button type="button" data-testid="eval-run" disabled={busy} onClick={() => void startEval()}>
          Run
        </button>
        <button type="button" data-testid="eval-stop" disabled={status !== "running"} onClick={stopEval}>
          Stop
        </button>
        <button type="button" data-testid="eval-resume" disabled={!resumable} onClick={() => void resumeEval()}>
          Resume
        </button>
      </div>
      {run && total > 0 && (
        <>
          <progress max={total} value={done} data-testid="eval-progress-bar" />
          <span data-testid="eval-progress-text">
            {done} / {total} · pass {done > 0 ? `${Math.round((passed / done) * 100)}%` : "–"}
            {status === "done" ? " · done" : status === "stopped" ? (interrupted ? " · interrupted (the page was closed)" : " · stopped") : ""}
          </span>
          {busy && (
            <span className="eval-muted" data-testid="eval-progress-figures">
              {figures.secondsLeft === undefined ? (
                "time left: known once the first case ends"
              ) : (
                <span data-testid="eval-time-left">
                  about {formatDuration(figures.secondsLeft)} left
                  {figures.prefillSecondsLeft !== undefined && figures.decodeSecondsLeft !== undefined
                    ? ` (prefill ${formatDuration(figures.prefillSecondsLeft)}, decode ${formatDuration(figures.decodeSecondsLeft)})`
                    : ""}
                </span>
              )}
              {figures.decodeTokensPerSecond !== undefined && <span data-testid="eval-decode-rate"> · decode {formatRate(figures.decodeTokensPerSecond)} tokens/s</span>}
              {figures.prefillTokensPerSecond !== undefined && <span data-testid="eval-prefill-rate"> · prefill {formatRate(figures.prefillTokensPerSecond)} tokens/s</span>}
            </span>
          )}
        </>
      )}
    </div>
  );
}

function EvalFiles() {
  const { importResultsFile, stopReadingResults, removeImported, exportResultsText } = useEvaluation();
  const reading = useEvalState((s) => s.reading);
  const [exporting, setExporting] = useState(false);
  const results = useEvalState((s) => s.results);
  const imported = useEvalState((s) => s.imported);
  const input = useRef<HTMLInputElement>(null);
  const download = (name: string, type: string, text: string) => {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="eval-files">
      <button
        type="button"
        data-testid="eval-export-json"
        disabled={results.length === 0 || exporting}
        onClick={() => {
          setExporting(true);
          void exportResultsText()
            .then((text) => text !== undefined && download("eval-results.json", "application/json", text))
            .finally(() => setExporting(false));
        }}
      >
        {exporting ? "Exporting…" : "Export JSON"}
      </button>
      <button type="button" data-testid="eval-export-csv" disabled={results.length === 0} onClick={() => download("eval-results.csv", "text/csv", resultsCsv(results))}>
        Export CSV
      </button>
      <button type="button" data-testid="eval-import" onClick={() => input.current?.click()}>
        Import results to compare…
      </button>
      <HiddenFileInput inputRef={input} accept=".json,application/json" testId="eval-import-file" onFile={(file) => void importResultsFile(file, file.name)} />
      {reading && (
        <span className="eval-muted" role="status" data-testid="eval-reading">
          Reading {reading.label} ({(reading.bytes / 1024 / 1024).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB)…{" "}
          <button type="button" data-testid="eval-reading-stop" onClick={stopReadingResults}>
            Stop
          </button>
        </span>
      )}
      {imported.map((i) => (
        <span key={i.label} className="badge" data-testid="eval-imported">
          {i.label} ({i.results.length})
          <button type="button" aria-label={`Remove ${i.label}`} onClick={() => removeImported(i.label)}>
            ×
          </button>
        </span>
      ))}
    </div>
  );
}

function clampInt(text: string, min: number, max: number): number {
  const n = Math.floor(Number(text));
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : min;
}

