// Which engine the lab talks to, and its state: the replay engine (a transcript) or a WebLLM
// model (loaded into a worker, with progress, cancel, unload and cache management). The run
// controller asks `resolveActiveEngine()` for the engine and the chat template to render with.
import { createStore, type StoreApi } from "zustand/vanilla";
import { probeWebGpu, type WebGpuStatus } from "../engine/webgpu-probe.ts";
import { loadTranscript, ReplayEngine, readEngineChoiceFromUrl, type ReplayEngineOptions, type Transcript } from "../engine/replay/index.ts";
import { loadFamilyRegistry } from "toolcall-middleware/families/family-index.ts";
import { replayChatTemplate } from "toolcall-middleware/families/replay-template.ts";
import { qwen3TokenizerUrl, tokenizeInWorker } from "../tokens/lab-tokenizer.ts";
import { classifyEngineError, EngineFailure, type EngineFailureKind } from "../engine/webllm/engine-errors.ts";
import type { LoadProgress } from "../engine/webllm/load-progress.ts";
import { catalog, DEFAULT_MODEL_ID, findModel, modelsForAdapter, modelsSharingFiles, pickVariant } from "../engine/webllm/model-catalog.ts";
import { deleteModelFromCache, queryCacheStatus } from "../engine/webllm/model-cache.ts";
import type { ChatTemplate, Engine } from "toolcall-middleware/types.ts";
import { readThinkingChoices, thinkingFor, thinkingSubjectOf, webllmThinkingSubject, withThinkingChoice, type ThinkingChoices, type ThinkingSubject } from "./thinking-choice.ts";

export type EngineKind = "webllm" | "replay" | "openai" | "cpu";

type FamilyRegistry = Awaited<ReturnType<typeof loadFamilyRegistry>>;

/** The turn that may be running on the loaded model (the page's run controller): ended before the model goes. */
export interface TurnOnTheModel {
  stopRunningTurn: () => Promise<void>;
}

export type EngineStatus =
  | { state: "idle"; note?: string }
  | { state: "loading"; what: string; progress?: LoadProgress }
  | { state: "ready"; note?: string }
  | {
      state: "error";
      /** "model-missing": the lab's server has no such GGUF (run `npm run models`); "cpu-load": llama.cpp could not load or run the model. */
      kind: EngineFailureKind | "transcript" | "model-missing" | "cpu-load";
      message: string;
      suggestion: string;
      detail?: string;
      /** A model that was loaded and is gone (GPU device lost, worker failed): it can be loaded again. */
      reloadModelId?: string;
      /** The CPU engine's model stopped working in the page: the CPU engine's last model can be loaded again. */
      reloadCpu?: true;
    };

export const DEFAULT_TRANSCRIPT = "hermes-calculator";

const KEYS = { kind: "toolcall-lab:engine", model: "toolcall-lab:model", transcript: "toolcall-lab:transcript", thinkingByModel: "toolcall-lab:thinking-by-model" };

function remember(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Remembering is a convenience; the choice still holds for this page.
  }
}

