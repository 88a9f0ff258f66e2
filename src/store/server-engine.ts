// The OpenAI-compatible server engine's settings and connection: base URL, API key, the model
// picked from the server's list, the mode (prompt or native) and, for prompt mode, the chat
// template. Connecting lists the server's models and reports what it found; every change makes
// a fresh engine and hands it to the engine store. The API key is kept for this tab only
// (sessionStorage), the rest for this browser.
import { createStore, type StoreApi } from "zustand/vanilla";
import type { OpenAiMode, ServerModel } from "../engine/openai/openai-engine.ts";
import { inferServerTemplate, type ServerTemplateName } from "toolcall-middleware/families/server-template-names.ts";
import { ServerFailure } from "../engine/openai/server-failure.ts";
import { probeLlamaCpp, type LlamaCppFacts } from "../engine/openai/llama-cpp-probe.ts";
import type { Engines } from "./engine-store.ts";
import { serverThinkingSubject } from "./thinking-choice.ts";

export interface ServerEngineState {
  baseUrl: string;
  apiKey: string;
  models: ServerModel[];
  model: string;
  mode: OpenAiMode;
  /** "auto": inferred from the model's name. */
  template: ServerTemplateName | "auto";
  connecting: boolean;
  /** Set when the server is llama.cpp's: what connecting found out (whether it adds the BOS itself). */
  llamaCpp?: LlamaCppFacts;
}

const KEYS = { baseUrl: "toolcall-lab:server-url", model: "toolcall-lab:server-model", mode: "toolcall-lab:server-mode", template: "toolcall-lab:server-template", apiKey: "toolcall-lab:server-key" };

function stored(storage: Storage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
function store(storage: Storage | undefined, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // Remembering is a convenience; the value holds for this page.
  }
}
const local = () => globalThis.localStorage as Storage | undefined;
const session = () => globalThis.sessionStorage as Storage | undefined;

export type ServerEngineStore = StoreApi<ServerEngineState>;

/** The template prompt mode renders with for the chosen model, or undefined when it must be chosen. */
export function effectiveTemplate(state: Pick<ServerEngineState, "template" | "model">): ServerTemplateName | undefined {
  return state.template === "auto" ? inferServerTemplate(state.model) : state.template;
}

function readyNote(count: number, mode: OpenAiMode, template: ServerTemplateName | undefined, llamaCpp: LlamaCppFacts | undefined): string {
  const found = `Connected: the server lists ${count} model${count === 1 ? "" : "s"}.`;
  if (mode === "native") return `${found} Native mode: the server's own template and tool parser make the calls (the protocol toggle does not apply).`;
  const bos = llamaCpp?.bosAddedByServer
    ? ` llama.cpp adds ${llamaCpp.bosAddedByServer} to every prompt itself, so the lab sends the prompt without its leading ${llamaCpp.bosAddedByServer} (one, not two).`
    : "";
  return `${found} Prompt mode: the lab renders the prompt with the ${template} template and streams it from /v1/completions.${bos}`;
}

