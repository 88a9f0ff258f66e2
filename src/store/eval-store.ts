// The Evaluate view's state and its runner: an evaluation runs here, in the background, whatever
// view is shown (the chat stays usable). Each finished case is saved to IndexedDB with its event
// log at once, so a reload keeps the results and the run can be resumed where it stopped.
// Results reach the view in batches (a few times a second), not one re-render per case.
import { createStore, type StoreApi } from "zustand/vanilla";
import { listModels, OpenAiEngine } from "../engine/openai/openai-engine.ts";
import { ServerFailure } from "../engine/openai/server-failure.ts";
import { inferServerTemplate, serverChatTemplate, serverTemplateNames, type ServerTemplateName } from "toolcall-middleware/families/server-templates.ts";
import { chatTemplateForModel } from "toolcall-middleware/families/registry.ts";
import { BUILTIN_CATEGORIES, isBuiltinCategory, loadBuiltinSuite, sampleCases, type BuiltinCategory } from "../eval/builtin-suite.ts";
import { casePromptStart, QUICK_CPU_PRESET, type MeasuredRates } from "../eval/quick-preset.ts";
import type { WarmedPrompt } from "../engine/cpu/cpu-engine.ts";
import { caseLogOf, readCaseLog } from "../eval/case-log.ts";
import { readResultsFileInSlices, resultsFileText, resultsFileTooLarge, toResultsFile } from "../eval/results-file.ts";
import { failedResult, readsValuesAsText, runEvalCase, type EvalResult } from "../eval/run-case.ts";
import { planJobs, runJobs } from "../eval/run-matrix.ts";
import { categoryOf, importBfclSuite, type EvalCase } from "../eval/suite.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatTemplate, Engine, LoopEvent } from "toolcall-middleware/types.ts";
import { createEvalRepository, type EvalRepository, type StoredEvalRun, type StoredSavedCase } from "../persistence/eval-db.ts";
import { savedCaseLines, type TurnToSave } from "../eval/saved-case.ts";
import { pacedEngine } from "../eval/paced-engine.ts";
import { createYieldPoint } from "./yield-to-page.ts";
import { caseFigures, type CaseFigures } from "../eval/progress.ts";
import { stepDecisionPoint } from "toolcall-middleware/probabilities/step-decision.ts";
import { describeDecisionPoint } from "toolcall-middleware/probabilities/decision-point.ts";
import type { EngineState, EngineStore } from "./engine-store.ts";

/** "cpu": the model loaded on llama.cpp in WebAssembly in this page (one case at a time, like WebLLM). */
export type EvalEngineChoice = "webllm" | "cpu" | "server-prompt" | "server-native";

/** Whether the choice is a model in this page (one engine, one case at a time). */
export const runsInThePage = (engine: EvalEngineChoice): boolean => engine === "webllm" || engine === "cpu";

/** A suite imported from BFCL's own files, kept as text so that a resumed run reads it again. */
export interface ImportedSuite {
  name: string;
  questions: string;
  answers?: string;
  cases: number;
}

export interface EvalConfig {
  /** When set, the run's cases come from these files instead of the built-in categories. */
  importedSuite?: ImportedSuite;
  categories: BuiltinCategory[];
  /** When set, only these built-in cases run, in this order (a preset's); categories and cases per category are ignored. */
  caseIds?: string[];
  perCategory: number;
  seed: number;
  engine: EvalEngineChoice;
  baseUrl: string;
  model: string;
  /** A server template name, or "" to infer it from the model's name. */
  template: string;
  protocols: string[];
  /** Which constraint settings to run. */
  constrained: boolean[];
  repeats: number;
  /** Cases at once on a server (WebLLM and the CPU engine: always one). */
  concurrency: number;
  maxTokens: number;
  /** Sampling temperature (0: greedy; repeats measure variance only above 0). */
  temperature: number;
}

export const DEFAULT_EVAL_CONFIG: EvalConfig = {
  categories: [...BUILTIN_CATEGORIES],
  perCategory: 5,
  seed: 0,
  engine: "server-prompt",
  baseUrl: "http://localhost:8000/v1",
  model: "",
  template: "",
  protocols: ["hermes"],
  constrained: [false],
  repeats: 1,
  concurrency: 4,
  maxTokens: 512,
  temperature: 0,
};

