// The store's WebLLM life cycle with the loader replaced (no GPU in Node): progress, ready,
// unload, cancel, delete from cache, and a device lost mid-generation.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { LoadOptions } from "../engine/webllm/model-loader.ts";
import { EngineFailure } from "../engine/webllm/engine-errors.ts";
import type { Engine } from "../middleware/types.ts";

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
  isModelCached: async (modelId: string) => loader.cached.has(modelId),
  deleteModelFromCache: async (modelId: string) => {
    loader.deleted.push(modelId);
    loader.cached.delete(modelId);
  },
}));

const store = await import("./engine-store.ts");
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
    expect(store.useEngineStore.getState().status).toMatchObject({ state: "loading", progress: { percent: 40, secondsLeft: 6 } });
    expect(store.resolveActiveEngine()).toEqual({ error: expect.stringMatching(/still loading/) });
    lastCall().resolve(fakeEngine);
    await loading;
    const state = store.useEngineStore.getState();
    expect(state.status.state).toBe("ready");
    expect(state.engine).toBe(fakeEngine);
    expect(state.template.name).toBe("llama-3_1");
    expect(state.cachedModels["Llama-3.2-1B-Instruct-q4f16_1-MLC"]).toBe(true);
    await store.unload();
    expect(loader.unloaded).toContain("Llama-3.2-1B-Instruct-q4f16_1-MLC");
    expect(store.useEngineStore.getState()).toMatchObject({ engine: null, loadedModelId: null, status: { state: "idle" } });
  });

  it("cancel ends the load and leaves the pane idle with a note", async () => {
    const loading = store.loadModel("Qwen3-0.6B-q4f16_1-MLC");
    await vi.waitFor(() => expect(loader.calls.at(-1)?.modelId).toBe("Qwen3-0.6B-q4f16_1-MLC"));
    store.cancelLoad();
    await loading;
    expect(store.useEngineStore.getState().status).toEqual({ state: "idle", note: expect.stringMatching(/cancelled/) });
    expect(store.useEngineStore.getState().engine).toBeNull();
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
    expect(store.useEngineStore.getState().loadedModelId).toBe("Qwen3-1.7B-q4f16_1-MLC");
  });

  it("a device lost mid-generation drops the engine and says what to do", async () => {
    const loading = store.loadModel("Qwen3-4B-q4f16_1-MLC");
    await vi.waitFor(() => expect(loader.calls.at(-1)?.modelId).toBe("Qwen3-4B-q4f16_1-MLC"));
    const call = lastCall();
    call.resolve(fakeEngine);
    await loading;
    call.options.onDeviceLost?.(new EngineFailure("device-lost", "The GPU device was lost while generating.", "Reload the model, or pick a smaller or -1k model.", "Device was lost"));
    expect(store.useEngineStore.getState()).toMatchObject({ engine: null, status: { state: "error", kind: "device-lost", suggestion: expect.stringMatching(/smaller/) } });
    expect(loader.unloaded.at(-1)).toBe("Qwen3-4B-q4f16_1-MLC");
  });

  it("cache status is checked once on first use, and delete-from-cache updates it", async () => {
    loader.cached.add("SmolLM2-360M-Instruct-q4f16_1-MLC");
    store.ensureCacheStatus();
    await vi.waitFor(() => expect(store.useEngineStore.getState().cachedModels["SmolLM2-360M-Instruct-q4f16_1-MLC"]).toBe(true));
    expect(store.useEngineStore.getState().cachedModels["Qwen3-8B-q4f16_1-MLC"]).toBe(false);
    await store.deleteFromCache("SmolLM2-360M-Instruct-q4f16_1-MLC");
    expect(loader.deleted).toEqual(["SmolLM2-360M-Instruct-q4f16_1-MLC"]);
    expect(store.useEngineStore.getState().cachedModels["SmolLM2-360M-Instruct-q4f16_1-MLC"]).toBe(false);
    expect(store.useEngineStore.getState().status).toMatchObject({ state: "idle", note: expect.stringMatching(/Deleted/) });
  });
});
