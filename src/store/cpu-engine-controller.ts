// The CPU engine's model: which of the manifest's models (or a GGUF the person opened) runs on
// llama.cpp in WebAssembly, its loading (download progress, cancel), and what it runs with: its
// family's template and stops, or its GGUF's own template where the registry has no family. Every
// change hands the engine, template and status to the engine store.
import { createStore, type StoreApi } from "zustand/vanilla";
import { familyEntryById, loadFamilyRegistry, recommendedProtocolOf } from "toolcall-middleware/families/family-index.ts";
import type { ModelFamily } from "toolcall-middleware/families/types.ts";
import type { ChatTemplate } from "toolcall-middleware/types.ts";
import { bosTextOf, DEFAULT_CPU_MODEL_ID, findCpuModel, formatBytes, huggingFaceModelUrl, labServedModelUrl, type CpuModel } from "../engine/cpu/cpu-models.ts";
import { ALL_LAYERS, gpuOutcomeWords } from "../engine/cpu/gpu-offload.ts";
import { ggufMetadataFromLlamaCpp } from "../engine/cpu/llama-cpp-metadata.ts";
import type { CpuModelSource, LoadCpuModelOptions, LoadedCpuModel } from "../engine/cpu/load-cpu-model.ts";
import type { RuntimeFailure } from "../engine/cpu/runtime-failure.ts";
import type { LoadProgress } from "../engine/webllm/load-progress.ts";
import { ggufModelTokenizer } from "../tokens/gguf/gguf-model-tokenizer.ts";
import { templateFamily } from "../tokens/tokenizer-choice.ts";
import type { Engines, EngineStatus, TurnOnTheModel } from "./engine-store.ts";
import type { ProtocolStore } from "./protocol-store.ts";
import { derivedProtocolName, type DerivedProtocolEntry, type DerivedProtocolStore } from "./derived-protocols.ts";
import type { DerivationWorker } from "../engine/templates/derivation-worker.ts";

export type CpuModelOrigin = "lab-server" | "hugging-face";

export interface CpuEngineState {
  selectedModelId: string;
  origin: CpuModelOrigin;
  /** The person asked for the model's layers on the GPU (WebGPU), offered for a hardware adapter only (gpu-offload.ts); the next load uses it. */
  gpuOffload: boolean;
  /** What runs now: a manifest model's id or an opened file's name, with how it runs. */
  loaded: { id: string; label: string; threads: number; multiThreaded: boolean; kernels: LoadedCpuModel["kernels"]; contextWindowSize: number; templateNote: string } | null;
}

export type CpuEngineStore = StoreApi<CpuEngineState>;

const KEYS = { model: "toolcall-lab:cpu-model", origin: "toolcall-lab:cpu-origin" };

function recall(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function remember(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // A convenience; the choice holds for this page.
  }
}

export type LoadCpuModel = (source: CpuModelSource, options: LoadCpuModelOptions) => Promise<LoadedCpuModel>;

/** wllama is imported only when a model is loaded: never in the first screen's bundle. */
const loadOnDemand: LoadCpuModel = async (source, options) => (await import("../engine/cpu/load-cpu-model.ts")).loadCpuModel(source, options);

/** A file from disk is read, not downloaded; a download that is complete is being handed to llama.cpp. */
function progressOf(loadedBytes: number, totalBytes: number, startedAt: number, text: string, fromFile = false): LoadProgress {
  const fraction = totalBytes > 0 ? Math.min(1, loadedBytes / totalBytes) : 0;
  const elapsedSeconds = (Date.now() - startedAt) / 1000;
  const secondsLeft = fraction > 0.02 && fraction < 1 ? (elapsedSeconds / fraction) * (1 - fraction) : undefined;
  return { fraction, percent: fraction * 100, text, phase: fraction >= 1 ? "loading-runtime" : fromFile ? "reading-file" : "fetching", fetchedMB: Math.round(loadedBytes / 1_000_000), elapsedSeconds, ...(secondsLeft !== undefined ? { secondsLeft } : {}) };
}