export type EvalStatus = "idle" | "starting" | "running" | "stopping" | "stopped" | "done";

export interface ImportedResults {
  label: string;
  results: EvalResult[];
}

export interface EvalState {
  config: EvalConfig;
  status: EvalStatus;
  /** The run shown (and resumable), if any. */
  run: StoredEvalRun<EvalConfig> | null;
  results: EvalResult[];
  /** Job key of each result, same order. */
  jobKeys: string[];
  error: string | null;
  /** Set when the page went away mid-run. */
  interrupted: boolean;
  /** For the progress figures of this session's part of the run: what each case finished in it took. */
  session: { startedAt: number; doneAtStart: number; figures: CaseFigures[]; concurrency: number } | null;
  /** The case running now, its reply as it streams. */
  live: LiveCase | null;
  /** The case that ended last: its verdict, reason and decision point. */
  lastFinished: FinishedCase | null;
  imported: ImportedResults[];
  /** The case whose step the debugger shows. */
  opened: OpenedCase | null;
  /** Cases saved from conversation turns. */
  saved: StoredSavedCase[];
  /** Prefill and decode rates the in-page CPU engine last reached in an Evaluate case (for what a run will take). */
  measuredRates: MeasuredRates | null;
  /** The quick run's first case's prompt start read into the CPU engine's cache before the click (null: not asked). */
  quickWarm: QuickWarm | null;
  /** A results file being read (in a worker), with its size in bytes. */
  reading: { label: string; bytes: number } | null;
}

export type QuickWarm =
  | { state: "warming"; caseId: string }
  | { state: "ready"; caseId: string; tokens: number; readTokens: number; elapsedMs: number }
  | { state: "failed"; caseId: string; message: string };

/** A case shown in the debugger: of this run (read from IndexedDB) or of an imported results file (its `log`). */
export interface OpenedCase {
  /** The case's key in its list: a job key for this run, its place in the file for an imported one. */
  jobKey: string;
  /** The imported results file's label; absent for a case of this run. */
  source?: string;
  result: EvalResult;
  events: LoopEvent[];
  /** Why no step is shown, when none is. */
  note?: string;
}

/** How much of the running case's reply the view keeps (its end: what is being written). */
export const LIVE_OUTPUT_CHARS = 4_000;

export interface LiveCase {
  jobKey: string;
  id: string;
  protocol: string;
  constrained: boolean;
  /** The reply so far, its last LIVE_OUTPUT_CHARS characters. */
  output: string;
  /** Characters of reply so far (all of it, also those no longer kept). */
  outputChars: number;
}

export interface FinishedCase {
  jobKey: string;
  result: EvalResult;
  /** The decision point in words (from the case's recorded tokens). */
  decision: string;
}

export type EvalStore = StoreApi<EvalState>;

/**
 * The page's evaluation: its store and the runner's actions. Made on first use (the Evaluate
 * view's code loads on demand) and kept with the page's stores, so a run goes on in the
 * background whatever view is shown.
 */