function recall(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export interface EngineState {
  kind: EngineKind;
  /** The engine the next turn uses, or null when none is ready. */
  engine: Engine | null;
  /** The chat template prompts are rendered with for this engine/model. */
  template: ChatTemplate;
  /** Status of the current kind's engine. */
  status: EngineStatus;
  gpu: WebGpuStatus;

  /** WebLLM */
  selectedModelId: string;
  loadedModelId: string | null;
  webllmEngine: Engine | null;
  webllmStatus: EngineStatus;
  cachedModels: Record<string, boolean>;
  /** The thinking switch for the current model: the person's setting for it, else its default (thinking-choice.ts). */
  thinking: boolean;
  /** What the person set the switch to, by model (remembered). */
  thinkingChoices: ThinkingChoices;
  /** The server model the switch is for in the server engine (server-engine.ts sets it); null before one is chosen. */
  serverThinkingSubject: ThinkingSubject | null;
  /** A stopped generation still holds the GPU (WebLLM cannot stop a prefill): the next one waits. */
  waitingForGpu: boolean;

  /** Replay */
  transcriptSource: string;
  transcript: Transcript | null;
  /** The protocol the loaded transcript is written in; the app switches to it. */
  transcriptProtocol: string | null;
  replayEngine: ReplayEngine | null;
  replayStatus: EngineStatus;

  /** An OpenAI-compatible server (see server-engine.ts, which sets these). */
  serverEngine: Engine | null;
  /** The template prompt mode renders with; null in native mode (the server renders). */
  serverTemplate: ChatTemplate | null;
  serverStatus: EngineStatus;

  /** llama.cpp in WebAssembly on the CPU (see cpu-engine-controller.ts, which sets these). */
  cpuEngine: Engine | null;
  /** The template the CPU model's prompts are rendered with (its family's, or its GGUF's own). */
  cpuTemplate: ChatTemplate | null;
  /** The registry family of the loaded CPU model (sampling defaults), null when its GGUF's own template is used. */
  cpuFamilyId: string | null;
  cpuStatus: EngineStatus;
}

export type EngineStore = StoreApi<EngineState>;

/** The replay template is Qwen3's: a transcript with a context window is counted with Qwen3's tokenizer (in its worker). */
const countWithLabQwen3 = async (prompt: string) => (await tokenizeInWorker(qwen3TokenizerUrl, prompt, [])).ids.length;

function failureStatus(failure: EngineFailure, reloadModelId?: string): EngineStatus {
  return {
    state: "error",
    kind: failure.kind,
    message: failure.summary,
    suggestion: failure.suggestion,
    detail: failure.detail,
    ...(reloadModelId ? { reloadModelId } : {}),
  };
}

export const GPU_WAIT_NOTE = "waiting for the GPU to finish the stopped generation";

export const engineSelectors = {
  kind: (s: EngineState) => s.kind,
  engine: (s: EngineState) => s.engine,
  template: (s: EngineState) => s.template,
  status: (s: EngineState) => s.status,
  transcriptProtocol: (s: EngineState) => s.transcriptProtocol,
  thinking: (s: EngineState) => s.thinking,
  ready: (s: EngineState) => s.engine !== null,
  /** A short label for the header: which engine and what it runs. */
  label: (s: EngineState) =>
    s.kind === "cpu"
      ? s.cpuEngine
        ? `CPU: ${s.cpuEngine.name.replace(/^llama\.cpp \(wasm\) /, "")}`
        : "CPU: no model loaded"
      : s.kind === "replay"
      ? `Replay: ${s.transcript?.title ?? s.transcriptSource}`
      : s.kind === "openai"
        ? s.serverEngine
          ? `Server: ${s.serverEngine.name.replace(/^openai /, "")}`
          : "Server: not connected"
        : s.loadedModelId
          ? `WebLLM: ${findModel(s.loadedModelId)?.displayName ?? s.loadedModelId}${s.waitingForGpu ? ` — ${GPU_WAIT_NOTE}` : ""}`
          : "WebLLM: no model loaded",
};

export { catalog };

/**
 * The page's engines: the store and the actions that choose, load and unload them. The loaded
 * model and loads in flight are handles kept here, beside the store. `turn` is the page's run
 * controller: a turn running on the loaded model is ended before the model goes.
 */
export function createEngines(deps: { turn: TurnOnTheModel }) {
  const initialChoices = readThinkingChoices(recall(KEYS.thinkingByModel));
  const initialModel = recall(KEYS.model) || DEFAULT_MODEL_ID;
  const initialThinking = thinkingFor(initialChoices, webllmThinkingSubject(initialModel));

  const rememberedKind = recall(KEYS.kind);

  const engineStore = createStore<EngineState>()(() => ({
    kind: rememberedKind === "replay" || rememberedKind === "openai" || rememberedKind === "cpu" ? rememberedKind : "webllm",
    engine: null,
    template: replayChatTemplate({ enableThinking: initialThinking }),
    status: { state: "idle" },
    gpu: { state: "checking" },
    selectedModelId: initialModel,
    loadedModelId: null,
    webllmEngine: null,
    webllmStatus: { state: "idle" },
    cachedModels: {},
    thinking: initialThinking,
    thinkingChoices: initialChoices,
    serverThinkingSubject: null,
    waitingForGpu: false,
    transcriptSource: recall(KEYS.transcript) || DEFAULT_TRANSCRIPT,
    transcript: null,
    transcriptProtocol: null,
    replayEngine: null,
    replayStatus: { state: "idle" },
    serverEngine: null,
    serverTemplate: null,
    serverStatus: { state: "idle" },
    cpuEngine: null,
    cpuTemplate: null,
    cpuFamilyId: null,
    cpuStatus: { state: "idle" },
  }));

  const get = () => engineStore.getState();

  // The families' templates (registry.ts) are not in the first screen: they load right away, beside
  // it. Until they are here the WebLLM kind shows the replay engine's template, as it does for a
  // model of no family; a model is never loaded before them (loadModel awaits them), so no step
  // runs with it. Once here, sync() gives the WebLLM kind its model's own template.
  let familyRegistry: FamilyRegistry | null = null;
  let familyRegistryLoad: Promise<FamilyRegistry> | null = null;
  function loadFamilies(): Promise<FamilyRegistry> {
    familyRegistryLoad ??= loadFamilyRegistry().then(
      (registry) => {
        familyRegistry = registry;
        sync();
        return registry;
      },
      (error: unknown) => {
        familyRegistryLoad = null; // a failed fetch is tried again by the next model load
        throw error;
      },
    );
    return familyRegistryLoad;
  }
  void loadFamilies().catch(() => undefined);

  /** Recomputes what the current kind exposes (engine, template, status) and the thinking switch for its model. */
  function sync(patch: Partial<EngineState> = {}): void {
    const merged = { ...get(), ...patch };
    const next = { ...merged, thinking: thinkingFor(merged.thinkingChoices, thinkingSubjectOf(merged)) };
    const modelTemplate = next.loadedModelId ?? next.selectedModelId;
    const fallback = () => replayChatTemplate({ enableThinking: next.thinking });
    const current =
      next.kind === "replay"
        ? { engine: next.replayEngine, status: next.replayStatus, template: fallback() }
        : next.kind === "openai"
          ? { engine: next.serverEngine, status: next.serverStatus, template: next.serverTemplate ?? fallback() }
          : next.kind === "cpu"
            ? { engine: next.cpuEngine, status: next.cpuStatus, template: next.cpuTemplate ?? fallback() }
            : { engine: next.webllmEngine, status: next.webllmStatus, template: familyRegistry?.chatTemplateForModel(modelTemplate, { enableThinking: next.thinking }) ?? fallback() };
    engineStore.setState({ ...patch, thinking: next.thinking, ...current });
  }

  // The loaded model and an in-flight load live outside the store: they are handles, not state.
  let loaded: { modelId: string; unload: () => Promise<void> } | null = null;
  let loading: AbortController | null = null;
  let transcriptLoading: AbortController | null = null;

  function selectEngineKind(kind: EngineKind): void {
    remember(KEYS.kind, kind);
    sync({ kind });
    // After a failed transcript, switching back uses the last one that loaded.
    if (kind === "replay" && !get().replayEngine && get().replayStatus.state !== "loading") void selectReplay(recall(KEYS.transcript) || DEFAULT_TRANSCRIPT);
  }

  /** For server-engine.ts: the server engine, its template and status changed. */
  function setServerEngine(patch: Partial<Pick<EngineState, "serverEngine" | "serverTemplate" | "serverStatus">>): void {
    sync(patch);
  }

  /** For cpu-engine-controller.ts: the CPU engine, its template and status changed. */
  function setCpuEngine(patch: Partial<Pick<EngineState, "cpuEngine" | "cpuTemplate" | "cpuFamilyId" | "cpuStatus">>): void {
    sync(patch);
  }

  /** Chooses the replay engine with a built-in transcript name or a transcript URL. */
  async function selectReplay(nameOrUrl: string, pace?: Pick<ReplayEngineOptions, "chunkChars" | "delayMs">): Promise<void> {
    const source = nameOrUrl.trim();
    transcriptLoading?.abort();
    const controller = new AbortController();
    transcriptLoading = controller;
    remember(KEYS.kind, "replay");
    sync({ kind: "replay", transcriptSource: source, replayStatus: { state: "loading", what: `transcript ${source}` } });
    try {
      const transcript = await loadTranscript(source, undefined, controller.signal);
      if (controller.signal.aborted) return;
      remember(KEYS.transcript, source);
      sync({
        transcript,
        transcriptProtocol: transcript.protocol ?? null,
        replayEngine: new ReplayEngine(transcript, { ...pace, countPromptTokens: countWithLabQwen3 }),
        replayStatus: { state: "ready" },
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      sync({
        transcript: null,
        transcriptProtocol: null,
        replayEngine: null,
        replayStatus: {
          state: "error",
          kind: "transcript",
          message: error instanceof Error ? error.message : String(error),
          suggestion: "Pick a built-in transcript, or check the transcript's address and format.",
        },
      });
    } finally {
      if (transcriptLoading === controller) transcriptLoading = null;
    }
  }

  /** Starts the replay transcript over, or at a turn (a restored conversation). */
  function resetReplay(position = 0): void {
    get().replayEngine?.reset(position);
  }

  function selectModel(modelId: string): void {
    remember(KEYS.model, modelId);
    sync({ selectedModelId: modelId });
  }

  /** The person sets the switch: for the current model (remembered), so another model keeps its own. */
  function setThinking(on: boolean): void {
    const thinkingChoices = withThinkingChoice(get().thinkingChoices, thinkingSubjectOf(get()).model, on);
    remember(KEYS.thinkingByModel, JSON.stringify(thinkingChoices));
    sync({ thinkingChoices });
  }

  /** For server-engine.ts: the server model the switch is for, and its default. */
  function setServerThinkingSubject(subject: ThinkingSubject | null): void {
    sync({ serverThinkingSubject: subject });
  }

  function shaderF16(): boolean | undefined {
    const gpu = get().gpu;
    return gpu.state === "available" ? gpu.shaderF16 : undefined;
  }

  /** Loads a WebLLM model (the selected one by default) into a fresh worker. */
  async function loadModel(modelId: string = get().selectedModelId): Promise<void> {
    const f16 = shaderF16();
    const id = f16 === false ? pickVariant(modelId, false) : modelId;
    remember(KEYS.kind, "webllm");
    remember(KEYS.model, id);
    sync({ kind: "webllm", selectedModelId: id });

    const gpu = get().gpu;
    if (gpu.state === "unavailable") {
      const failure = classifyEngineError(new Error(gpu.reason === "no-adapter" ? "no adapter: " + gpu.message : "no WebGPU: " + gpu.message), { phase: "load", modelId: id });
      sync({ webllmStatus: { state: "error", kind: failure.kind, message: gpu.message, suggestion: failure.suggestion } });
      return;
    }

    loading?.abort();
    const controller = new AbortController();
    loading = controller;
    // The running turn uses the loaded model: end it first, so it does not hang on a gone worker.
    await deps.turn.stopRunningTurn();
    if (loaded) await unloadLoaded();
    const name = findModel(id)?.displayName ?? id;
    sync({ webllmEngine: null, loadedModelId: null, waitingForGpu: false, webllmStatus: { state: "loading", what: name } });
    try {
      // The loader (the engine class, the worker client) is fetched with the first model chosen,
      // not with the first screen; a failed fetch is reported like a failed load.
      // The model's template comes with the families (loaded at startup; here when that failed).
      const [{ loadWebLlmModel }] = await Promise.all([import("../engine/webllm/model-loader.ts"), loadFamilies()]);
      const model = await loadWebLlmModel(id, {
        signal: controller.signal,
        onProgress: (progress) => {
          if (loading === controller) sync({ webllmStatus: { state: "loading", what: name, progress } });
        },
        onDeviceLost: (failure) => modelGone(id, failure),
        onWorkerFailed: (failure) => modelGone(id, failure),
        onQueueChange: (queue) => {
          if (loaded?.modelId === id) sync({ waitingForGpu: queue.draining && queue.waiting > 0 });
        },
      });
      if (controller.signal.aborted) {
        await model.unload().catch(() => undefined);
        return;
      }
      loaded = { modelId: id, unload: model.unload };
      sync({
        webllmEngine: model.engine,
        loadedModelId: id,
        webllmStatus: { state: "ready" },
        cachedModels: { ...get().cachedModels, [id]: true },
      });
    } catch (error) {
      const failure = error instanceof EngineFailure ? error : classifyEngineError(error, { phase: "load", modelId: id });
      if (failure.kind === "cancelled") {
        sync({ webllmStatus: { state: "idle", note: failure.summary } });
      } else if (loading === controller) {
        sync({ webllmStatus: failureStatus(failure) });
      }
      void refreshCacheStatus([id]);
    } finally {
      if (loading === controller) loading = null;
    }
  }

  /** The loaded model is gone (GPU device lost, WebLLM unloaded it, its worker failed): say so, offer to reload. */
  function modelGone(modelId: string, failure: EngineFailure): void {
    if (loaded?.modelId !== modelId) return;
    const current = loaded;
    loaded = null;
    // End the worker; the next load makes a fresh one.
    void current.unload().catch(() => undefined);
    sync({ webllmEngine: null, loadedModelId: null, waitingForGpu: false, webllmStatus: failureStatus(failure, modelId) });
  }

  function cancelLoad(): void {
    loading?.abort();
  }

  async function unloadLoaded(): Promise<void> {
    const current = loaded;
    loaded = null;
    sync({ webllmEngine: null, loadedModelId: null, waitingForGpu: false });
    if (current) await current.unload().catch(() => undefined);
  }

  async function unload(): Promise<void> {
    loading?.abort();
    await deps.turn.stopRunningTurn();
    await unloadLoaded();
    sync({ webllmStatus: { state: "idle", note: "Model unloaded; its GPU memory is free." } });
  }

  /**
   * Deletes a model's files from the cache. Files it shares with other models (its -1k twin's
   * weights, a compiled library) go too, so every model that shares them is checked again.
   */
  async function deleteFromCache(modelId: string): Promise<void> {
    if (get().loadedModelId === modelId) await unload();
    const sharing = modelsSharingFiles(modelId).filter((m) => m.id !== modelId);
    try {
      await deleteModelFromCache(modelId);
      const also = sharing.length ? ` Files it shared with ${sharing.map((m) => m.id).join(", ")} were removed too.` : "";
      sync({ cachedModels: { ...get().cachedModels, [modelId]: false }, webllmStatus: { state: "idle", note: `Deleted ${modelId} from the browser cache.${also}` } });
    } catch (error) {
      sync({ webllmStatus: failureStatus(classifyEngineError(error, { phase: "load", modelId })) });
    }
    await refreshCacheStatus([modelId, ...sharing.map((m) => m.id)]);
  }

  async function refreshCacheStatus(modelIds?: string[]): Promise<void> {
    const f16 = shaderF16();
    const ids = modelIds ?? modelsForAdapter(f16 ?? true).map((m) => m.id);
    const status = await queryCacheStatus(ids);
    engineStore.setState({ cachedModels: { ...get().cachedModels, ...status } });
  }

  /**
   * Starts the engine layer: probes WebGPU, then follows `?engine=replay&transcript=…` if given,
   * otherwise the remembered choice; without WebGPU the replay engine is chosen, unless the
   * remembered choice is the CPU engine (which needs none).
   */
  async function initEngines(search: string = globalThis.location?.search ?? "", gpu?: WebGpuStatus): Promise<void> {
    const fromUrl = readEngineChoiceFromUrl(search);
    if (fromUrl?.engine === "replay") void selectReplay(fromUrl.transcript ?? get().transcriptSource);
    const status = gpu ?? (await probeWebGpu());
    engineStore.setState({ gpu: status });
    if (status.state === "available" && !status.shaderF16) {
      const id = pickVariant(get().selectedModelId, false);
      if (id !== get().selectedModelId) selectModel(id);
    }
    if (fromUrl?.engine === "replay") return;
    if (fromUrl?.engine === "webllm") {
      if (fromUrl.model) selectModel(fromUrl.model);
      selectEngineKind("webllm");
    } else if (status.state === "unavailable" || get().kind === "replay") {
      if (status.state === "unavailable") sync({ webllmStatus: { state: "error", kind: status.reason === "no-adapter" ? "no-adapter" : "no-webgpu", message: status.message, suggestion: "The replay engine runs without a GPU." } });
      // The CPU engine needs no GPU: a person who chose it finds it chosen again (its model one click away).
      if (get().kind === "cpu") sync({});
      else void selectReplay(get().transcriptSource);
    } else {
      sync({});
    }
    // Cache status is checked when the model list is first used (ensureCacheStatus), not here:
    // the check runs in a model worker, whose WebLLM library should not be downloaded before it is wanted.
  }

  let cacheChecked = false;

  /** Checks which catalogue models are cached, once (the model picker calls it on first use). */
  function ensureCacheStatus(): void {
    if (cacheChecked || get().gpu.state !== "available") return;
    cacheChecked = true;
    void refreshCacheStatus().catch(() => {
      cacheChecked = false;
    });
  }

  /** For the run controller: the engine and template of the moment, or why there is none. */
  function resolveActiveEngine(): { engine: Engine; template: ChatTemplate } | { error: string } {
    const { engine, template, kind, status } = get();
    if (engine) return { engine, template };
    if (status.state === "loading") return { error: kind === "openai" ? "Still connecting to the server." : `The ${kind === "replay" ? "transcript" : "model"} is still loading.` };
    if (kind === "cpu" && status.state !== "error") return { error: "Load a model on the CPU first (Model pane)." };
    if (status.state === "error") return { error: `${status.message} ${status.suggestion}` };
    if (kind === "openai") return { error: "Connect to a server and pick a model first (Model pane)." };
    return { error: kind === "replay" ? "Choose a transcript for the replay engine first." : "Load a model first (Model pane), or choose the replay engine." };
  }

  return { store: engineStore, selectEngineKind, setServerEngine, setCpuEngine, selectReplay, resetReplay, selectModel, setThinking, setServerThinkingSubject, loadModel, cancelLoad, unload, deleteFromCache, refreshCacheStatus, initEngines, ensureCacheStatus, resolveActiveEngine };
}

export type Engines = ReturnType<typeof createEngines>;