/** A failed load's status, with what to do: a 404 from the lab's server means the model was never fetched. */
export async function cpuLoadFailure(error: unknown, source: CpuModelSource): Promise<Extract<EngineStatus, { state: "error" }>> {
  const detail = error instanceof Error ? error.message : String(error);
  if (source.kind === "url" && source.url.startsWith("/models/")) {
    const answer = await fetch(source.url, { method: "HEAD" }).catch(() => null);
    if (answer?.status === 404) {
      const text = await fetch(source.url).then((r) => r.text()).catch(() => "");
      return { state: "error", kind: "model-missing", message: text || `${source.name} is not on this machine.`, suggestion: "Run `npm run models` in the project, then load the model again.", detail };
    }
  }
  if (/abort/i.test(detail)) return { state: "error", kind: "cancelled", message: "Loading was cancelled.", suggestion: "Load the model again when you want it." };
  return {
    state: "error",
    kind: "cpu-load",
    message: source.kind === "file" ? `llama.cpp could not load ${source.name}.` : `Loading ${source.name} on the CPU failed.`,
    suggestion: source.kind === "file" ? "Check that the file is a complete GGUF model (llama.cpp's format)." : "Check the model's address and your connection, then try again.",
    detail,
  };
}

/** The template a loaded model runs with, and what the page says about it (Jinja loads only for a GGUF's own template). */
async function templateFor(
  family: ModelFamily | undefined,
  familyChatTemplate: (family: ModelFamily) => ChatTemplate,
  loaded: LoadedCpuModel,
  name: string,
  derivationWorker: DerivationWorker | undefined,
): Promise<{ template: ChatTemplate; familyId: string | null; note: string; derived?: DerivedProtocolEntry; dispose?: () => void } | { error: string }> {
  // The file's own template goes with the family's, recorded in each step: the debugger can read a
  // step by the format derived from it, beside the family's hand-written protocol.
  if (family) return { template: withModelChatTemplate(familyChatTemplate(family), loaded.chatTemplate), familyId: family.id, note: `${family.label} family: the lab's ${family.templateLabel} template and stop tokens.` };
  if (loaded.chatTemplate) {
    try {
      const { openGgufEmbeddedChatTemplate } = await import("../engine/cpu/gguf-chat-template.ts");
      // The file's template renders in a worker, never on the page's thread (a hostile one loops or blows up).
      const { template: embedded, renderer } = await openGgufEmbeddedChatTemplate(loaded.chatTemplate, name, templateBudgetFromUrl());
      const template = withModelChatTemplate(embedded, loaded.chatTemplate);
      const dispose = () => renderer.dispose();
      const note = "Family not known to the lab: the GGUF's own embedded chat template is used as is (rendered with Jinja, in a worker).";
      // Its calls are read in the format its own template writes, where that can be derived.
      // The probe renders run in a worker (tens to hundreds of milliseconds for a large template):
      // the page's kept one, warmed while the file loaded (else one of its own).
      const [{ deriveFormatOffThread, protocolOfDerivedFormat }, { describeDerivedFormat }] = await Promise.all([import("../engine/templates/derive-off-thread.ts"), import("toolcall-middleware/derive/describe-format.ts")]);
      const derivation = derivationWorker ? await derivationWorker.derive(loaded.chatTemplate, name) : await deriveFormatOffThread(loaded.chatTemplate, name);
      if (!derivation.ok) return { template, familyId: null, note: `${note} No call format could be derived from it (${derivation.reason}): calls are read by the protocol chosen in the header.`, dispose };
      const lines = describeDerivedFormat(derivation.format);
      // Its tool section is written by the template too, in the same worker.
      const protocol = protocolOfDerivedFormat(derivation.format, { name: derivedProtocolName(name), label: `Derived from the template of ${name}` }, (variables) => renderer.render(variables));
      return { template, familyId: null, note: `${note} Calls are read by the format derived from its template: ${lines[0]}`, derived: { protocol, lines, template: loaded.chatTemplate }, dispose };
    } catch (error) {
      return { error: `The GGUF's embedded chat template could not be read: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return { error: "The lab does not know this model's family and its GGUF has no chat template, so no prompt can be written for it." };
}

/** A template with the model's own (its file's) beside it, where the file has one. */
function withModelChatTemplate(template: ChatTemplate, modelChatTemplate: string | null | undefined): ChatTemplate {
  return modelChatTemplate ? { ...template, modelChatTemplate } : template;
}

/** An opened file's family by the lab's GGUF rules (name, base name, architecture; its own template where that disagrees). */
async function familyOfOpenedFile(loaded: LoadedCpuModel): Promise<ModelFamily | undefined> {
  const { familyFromGguf } = await import("../gguf/gguf-family.ts");
  const match = familyFromGguf(ggufMetadataFromLlamaCpp(loaded.metadata, loaded.chatTemplate));
  return match.kind === "family" ? match.family : undefined;
}

/**
 * `?templateRenderMs=N` sets the time budget of a GGUF template's render in its worker (the e2e
 * widens it to act on the page while a hostile render runs); else OFF_THREAD_RENDER_BUDGET's.
 */
function templateBudgetFromUrl(): { milliseconds?: number } {
  const value = Number(new URLSearchParams(globalThis.location?.search ?? "").get("templateRenderMs"));
  return Number.isInteger(value) && value > 0 ? { milliseconds: value } : {};
}

/** `?cpuThreads=N` fixes the thread count (the benchmark compares 1 and 2); else it is chosen by measuring the cores (thread-probe.ts). */
function threadsFromUrl(): number | undefined {
  const value = Number(new URLSearchParams(globalThis.location?.search ?? "").get("cpuThreads"));
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

export function createCpuEngine({ engines, turn, protocol, derivedProtocols, derivationWorker, load = loadOnDemand }: {
  engines: Pick<Engines, "setCpuEngine" | "selectEngineKind" | "store">;
  turn: TurnOnTheModel;
  /** Where a listed model's recommended protocol is chosen when it loads (the header's choice). */
  protocol?: ProtocolStore;
  /** Where the protocol derived from an unknown family's own template is kept (then chosen in the header). */
  derivedProtocols?: DerivedProtocolStore;
  /** The page's kept template-derivation worker: warmed as a file of a family not known yet starts loading, so its derivation runs warm. */
  derivationWorker?: DerivationWorker;
  load?: LoadCpuModel;
}) {
  const store = createStore<CpuEngineState>()(() => ({
    selectedModelId: findCpuModel(recall(KEYS.model) ?? "") ? recall(KEYS.model)! : DEFAULT_CPU_MODEL_ID,
    origin: recall(KEYS.origin) === "hugging-face" ? "hugging-face" : "lab-server",
    gpuOffload: false,
    loaded: null,
  }));
  let current: { unload: () => Promise<void> } | null = null;
  /** Stops the worker of the loaded model's own template (an unknown family's GGUF). */
  let disposeTemplate: (() => void) | undefined;
  let loading: AbortController | null = null;
  /** What was loaded last, so a model whose runtime stopped working loads again in one click. */
  let lastLoad: { source: CpuModelSource; familyId: string | undefined; id: string } | null = null;

  async function unloadCurrent(): Promise<void> {
    const model = current;
    current = null;
    disposeTemplate?.();
    disposeTemplate = undefined;
    store.setState({ loaded: null });
    engines.setCpuEngine({ cpuEngine: null, cpuTemplate: null, cpuFamilyId: null });
    if (model) await model.unload().catch(() => undefined);
  }

  /** The runtime of the model that runs now stopped working: the engine goes, the status says why and offers to load it again. */
  function runtimeFailed(model: LoadedCpuModel, failure: RuntimeFailure): void {
    if (current !== model) return;
    current = null;
    store.setState({ loaded: null });
    void model.unload().catch(() => undefined);
    engines.setCpuEngine({
      cpuEngine: null,
      cpuStatus: { state: "error", kind: "cpu-load", message: failure.message, suggestion: "Reload the model: the conversation stays as it is, and its next message runs on the fresh model.", reloadCpu: true },
    });
  }

  async function loadSource(source: CpuModelSource, familyId: string | undefined, id: string, options: { threads?: number } = {}): Promise<void> {
    lastLoad = { source, familyId, id };
    loading?.abort();
    const controller = new AbortController();
    loading = controller;
    engines.selectEngineKind("cpu");
    await turn.stopRunningTurn();
    await unloadCurrent();
    const startedAt = Date.now();
    const what = source.name;
    // A file's family is known only once it has loaded; should its template need deriving, the
    // worker is warm by then (the load takes seconds, the warm-up a fraction of one).
    if (familyId === undefined) void derivationWorker?.warmUp();
    engines.setCpuEngine({ cpuStatus: { state: "loading", what, progress: progressOf(0, 0, startedAt, "Starting llama.cpp (WebAssembly)") } });
    try {
      // The families' templates load with the first model (the first screen has their light index only).
      const { familyById, familyChatTemplate } = await loadFamilyRegistry();
      const family = familyId !== undefined ? familyById(familyId) : undefined;
      const familyTemplate = family ? familyChatTemplate(family) : undefined;
      const bosText = familyTemplate ? bosTextOf(familyTemplate.controlTokens) : undefined;
      const failed: { model?: LoadedCpuModel; failure?: RuntimeFailure } = {};
      const loaded = await load(source, {
        signal: controller.signal,
        onRuntimeFailure: (failure) => {
          if (failed.model) runtimeFailed(failed.model, failure);
          else failed.failure = failure;
        },
        onProgress: ({ loadedBytes, totalBytes }) => {
          if (loading === controller) engines.setCpuEngine({ cpuStatus: { state: "loading", what, progress: progressOf(loadedBytes, totalBytes, startedAt, loadedBytes >= totalBytes && totalBytes > 0 ? "Loading the weights into llama.cpp" : source.kind === "file" ? `Reading ${source.name}` : "Downloading the GGUF file", source.kind === "file") } });
        },
        ...(bosText ? { bosText } : {}),
        ...((options.threads ?? threadsFromUrl()) ? { threads: options.threads ?? threadsFromUrl() } : {}),
        ...(store.getState().gpuOffload ? { gpuLayers: ALL_LAYERS } : {}),
      });
      if (controller.signal.aborted) {
        await loaded.unload().catch(() => undefined);
        return;
      }
      const detected = family ?? (await familyOfOpenedFile(loaded));
      const chosen = await templateFor(detected, familyChatTemplate, loaded, source.name, derivationWorker);
      if (!("error" in chosen) && controller.signal.aborted) chosen.dispose?.();
      if ("error" in chosen) {
        await loaded.unload().catch(() => undefined);
        // A file whose header cannot be read is no model at all (wllama may resolve such a load): say so, and where it broke.
        const broken = source.kind === "file" ? await (await import("../gguf/gguf-readable.ts")).unreadableGgufHeader(source.file) : undefined;
        engines.setCpuEngine({
          cpuStatus: broken
            ? { state: "error", kind: "cpu-load", message: `${source.name} is not a readable GGUF: ${broken}`, suggestion: "Check that the file is a complete GGUF model (llama.cpp's format)." }
            : { state: "error", kind: "cpu-load", message: chosen.error, suggestion: "Open a GGUF with an embedded chat template, or one of the listed models." },
        });
        return;
      }
      current = loaded;
      disposeTemplate = chosen.dispose;
      failed.model = loaded;
      if (chosen.derived && derivedProtocols) {
        derivedProtocols.getState().add(chosen.derived);
        protocol?.getState().setProtocol(chosen.derived.protocol.name);
      } else if (chosen.familyId !== null && loaded.chatTemplate && derivedProtocols) {
        // A known family's file: its calls are read by the family's protocol, and the format
        // derived from the file's own template is offered beside it in the header (derived in
        // the kept worker, after the load: the model is usable at once, the choice comes later).
        void derivedProtocols.getState().offer(loaded.chatTemplate, derivedProtocolName(source.name));
      }
      // The token view reads a CPU step with the GGUF's own vocabulary (steps of this template only).
      loaded.engine.modelTokenizer = ggufModelTokenizer({ modelId: source.name, templateName: templateFamily(chosen.template.name), file: loaded.ggufFile });
      const threads = (loaded.threadChoice ?? `${loaded.threads} thread${loaded.threads === 1 ? "" : "s"}${loaded.isolated ? "" : " (the page is not cross-origin isolated, so single-threaded)"}`) + (loaded.gpu ? `, ${gpuOutcomeWords(loaded.gpu)}` : "");
      store.setState({ loaded: { id, label: source.name, threads: loaded.threads, multiThreaded: loaded.multiThreaded, kernels: loaded.kernels, contextWindowSize: loaded.contextWindowSize, templateNote: chosen.note } });
      engines.setCpuEngine({
        cpuEngine: loaded.engine,
        cpuTemplate: chosen.template,
        cpuFamilyId: chosen.familyId,
        cpuStatus: { state: "ready", note: `${source.name} runs on the CPU (llama.cpp in WebAssembly with ${loaded.kernels} kernels, ${threads}, ${loaded.contextWindowSize.toLocaleString("en-US")}-token window). ${chosen.note}` },
      });
    } catch (error) {
      if (loading !== controller) return;
      const status = await cpuLoadFailure(error, source);
      engines.setCpuEngine({ cpuStatus: status.kind === "cancelled" ? { state: "idle", note: status.message } : status });
    } finally {
      if (loading === controller) loading = null;
    }
  }

  function sourceOf(model: CpuModel): CpuModelSource {
    const hf = store.getState().origin === "hugging-face" ? huggingFaceModelUrl(model) : undefined;
    return { kind: "url", url: hf ?? labServedModelUrl(model), name: model.label };
  }

  /**
   * Loads one of the manifest's models (the selected one by default), with its family's
   * recommended protocol; `keepProtocol` loads it again under the protocol the person chose (the
   * chat's offer after a reload).
   */
  async function loadCpuModel(id: string = store.getState().selectedModelId, options: { threads?: number; keepProtocol?: boolean } = {}): Promise<void> {
    const model = findCpuModel(id);
    if (!model) {
      engines.setCpuEngine({ cpuStatus: { state: "error", kind: "cpu-load", message: `No model "${id}" in the lab's list.`, suggestion: "Pick one of the listed models." } });
      return;
    }
    selectCpuModel(id);
    const family = familyEntryById(model.family);
    if (family && protocol && !options.keepProtocol) protocol.getState().setProtocol(recommendedProtocolOf(family).protocol);
    await loadSource(sourceOf(model), family?.id, model.id, options.threads !== undefined ? { threads: options.threads } : {});
  }

  /** Loads again what was loaded last (after its runtime stopped working). */
  async function reloadCpuModel(): Promise<void> {
    if (lastLoad) await loadSource(lastLoad.source, lastLoad.familyId, lastLoad.id);
    else await loadCpuModel();
  }

  /** Runs a GGUF the person opened (file picker or drop). */
  async function openGgufFile(file: File): Promise<void> {
    if (!/\.gguf$/i.test(file.name)) {
      engines.selectEngineKind("cpu");
      engines.setCpuEngine({ cpuStatus: { state: "error", kind: "cpu-load", message: `${file.name} is not a GGUF file.`, suggestion: "Open a .gguf model file (llama.cpp's format)." } });
      return;
    }
    await loadSource({ kind: "file", file, name: file.name }, undefined, `file:${file.name}`);
  }

  function selectCpuModel(id: string): void {
    remember(KEYS.model, id);
    store.setState({ selectedModelId: id });
  }

  /** Asks for (or stops asking for) the layers on the GPU at the next load. */
  function setGpuOffload(on: boolean): void {
    store.setState({ gpuOffload: on });
  }

  function setOrigin(origin: CpuModelOrigin): void {
    remember(KEYS.origin, origin);
    store.setState({ origin });
  }

  function cancelCpuLoad(): void {
    loading?.abort();
  }

  async function unloadCpuModel(): Promise<void> {
    loading?.abort();
    await turn.stopRunningTurn();
    await unloadCurrent();
    engines.setCpuEngine({ cpuStatus: { state: "idle", note: "Model unloaded; its memory is free." } });
  }

  /** A short size label of a listed model, e.g. "98 MB". */
  const sizeOf = (id: string) => {
    const model = findCpuModel(id);
    return model ? formatBytes(model.sizeBytes) : "";
  };

  return { store, loadCpuModel, reloadCpuModel, openGgufFile, selectCpuModel, setOrigin, setGpuOffload, cancelCpuLoad, unloadCpuModel, sizeOf };
}

export type CpuEngineController = ReturnType<typeof createCpuEngine>;