export function createEvaluation(engineStore: EngineStore) {
  const store = createStore<EvalState>()(() => ({
    config: DEFAULT_EVAL_CONFIG,
    status: "idle",
    run: null,
    results: [],
    jobKeys: [],
    error: null,
    interrupted: false,
    session: null,
    live: null,
    lastFinished: null,
    imported: [],
    opened: null,
    saved: [],
    measuredRates: null,
    quickWarm: null,
    reading: null,
  }));

  const set = store.setState;
  const get = store.getState;

  // Handles, not state: the repository and the running evaluation's controller.
  let repository: EvalRepository | null = null;
  let running: AbortController | null = null;
  /** Settles when the running evaluation's last case has given the engine back (after a Stop too). */
  let settled: Promise<void> = Promise.resolve();
  /** Hands the finished cases waiting for the next batch to the view at once (set while a run goes). */
  let flushNow: (() => void) | null = null;
  const repo = () => (repository ??= createEvalRepository());

  let initialised = false;

  /** Loads the latest run from IndexedDB (once, when the view first opens). */
  async function initEval(): Promise<void> {
    if (initialised) return;
    initialised = true;
    void repo()
      .savedCases()
      .then((saved) => set({ saved }))
      .catch(() => {});
    try {
      const latest = await repo().latest();
      if (!latest) return;
      const run = latest.run as StoredEvalRun<EvalConfig>;
      const interrupted = run.status === "running";
      set({
        run,
        config: { ...DEFAULT_EVAL_CONFIG, ...run.config },
        results: latest.results.map((r) => r.result),
        jobKeys: latest.results.map((r) => r.jobKey),
        status: run.status === "done" ? "done" : "stopped",
        interrupted,
      });
    } catch (error) {
      set({ error: `The saved evaluation could not be read: ${describe(error)}` });
    }
  }

  /** Changes settings; a change to which cases run leaves a preset's list of cases. */
  function setConfig(patch: Partial<EvalConfig>): void {
    const choosesCases = "categories" in patch || "perCategory" in patch || "seed" in patch;
    const { caseIds, ...rest } = get().config;
    set({ config: { ...rest, ...(caseIds && !choosesCases ? { caseIds } : {}), ...patch } });
  }

  /** Starts a new run with the current settings (the previous run's results are replaced). */
  async function startEval(): Promise<void> {
    const config = get().config;
    const id = `eval-${Date.now().toString(36)}`;
    const label = describeConfig(config, engineStore.getState());
    await go(config, { id, config, total: 0, status: "running", startedAt: Date.now(), label }, true);
  }

  /** The quick run on the CPU: the preset's cases on the model loaded in the page, with its settings. */
  async function startQuickCpuRun(): Promise<void> {
    const { importedSuite: _suite, ...rest } = get().config;
    set({
      config: {
        ...rest,
        engine: "cpu",
        caseIds: QUICK_CPU_PRESET.cases.map((c) => c.id),
        categories: [...new Set(QUICK_CPU_PRESET.cases.map((c) => categoryOf(c.id)))].filter(isBuiltinCategory),
        protocols: [QUICK_CPU_PRESET.protocol],
        constrained: [false],
        repeats: 1,
        seed: 0,
        maxTokens: QUICK_CPU_PRESET.maxTokens,
        temperature: QUICK_CPU_PRESET.temperature,
      },
    });
    await startEval();
  }

  /**
   * While the quick run's panel waits for its click with a model ready on the CPU: reads the first
   * case's prompt start (its template's start and its tools' section) into the engine's prompt
   * cache, so the first case prefills only its message. Each later case starts with other tools,
   * so it shares only the template's first line and the protocol's words before the tools with the
   * case before (llama.cpp keeps that common part by itself). A run started meanwhile waits for a
   * warm-up its prompt starts with (CpuEngine.generate), so the reading is never wasted.
   */
  let warmedFor: Engine | null = null;
  let warmingSignal: AbortSignal | null = null;
  async function warmQuickCpuRun(signal: AbortSignal): Promise<void> {
    const { cpuEngine, cpuTemplate } = engineStore.getState();
    const first = QUICK_CPU_PRESET.cases[0];
    const protocol = getProtocol(QUICK_CPU_PRESET.protocol);
    if (!cpuEngine || !cpuTemplate || !first || !protocol || !canWarm(cpuEngine)) return;
    const status = get().status;
    if (status === "running" || status === "starting" || status === "stopping") return;
    const warmed = get().quickWarm;
    if (warmedFor === cpuEngine && (warmed?.state === "ready" || (warmed?.state === "warming" && warmingSignal && !warmingSignal.aborted))) return;
    warmedFor = cpuEngine;
    warmingSignal = signal;
    set({ quickWarm: { state: "warming", caseId: first.id } });
    try {
      const [testCase] = chosenCases(await loadBuiltinSuite([categoryOf(first.id)].filter(isBuiltinCategory), fetchPublic), [first.id]);
      const result = await cpuEngine.warmPrompt(await casePromptStart(testCase!, protocol, cpuTemplate, signal), signal);
      // A run started meanwhile has said the cache is its own now; a newer warm-up speaks for itself.
      if (get().quickWarm?.state !== "warming" || warmingSignal !== signal) return;
      set({ quickWarm: result === "stopped" ? null : { state: "ready", caseId: first.id, ...result } });
    } catch (error) {
      if (get().quickWarm?.state === "warming" && warmingSignal === signal) set({ quickWarm: { state: "failed", caseId: first.id, message: describe(error) } });
    }
  }

  /** Continues the shown run: the cases not done yet. */
  async function resumeEval(): Promise<void> {
    const run = get().run;
    if (!run) return;
    await go(run.config, run, false);
  }

  /**
   * Ends the run at once: the finished cases stay (each was saved as it ended), the case in
   * flight is dropped (it runs again on Resume) and the view is free. The engine is told to stop;
   * a later Run or Resume waits until it has.
   */
  function stopEval(): void {
    if (!running || running.signal.aborted) return;
    running.abort();
    flushNow?.();
    const run = get().run;
    const stopped = run ? { ...run, status: "stopped" as const } : null;
    set({ status: "stopped", live: null, ...(stopped ? { run: stopped } : {}) });
    if (stopped) void repo().saveRun(stopped).catch(() => {});
  }

  async function go(config: EvalConfig, run: StoredEvalRun<EvalConfig>, fresh: boolean): Promise<void> {
    if (running && !running.signal.aborted) return;
    // The run's cases will leave other text in the engine's cache: a warm-up said before is gone after.
    if (get().quickWarm) set({ quickWarm: null });
    let release = () => {};
    const previous = settled;
    settled = new Promise((resolve) => (release = resolve));
    try {
      await previous;
      await goOn(config, run, fresh);
    } finally {
      release();
    }
  }

  async function goOn(config: EvalConfig, run: StoredEvalRun<EvalConfig>, fresh: boolean): Promise<void> {
    const controller = new AbortController();
    running = controller;
    set({ status: "starting", error: null, interrupted: false, live: null, lastFinished: null, ...(fresh ? { results: [], jobKeys: [], opened: null } : {}) });
    try {
      const setup = await prepare(config, engineStore.getState());
      const cases = config.caseIds && !config.importedSuite ? chosenCases(await suiteCases(config), config.caseIds) : sampleCases(await suiteCases(config), config.perCategory, config.seed);
      const jobs = planJobs({ cases, mode: setup.mode, protocols: config.protocols, constrained: config.constrained, repeats: config.repeats });
      const stored: StoredEvalRun<EvalConfig> = { ...run, total: jobs.length, status: "running" };
      if (fresh) await repo().keepOnly("");
      await repo().saveRun(stored);
      const done = new Set(get().jobKeys);
      const concurrency = runsInThePage(config.engine) ? 1 : Math.max(1, config.concurrency);
      set({ run: stored, status: "running", session: { startedAt: performance.now(), doneAtStart: done.size, figures: [], concurrency } });
      const valuesAsText = new Map(config.protocols.map((name) => [name, getProtocol(name) ? readsValuesAsText(getProtocol(name)!) : false]));
      const pending: Array<{ jobKey: string; result: EvalResult; figures: CaseFigures }> = [];
      // The running case's reply, handed to the view with the batches.
      let live: LiveCase | null = null;
      let liveChanged = false;
      const flush = () => {
        if (liveChanged && !controller.signal.aborted) {
          liveChanged = false;
          set({ live: live && { ...live } });
        }
        if (pending.length === 0) return;
        const batch = pending.splice(0);
        const state = get();
        set({
          results: [...state.results, ...batch.map((b) => b.result)],
          jobKeys: [...state.jobKeys, ...batch.map((b) => b.jobKey)],
          ...(state.session ? { session: { ...state.session, figures: [...state.session.figures, ...batch.map((b) => b.figures)] } } : {}),
        });
      };
      flushNow = flush;
      const timer = setInterval(flush, 250);
      // Replies are parsed on this thread as they stream: handed on in pieces, with turns for the page.
      const pacedSetupEngine = pacedEngine(setup.engine, createYieldPoint(16));
      try {
        await runJobs({
          jobs,
          done,
          concurrency,
          signal: controller.signal,
          run: async (job, signal) => {
            // A turn of the event loop before each case: cases that finish together do not add up
            // to one long task on the page's main thread.
            await nextTask();
            const protocol = getProtocol(job.protocol === "native" ? "hermes" : job.protocol);
            const startedAt = performance.now();
            const watched: LiveCase = { jobKey: job.key, id: job.testCase.id, protocol: job.protocol, constrained: job.constrained, output: "", outputChars: 0 };
            if (concurrency === 1) {
              live = watched;
              liveChanged = true;
            }
            const onEvent = (event: LoopEvent) => {
              if (event.type !== "output-delta" || live !== watched) return;
              watched.output = (watched.output + event.text).slice(-LIVE_OUTPUT_CHARS);
              watched.outputChars += event.text.length;
              liveChanged = true;
            };
            let outcome: { result: EvalResult; events: LoopEvent[] } | undefined;
            if (!protocol) outcome = { result: failedResult(job, `unknown protocol "${job.protocol}"`), events: [] };
            else {
              try {
                outcome = await runEvalCase({
                  engine: pacedSetupEngine,
                  mode: setup.mode,
                  protocol,
                  testCase: job.testCase,
                  constrained: job.constrained,
                  repeat: job.repeat,
                  ...(setup.template ? { template: setup.template } : {}),
                  generation: { maxTokens: config.maxTokens, temperature: config.temperature ?? 0 },
                  signal,
                  valuesAsText: valuesAsText.get(job.protocol) ?? false,
                  pause: createYieldPoint(16),
                  onEvent,
                });
              } catch (error) {
                // An engine that ends a stopped generation by throwing: the case did not finish.
                outcome = signal.aborted ? undefined : { result: failedResult(job, describe(error)), events: [] };
              }
            }
            if (!outcome) return undefined;
            const finished: FinishedCase = { jobKey: job.key, result: outcome.result, decision: decisionInWords(outcome.events) };
            if (!signal.aborted) set({ lastFinished: finished });
            await nextTask();
            await repo().saveCase(run.id, job.key, outcome.result, outcome.events, createYieldPoint(16));
            // Saved: it is a finished case, also when Stop came meanwhile.
            const figures = caseFigures(outcome.events, performance.now() - startedAt);
            pending.push({ jobKey: job.key, result: outcome.result, figures });
            if (config.engine === "cpu" && figures.prefillMs && figures.decodeMs && figures.prefilledTokens && figures.completionTokens) {
              set({ measuredRates: { prefillTokensPerSecond: (figures.prefilledTokens / figures.prefillMs) * 1000, decodeTokensPerSecond: (figures.completionTokens / figures.decodeMs) * 1000, source: `the last Evaluate case on the CPU (${job.testCase.id})` } });
            }
            if (controller.signal.aborted) flush();
            return outcome.result;
          },
          onDone: () => {},
        });
      } finally {
        clearInterval(timer);
        flush();
        flushNow = null;
      }
      const finished = !controller.signal.aborted;
      const final: StoredEvalRun<EvalConfig> = { ...stored, status: finished ? "done" : "stopped" };
      await repo().saveRun(final);
      set({ run: final, status: finished ? "done" : "stopped", live: null });
    } catch (error) {
      set({ status: get().run ? "stopped" : "idle", error: describe(error), live: null });
    } finally {
      if (running === controller) running = null;
    }
  }

  /** Checks BFCL files and keeps them as the suite (all or nothing: a broken line is refused with its number). */
  function setImportedSuite(files: { questionsName: string; questions: string; answersName?: string; answers?: string }): void {
    const result = importBfclSuite(files);
    if (!result.ok) {
      set({ error: result.error });
      return;
    }
    setConfig({ importedSuite: { name: files.questionsName, questions: files.questions, ...(files.answers !== undefined ? { answers: files.answers } : {}), cases: result.cases.length } });
    set({ error: null });
  }

  function chooseBuiltinSuite(): void {
    const { importedSuite: _dropped, ...rest } = get().config;
    set({ config: rest });
  }

  /** Opens a case's recorded step in the debugger. */
  async function openCase(jobKey: string): Promise<void> {
    const state = get();
    const index = state.jobKeys.indexOf(jobKey);
    // The case that just ended may not have reached the list's batch yet.
    const result = state.results[index] ?? (state.lastFinished?.jobKey === jobKey ? state.lastFinished.result : undefined);
    if (!result || !state.run) return;
    const events = (await repo().events(state.run.id, jobKey)) ?? [];
    set({ opened: { jobKey, result, events } });
  }

  /** Opens a case of an imported results file in the debugger: the step its `log` holds, or why there is none. */
  function openImportedCase(source: string, index: number): void {
    const result = get().imported.find((i) => i.label === source)?.results[index];
    if (!result) return;
    const jobKey = String(index);
    if (!result.log) {
      const note = `This results file holds no log for this case${result.logOmitted ? `: ${result.logOmitted}` : " (it was written before results files kept logs, or the case failed before it ran)"}.`;
      set({ opened: { jobKey, source, result, events: [], note } });
      return;
    }
    try {
      set({ opened: { jobKey, source, result, events: readCaseLog(result.log) } });
    } catch (error) {
      set({ opened: { jobKey, source, result, events: [], note: `This case cannot be shown: ${describe(error)}.` } });
    }
  }

  /**
   * This run's results as a results file, each case with its step's log (read from IndexedDB and
   * encoded a case at a time, with a turn for the page between cases).
   */
  async function exportResultsText(): Promise<string | undefined> {
    try {
      return await resultsWithLogsText();
    } catch (error) {
      set({ error: `The results could not be exported: ${describe(error)}` });
      return undefined;
    }
  }

  async function resultsWithLogsText(): Promise<string> {
    const { results, jobKeys, run } = get();
    const withLogs: EvalResult[] = [];
    for (const [index, result] of results.entries()) {
      const jobKey = jobKeys[index];
      let events: LoopEvent[] = [];
      if (run && jobKey && result.runId) {
        await nextTask();
        try {
          events = (await repo().events(run.id, jobKey)) ?? [];
        } catch (error) {
          withLogs.push({ ...result, logOmitted: `its stored log could not be read: ${describe(error)}` });
          continue;
        }
      }
      withLogs.push({ ...result, ...caseLogOf(events) });
    }
    return resultsFileText(toResultsFile(withLogs));
  }

  function closeCase(): void {
    set({ opened: null });
  }

  let reading: AbortController | null = null;

  /**
   * Adds a results file a person opened: one over RESULTS_FILE_MAX_CHARS (results-file.ts) is
   * refused before it is read; one under it is parsed and checked in a worker
   * (results-file-import.ts), so a file near the cap never holds the page; while it is read the
   * view says so and offers Stop.
   */
  async function importResultsFile(file: Blob, label: string): Promise<void> {
    // A file's size is its bytes; an ASCII JSON file's characters are as many.
    const tooLarge = resultsFileTooLarge(file.size);
    if (tooLarge) {
      set({ error: `${label}: ${tooLarge}` });
      return;
    }
    reading?.abort();
    const controller = new AbortController();
    reading = controller;
    set({ reading: { label, bytes: file.size }, error: null });
    try {
      const { readResultsBlob } = await import("./results-file-import.ts");
      const results = await readResultsBlob(file, controller.signal);
      const opened = get().opened;
      set({ imported: [...get().imported.filter((i) => i.label !== label), { label, results }], error: null, ...(opened?.source === label ? { opened: null } : {}) });
    } catch (error) {
      if (!controller.signal.aborted) set({ error: `${label}: ${describe(error)}` });
    } finally {
      if (reading === controller) {
        reading = null;
        set({ reading: null });
      }
    }
  }

  /** Stops reading a results file: nothing of it is added. */
  function stopReadingResults(): void {
    reading?.abort();
  }

  /** Adds a results file (the command's or an export) to compare with; checked a slice at a time. */
  async function importResults(label: string, text: string): Promise<void> {
    try {
      const results = await readResultsFileInSlices(text, categoryOf, createYieldPoint(16));
      const opened = get().opened;
      set({ imported: [...get().imported.filter((i) => i.label !== label), { label, results }], error: null, ...(opened?.source === label ? { opened: null } : {}) });
    } catch (error) {
      set({ error: `${label}: ${describe(error)}` });
    }
  }

  /** Opens the bundled example results (real models through llama-server) to compare with, as an import would. */
  async function openExamples(): Promise<void> {
    for (const example of EXAMPLE_RESULTS) {
      try {
        await importResults(example.label, await fetchPublic(example.path, "the example results"));
      } catch (error) {
        set({ error: describe(error) });
        return;
      }
    }
  }

  function removeImported(label: string): void {
    set({ imported: get().imported.filter((i) => i.label !== label), ...(get().opened?.source === label ? { opened: null } : {}) });
  }

  function dismissEvalError(): void {
    set({ error: null });
  }

  /** Saves a conversation turn with the calls marked right as an eval case; returns its id. */
  async function saveTurnAsCase(turn: TurnToSave): Promise<string | undefined> {
    const numbers = get().saved.map((c) => Number(/_(\d+)$/.exec(c.id)?.[1] ?? 0));
    const lines = savedCaseLines(turn, Math.max(0, ...numbers) + 1);
    const saved: StoredSavedCase = { id: lines.id, question: lines.question, ...(lines.answer ? { answer: lines.answer } : {}), savedAt: Date.now() };
    try {
      await repo().addSavedCase(saved);
      set({ saved: [...get().saved, saved], error: null });
      return saved.id;
    } catch (error) {
      set({ error: `The case could not be saved: ${describe(error)}` });
      return undefined;
    }
  }

  async function removeSavedCase(id: string): Promise<void> {
    await repo().removeSavedCase(id);
    set({ saved: get().saved.filter((c) => c.id !== id) });
  }

  /** Runs the saved cases as the suite. */
  function runSavedCases(): void {
    const files = savedCaseFiles(get().saved);
    setImportedSuite({ questionsName: "saved cases", questions: files.questions, answersName: "saved answers", answers: files.answers });
  }

  return { store, initEval, setConfig, startEval, startQuickCpuRun, warmQuickCpuRun, resumeEval, stopEval, setImportedSuite, chooseBuiltinSuite, openCase, openImportedCase, closeCase, exportResultsText, importResults, importResultsFile, stopReadingResults, openExamples, removeImported, dismissEvalError, saveTurnAsCase, removeSavedCase, runSavedCases };
}

