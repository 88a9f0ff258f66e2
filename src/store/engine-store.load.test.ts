// The store's WebLLM life cycle with the loader replaced (no GPU in Node): progress, ready,
// unload, cancel, delete from cache, and a device lost mid-generation.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { LoadOptions } from "../engine/webllm/model-loader.ts";
import { EngineFailure } from "../engine/webllm/engine-errors.ts";
import type { Engine, Protocol } from "toolcall-middleware/types.ts";
import { samplingDefaultsFor } from "toolcall-middleware/families/registry.ts";

const loader = vi.hoisted(() => ({
  calls: [] as Array<{ modelId: string; options: LoadOptions; resolve: (engine: Engine) => void; reject: (e: unknown) => void }>,
  unloaded: [] as string[],
  deleted: [] as string[],
  cached: new Set<string>(),
}));

vi.mock("../engine/webllm/model-loader.ts", () => ({
  loadWebLlmModel: (modelId: string, options: LoadOptions) =>
    new Promise((resolve, reject) => {
      options.signal?.addEventListener("abort", () => reject(new EngineFailure("cancelled", `Loading "${modelId}" was cancelled.`, "Load it again.", "AbortError")));
      loader.calls.push({
        modelId,
        options,
        resolve: (engine) => resolve({ engine, modelId, unload: async () => void loader.unloaded.push(modelId) }),
        reject,
      });
    }),
}));

vi.mock("../engine/webllm/model-cache.ts", () => ({
  queryCacheStatus: async (modelIds: string[]) => Object.fromEntries(modelIds.map((id) => [id, loader.cached.has(id)])),
  // WebLLM deletes the weights (shared by a -1k twin) and the model library (shared by others).
  deleteModelFromCache: async (modelId: string) => {
    loader.deleted.push(modelId);
    for (const id of [...loader.cached]) if (id === modelId || id === `${modelId}-1k` || `${id}-1k` === modelId) loader.cached.delete(id);
  },
}));

const engineModule = await import("./engine-store.ts");
const { classifyEngineError } = await import("../engine/webllm/engine-errors.ts");
const { createRunController, createRunStore } = await import("./run-controller.ts");
const { createConversations } = await import("./conversation-store.ts");
const { createTabStatusStore } = await import("./tab-status.ts");
// The page's conversations and run controller, for this file: loading, unloading and deleting a model end its running turn first.
const conversations = createConversations({ tabStatus: createTabStatusStore() });
const runStore = createRunStore();
const run = createRunController({ run: runStore, conversations });
const { configureRunEnvironment, sendMessage } = run;
// The page's engines, for this file, with that run controller.
const store = engineModule.createEngines({ turn: run });
const { conversationActions, store: conversationStore } = conversations;
const gpu = { state: "available", vendor: "v", architecture: "a", device: "", description: "", shaderF16: true, isFallbackAdapter: false } as const;
const fakeEngine: Engine = { name: "fake", generate: async function* () {} };
/** Waits for the load started after `before` calls. */
async function nextCall(before: number) {
  await vi.waitFor(() => expect(loader.calls.length).toBe(before + 1));
  return lastCall();
}
const lastCall = () => {
  const call = loader.calls.at(-1);
  if (!call) throw new Error("no load started");
  return call;
};

beforeEach(async () => {
  await store.initEngines("?engine=webllm", gpu);
});