/** The page's server engine: its settings' store and the actions that change them (each hands a fresh engine to the engine store). */
export function createServerEngine({ engines }: { engines: Engines }) {
  const { setServerEngine, setThinking, setServerThinkingSubject } = engines;
  const serverStore = createStore<ServerEngineState>()(() => ({
    baseUrl: stored(local(), KEYS.baseUrl) ?? "http://localhost:8000/v1",
    apiKey: stored(session(), KEYS.apiKey) ?? "",
    models: [],
    model: stored(local(), KEYS.model) ?? "",
    mode: stored(local(), KEYS.mode) === "native" ? "native" : "prompt",
    template: (stored(local(), KEYS.template) as ServerTemplateName | null) ?? "auto",
    connecting: false,
  }));

  const get = () => serverStore.getState();

  // The engine's code (and its SSE parser) is fetched when a server is first used, not with the
  // first screen; every later use awaits the same module (a failed fetch is tried again next time).
  let openAiModule: Promise<typeof import("../engine/openai/openai-engine.ts")> | undefined;
  const loadOpenAi = () =>
    (openAiModule ??= import("../engine/openai/openai-engine.ts").catch((error: unknown) => {
      openAiModule = undefined;
      throw error;
    }));

  /**
   * Makes the engine for the current choices (or says what is missing) and hands it on. It reads
   * the choices after the engine's code is there, so the last of several quick changes wins.
   */
  async function rebuild(): Promise<void> {
    if (!get().model) {
      setServerEngine({ serverEngine: null, serverTemplate: null });
      return;
    }
    let OpenAiEngine: typeof import("../engine/openai/openai-engine.ts").OpenAiEngine;
    let serverChatTemplate: typeof import("toolcall-middleware/families/server-templates.ts").serverChatTemplate;
    try {
      // The families' templates load with the engine's code (the first screen has their names only).
      [{ OpenAiEngine }, { serverChatTemplate }] = await Promise.all([loadOpenAi(), import("toolcall-middleware/families/server-templates.ts")]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setServerEngine({ serverEngine: null, serverTemplate: null, serverStatus: { state: "error", kind: "unknown", message: `The server engine's code did not load: ${message}`, suggestion: "Reload the page (the app may have been updated), then connect again." } });
      return;
    }
    const { baseUrl, apiKey, model, mode, models, llamaCpp } = get();
    if (!model) {
      setServerEngine({ serverEngine: null, serverTemplate: null });
      return;
    }
    const templateName = effectiveTemplate(get());
    if (mode === "prompt" && !templateName) {
      setServerEngine({
        serverEngine: null,
        serverTemplate: null,
        serverStatus: { state: "error", kind: "unknown", message: `The lab cannot tell which chat template "${model}" was trained on.`, suggestion: "Choose the chat template in the Model pane, or use native mode." },
      });
      return;
    }
    const contextWindowSize = models.find((m) => m.id === model)?.contextWindowSize;
    // The switch follows the model: its own default (Qwen3.5 by size) unless the person set it for this model.
    setServerThinkingSubject(serverThinkingSubject(model, templateName));
    const thinking = engines.store.getState().thinking;
    const engine = new OpenAiEngine({ baseUrl, model, mode, ...(apiKey ? { apiKey } : {}), ...(contextWindowSize ? { contextWindowSize } : {}), ...(llamaCpp ? { llamaCpp } : {}) });
    setServerEngine({
      serverEngine: engine,
      serverTemplate: mode === "prompt" && templateName ? serverChatTemplate(templateName, { enableThinking: thinking }) : null,
      serverStatus: { state: "ready", note: readyNote(models.length, mode, templateName, llamaCpp) },
    });
  }

  function setServerConnection(patch: { baseUrl?: string; apiKey?: string }): void {
    if (patch.baseUrl !== undefined) store(local(), KEYS.baseUrl, patch.baseUrl);
    if (patch.apiKey !== undefined) store(session(), KEYS.apiKey, patch.apiKey);
    serverStore.setState(patch);
  }

  /** Asks the server for its models and reports what it found. */
  async function connectServer(): Promise<void> {
    const { baseUrl, apiKey } = get();
    serverStore.setState({ connecting: true });
    setServerEngine({ serverEngine: null, serverStatus: { state: "loading", what: "the server's model list" } });
    try {
      const { listModels, normalizeBaseUrl } = await loadOpenAi();
      const normalized = normalizeBaseUrl(baseUrl);
      const models = await listModels({ baseUrl: normalized, ...(apiKey ? { apiKey } : {}) });
      if (models.length === 0) throw new ServerFailure("unknown-model", "The server lists no models.", "Start the server with a model loaded.");
      const llamaCpp = await probeLlamaCpp(normalized, apiKey || undefined);
      const remembered = get().model;
      const model = models.some((m) => m.id === remembered) ? remembered : models[0]!.id;
      serverStore.setState({ models, model, baseUrl: normalized, llamaCpp });
      store(local(), KEYS.model, model);
      await rebuild();
    } catch (error) {
      const failure = error instanceof ServerFailure ? error : new ServerFailure("server-error", error instanceof Error ? error.message : String(error), "Check the base URL and the server.");
      serverStore.setState({ models: [], llamaCpp: undefined });
      setServerEngine({ serverEngine: null, serverStatus: { state: "error", kind: "unknown", message: failure.message, suggestion: failure.suggestion, ...(failure.detail ? { detail: failure.detail } : {}) } });
    } finally {
      serverStore.setState({ connecting: false });
    }
  }

  function selectServerModel(model: string): void {
    store(local(), KEYS.model, model);
    serverStore.setState({ model });
    void rebuild();
  }

  /** Resolves once the engine for the new mode is handed on (a comparison awaits it before sending). */
  async function setServerMode(mode: OpenAiMode): Promise<void> {
    store(local(), KEYS.mode, mode);
    serverStore.setState({ mode });
    if (get().models.length > 0) await rebuild();
  }

  function setServerTemplate(template: ServerTemplateName | "auto"): void {
    store(local(), KEYS.template, template);
    serverStore.setState({ template });
    if (get().models.length > 0) void rebuild();
  }

  /** Thinking on or off changes Qwen3's template (prompt mode). */
  function setServerThinking(on: boolean): void {
    setThinking(on);
    if (get().models.length > 0) void rebuild();
  }

  return { store: serverStore, setServerConnection, connectServer, selectServerModel, setServerMode, setServerTemplate, setServerThinking };
}

export type ServerEngine = ReturnType<typeof createServerEngine>;