export type Evaluation = ReturnType<typeof createEvaluation>;

/** An engine that can read a text into its prompt cache ahead of a step (the CPU engine). */
type WarmingEngine = Engine & { warmPrompt: (prompt: string, signal: AbortSignal) => Promise<WarmedPrompt | "stopped"> };
const canWarm = (engine: Engine): engine is WarmingEngine => typeof (engine as Partial<WarmingEngine>).warmPrompt === "function";

/** The cases named, in the order named (an id the suite lacks is an error, not a silent gap). */
function chosenCases(cases: readonly EvalCase[], ids: readonly string[]): EvalCase[] {
  const byId = new Map(cases.map((c) => [c.id, c]));
  return ids.map((id) => {
    const found = byId.get(id);
    if (!found) throw new Error(`The built-in suite has no case ${id}.`);
    return found;
  });
}

async function suiteCases(config: EvalConfig): Promise<EvalCase[]> {
  const imported = config.importedSuite;
  if (!imported) return loadBuiltinSuite(config.categories, fetchPublic);
  const result = importBfclSuite({ questions: imported.questions, ...(imported.answers !== undefined ? { answers: imported.answers } : {}), questionsName: imported.name });
  if (!result.ok) throw new Error(result.error);
  return result.cases;
}

/** The engine and template a configuration runs with, or a clear error. */
async function prepare(config: EvalConfig, engineState: EngineState): Promise<{ engine: Engine; template?: ChatTemplate; mode: "prompt" | "native" }> {
  if (config.protocols.length === 0 && config.engine !== "server-native") throw new Error("Choose at least one protocol.");
  if (config.categories.length === 0 && !config.importedSuite) throw new Error("Choose at least one category.");
  if (config.engine === "webllm") {
    const { webllmEngine, loadedModelId, thinking } = engineState;
    if (!webllmEngine || !loadedModelId) throw new Error("No WebLLM model is loaded: load one in the lab's Model pane first, or evaluate a server.");
    const template = chatTemplateForModel(loadedModelId, { enableThinking: thinking });
    if (!template) throw new Error(`No chat template is known for ${loadedModelId}.`);
    return { engine: webllmEngine, template, mode: "prompt" };
  }
  if (config.engine === "cpu") {
    const { cpuEngine, cpuTemplate } = engineState;
    if (!cpuEngine || !cpuTemplate) throw new Error("No model is loaded on the CPU: load one in the lab's Model pane (CPU) first, or evaluate another engine.");
    return { engine: cpuEngine, template: cpuTemplate, mode: "prompt" };
  }
  const mode = config.engine === "server-native" ? "native" : "prompt";
  if (!config.model.trim()) throw new Error("Give the server's model id.");
  const models = await listModels({ baseUrl: config.baseUrl });
  const served = models.find((m) => m.id === config.model.trim());
  if (!served) throw new Error(`The server does not serve a model "${config.model}" (it serves: ${models.map((m) => m.id).join(", ") || "none"}).`);
  let template: ChatTemplate | undefined;
  if (mode === "prompt") {
    const name = (config.template || inferServerTemplate(served.id)) as ServerTemplateName | undefined;
    if (!name || !(serverTemplateNames as string[]).includes(name)) throw new Error(`Cannot tell the chat template from the model name "${served.id}": choose one.`);
    template = serverChatTemplate(name);
  }
  const engine = new OpenAiEngine({ baseUrl: config.baseUrl, model: served.id, mode, constrain: config.constrained.includes(true), ...(served.contextWindowSize !== undefined ? { contextWindowSize: served.contextWindowSize } : {}) });
  return { engine, ...(template ? { template } : {}), mode };
}