describe("engine store: WebLLM life cycle", () => {
  it("shows progress while loading, then is ready with the model's own template; unload frees it", async () => {
    const loading = store.loadModel("Llama-3.2-1B-Instruct-q4f16_1-MLC");
    await vi.waitFor(() => expect(loader.calls.length).toBeGreaterThan(0));
    lastCall().options.onProgress?.({ fraction: 0.4, percent: 40, text: "Fetching", phase: "fetching", elapsedSeconds: 4, secondsLeft: 6 });
    expect(store.store.getState().status).toMatchObject({ state: "loading", progress: { percent: 40, secondsLeft: 6 } });
    expect(store.resolveActiveEngine()).toEqual({ error: expect.stringMatching(/still loading/) });
    lastCall().resolve(fakeEngine);
    await loading;
    const state = store.store.getState();
    expect(state.status.state).toBe("ready");
    expect(state.engine).toBe(fakeEngine);
    expect(state.template.name).toBe("llama-3_2");
    expect(state.cachedModels["Llama-3.2-1B-Instruct-q4f16_1-MLC"]).toBe(true);
    await store.unload();
    expect(loader.unloaded).toContain("Llama-3.2-1B-Instruct-q4f16_1-MLC");
    expect(store.store.getState()).toMatchObject({ engine: null, loadedModelId: null, status: { state: "idle" } });
  });

  it("cancel ends the load and leaves the pane idle with a note", async () => {
    const loading = store.loadModel("Qwen3-0.6B-q4f16_1-MLC");
    await vi.waitFor(() => expect(loader.calls.at(-1)?.modelId).toBe("Qwen3-0.6B-q4f16_1-MLC"));
    store.cancelLoad();
    await loading;
    expect(store.store.getState().status).toEqual({ state: "idle", note: expect.stringMatching(/cancelled/) });
    expect(store.store.getState().engine).toBeNull();
  });

  it("loading another model unloads the first", async () => {
    const start = loader.calls.length;
    const first = store.loadModel("Qwen3-0.6B-q4f16_1-MLC");
    (await nextCall(start)).resolve(fakeEngine);
    await first;
    const before = loader.calls.length;
    const second = store.loadModel("Qwen3-1.7B-q4f16_1-MLC");
    const call = await nextCall(before);
    expect(call.modelId).toBe("Qwen3-1.7B-q4f16_1-MLC");
    expect(loader.unloaded.at(-1)).toBe("Qwen3-0.6B-q4f16_1-MLC");
    call.resolve(fakeEngine);
    await second;
    expect(store.store.getState().loadedModelId).toBe("Qwen3-1.7B-q4f16_1-MLC");
  });

  it("a device lost mid-generation drops the engine and says what to do", async () => {
    const loading = store.loadModel("Qwen3-4B-q4f16_1-MLC");
    await vi.waitFor(() => expect(loader.calls.at(-1)?.modelId).toBe("Qwen3-4B-q4f16_1-MLC"));
    const call = lastCall();
    call.resolve(fakeEngine);
    await loading;
    call.options.onDeviceLost?.(new EngineFailure("device-lost", "The GPU device was lost while generating.", "Reload the model, or pick a smaller model.", "Device was lost"));
    expect(store.store.getState()).toMatchObject({
      engine: null,
      status: { state: "error", kind: "device-lost", suggestion: expect.stringMatching(/smaller/), reloadModelId: "Qwen3-4B-q4f16_1-MLC" },
    });
    expect(loader.unloaded.at(-1)).toBe("Qwen3-4B-q4f16_1-MLC");
  });

  it("a model lost while idle is shown as lost with a reload, which loads it again", async () => {
    const before = loader.calls.length;
    const loading = store.loadModel("Qwen3-0.6B-q4f16_1-MLC");
    const call = await nextCall(before);
    call.resolve(fakeEngine);
    await loading;
    // What the loader reports when the worker says WebLLM unloaded the model by itself.
    call.options.onDeviceLost?.(classifyEngineError(new Error("Model not loaded: WebLLM unloaded it."), { phase: "generate", modelId: "Qwen3-0.6B-q4f16_1-MLC" }));
    const status = store.store.getState().status;
    expect(status).toMatchObject({ state: "error", kind: "model-lost", reloadModelId: "Qwen3-0.6B-q4f16_1-MLC", message: expect.stringMatching(/no longer loaded/) });
    expect(store.resolveActiveEngine()).toEqual({ error: expect.stringMatching(/no longer loaded.*Reload the model/) });
    const reload = store.loadModel(status.state === "error" ? status.reloadModelId : undefined);
    (await nextCall(before + 1)).resolve(fakeEngine);
    await reload;
    expect(store.store.getState()).toMatchObject({ loadedModelId: "Qwen3-0.6B-q4f16_1-MLC", status: { state: "ready" } });
  });

  it("while a stopped generation still holds the GPU, the label says the next one waits", async () => {
    const before = loader.calls.length;
    const loading = store.loadModel("Qwen3-1.7B-q4f16_1-MLC");
    const call = await nextCall(before);
    call.resolve(fakeEngine);
    await loading;
    call.options.onQueueChange?.({ waiting: 1, draining: true });
    expect(engineModule.engineSelectors.label(store.store.getState())).toMatch(/waiting for the GPU to finish the stopped generation/);
    call.options.onQueueChange?.({ waiting: 0, draining: false });
    expect(engineModule.engineSelectors.label(store.store.getState())).not.toMatch(/waiting/);
  });

  it("unload, load and delete while a turn runs stop the turn first, so it never hangs on a gone worker", async () => {
    await conversationActions.init(null);
    const order: string[] = [];
    configureRunEnvironment({
      runLoop: async function* (options) {
        yield { type: "run-start", runId: "r", at: 1, protocol: "hermes", messages: options.messages, tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } };
        await new Promise((resolve) => (options.signal?.aborted ? resolve(null) : options.signal?.addEventListener("abort", resolve, { once: true })));
        order.push("turn stopped");
        throw new DOMException("aborted", "AbortError");
      },
      resolveProtocol: async () => ({ name: "hermes" }) as Protocol,
      resolveEngine: () => ({ engine: fakeEngine }),
      resolveTools: () => [],
      protocolName: () => "hermes",
      samplingDefaults: () => samplingDefaultsFor("Qwen3-1.7B-q4f16_1-MLC", true),
    });
    const before = loader.calls.length;
    const loading = store.loadModel("Qwen3-1.7B-q4f16_1-MLC");
    (await nextCall(before)).resolve(fakeEngine);
    await loading;
    for (const action of [() => store.unload(), () => store.loadModel("Qwen3-0.6B-q4f16_1-MLC"), () => store.deleteFromCache("Qwen3-0.6B-q4f16_1-MLC")]) {
      order.length = 0;
      const unloadedBefore = loader.unloaded.length;
      const turn = sendMessage("hi");
      // The turn's loop is under way (a turn also counts as running while it claims its conversation).
      await vi.waitFor(() => expect(conversationStore.getState().liveRunId).not.toBeNull());
      const done = action();
      await vi.waitFor(() => expect(order).toEqual(["turn stopped"]));
      await turn;
      expect(runStore.getState().running).toBe(false);
      const calls = loader.calls.length;
      if (calls > 0 && loader.calls.at(-1)?.modelId === "Qwen3-0.6B-q4f16_1-MLC" && store.store.getState().status.state === "loading") loader.calls.at(-1)?.resolve(fakeEngine);
      await done;
      expect(loader.unloaded.length).toBeGreaterThanOrEqual(unloadedBefore);
      const events = conversationStore.getState().active?.events ?? [];
      expect(events.at(-1)).toMatchObject({ type: "run-end", status: "aborted" });
    }
  });

  it("deleting a model updates every model whose files it shared", async () => {
    loader.cached.add("gemma-2-2b-it-q4f16_1-MLC");
    loader.cached.add("gemma-2-2b-it-q4f16_1-MLC-1k");
    await store.refreshCacheStatus(["gemma-2-2b-it-q4f16_1-MLC", "gemma-2-2b-it-q4f16_1-MLC-1k"]);
    expect(store.store.getState().cachedModels["gemma-2-2b-it-q4f16_1-MLC-1k"]).toBe(true);
    await store.deleteFromCache("gemma-2-2b-it-q4f16_1-MLC");
    const state = store.store.getState();
    expect(state.cachedModels["gemma-2-2b-it-q4f16_1-MLC"]).toBe(false);
    expect(state.cachedModels["gemma-2-2b-it-q4f16_1-MLC-1k"]).toBe(false);
    expect(state.status).toMatchObject({ state: "idle", note: expect.stringMatching(/shared with gemma-2-2b-it-q4f16_1-MLC-1k were removed too/) });
  });

  it("cache status is checked once on first use, and delete-from-cache updates it", async () => {
    loader.cached.add("SmolLM2-360M-Instruct-q4f16_1-MLC");
    store.ensureCacheStatus();
    await vi.waitFor(() => expect(store.store.getState().cachedModels["SmolLM2-360M-Instruct-q4f16_1-MLC"]).toBe(true));
    expect(store.store.getState().cachedModels["Qwen3-8B-q4f16_1-MLC"]).toBe(false);
    await store.deleteFromCache("SmolLM2-360M-Instruct-q4f16_1-MLC");
    expect(loader.deleted.at(-1)).toBe("SmolLM2-360M-Instruct-q4f16_1-MLC");
    expect(store.store.getState().cachedModels["SmolLM2-360M-Instruct-q4f16_1-MLC"]).toBe(false);
    expect(store.store.getState().status).toMatchObject({ state: "idle", note: expect.stringMatching(/Deleted/) });
  });
});