/** Results files made by `npm run eval` with the real models (eval-results/, copied into public/). */
export const EXAMPLE_RESULTS = [
  { label: "example: SmolLM2 135M Instruct (llama-server)", path: "eval/examples/smollm2-135m-instruct-q4_1.json" },
  { label: "example: Gemma 3 270M base (llama-server)", path: "eval/examples/gemma-3-270m-q4_k_m.json" },
];

async function fetchPublic(path: string, what = "the built-in suite"): Promise<string> {
  const url = `${import.meta.env.BASE_URL}${path}`;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not load ${what} (${url}: HTTP ${response.status}).`);
  return response.text();
}

export function describeConfig(config: EvalConfig, engineState: Pick<EngineState, "loadedModelId" | "cpuEngine">): string {
  if (config.engine === "webllm") return `WebLLM ${engineState.loadedModelId ?? ""}`.trim();
  if (config.engine === "cpu") return engineState.cpuEngine?.name ?? "llama.cpp (wasm)";
  return `${config.model} (${config.engine === "server-native" ? "native" : "prompt"})`;
}

function describe(error: unknown): string {
  if (error instanceof ServerFailure) return `${error.message} ${error.suggestion}`.trim();
  return error instanceof Error ? error.message : String(error);
}

/** A finished case's decision point in words, from its recorded tokens. */
function decisionInWords(events: readonly LoopEvent[]): string {
  const start = events.find((event) => event.type === "step-start");
  if (start?.type !== "step-start") return "This case has no recorded step.";
  const point = stepDecisionPoint(events, start.runId, start.stepId);
  const words = describeDecisionPoint(point);
  return point.kind === "unknown" ? `not known: ${words}` : `the model ${words}.`;
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The saved cases as BFCL files (questions, possible answers). */
export function savedCaseFiles(saved: readonly StoredSavedCase[]): { questions: string; answers: string } {
  return { questions: `${saved.map((c) => c.question).join("\n")}\n`, answers: `${saved.flatMap((c) => (c.answer ? [c.answer] : [])).join("\n")}\n` };
}
