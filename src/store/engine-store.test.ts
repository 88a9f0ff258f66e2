import { beforeAll, describe, expect, it, vi } from "vitest";
import type { EngineChunk } from "toolcall-middleware/types.ts";

// A working localStorage, so remembering choices can be checked (Node has none).
const storage = new Map<string, string>([["toolcall-lab:model", "SmolLM2-360M-Instruct-q4f16_1-MLC"]]);
vi.stubGlobal("localStorage", {
  getItem: (k: string) => storage.get(k) ?? null,
  setItem: (k: string, v: string) => void storage.set(k, v),
  removeItem: (k: string) => void storage.delete(k),
});

/** No turn runs in these tests: nothing to end before a load. */
const noTurn = { stopRunningTurn: async () => undefined };
// The engines of one page, made after localStorage is stubbed (they read the remembered choices).
let store: import("./engine-store.ts").Engines;
beforeAll(async () => {
  store = (await import("./engine-store.ts")).createEngines({ turn: noTurn });
});

const noGpu = { state: "unavailable", reason: "no-api", message: "This browser has no WebGPU." } as const;
const swiftshader = {
  state: "available",
  vendor: "google",
  architecture: "swiftshader",
  device: "",
  description: "",
  shaderF16: false,
  isFallbackAdapter: true,
} as const;

async function text(stream: AsyncIterable<EngineChunk>): Promise<string> {
  let out = "";
  for await (const chunk of stream) if (chunk.type === "text") out += chunk.text;
  return out;
}

describe("engine store", () => {
  it("starts from the remembered model", () => {
    expect(store.store.getState().selectedModelId).toBe("SmolLM2-360M-Instruct-q4f16_1-MLC");
  });

  it("?engine=replay&transcript=<name> selects the replay engine, its transcript and its protocol", async () => {
    await store.initEngines("?engine=replay&transcript=xml-convert-units", noGpu);
    await vi.waitFor(() => expect(store.store.getState().status.state).toBe("ready"));
    const state = store.store.getState();
    expect(state.kind).toBe("replay");
    expect(state.transcriptProtocol).toBe("xml");
    expect(state.transcript?.title).toMatch(/XML/);
    const resolved = store.resolveActiveEngine();
    if ("error" in resolved) throw new Error(resolved.error);
    expect(await text(resolved.engine.generate("p", {}, new AbortController().signal))).toContain("<tool_name>convert_units</tool_name>");
    expect(resolved.template.render([{ role: "user", content: "hi" }], { addGenerationPrompt: true })).toContain("<|im_start|>user\nhi<|im_end|>");
    expect(storage.get("toolcall-lab:transcript")).toBe("xml-convert-units");
  });

  it("without WebGPU a model load fails clearly and the replay engine still works", async () => {
    await store.loadModel("Qwen3-1.7B-q4f16_1-MLC");
    const status = store.store.getState().status;
    expect(status).toMatchObject({ state: "error", kind: "no-webgpu" });
    expect(store.resolveActiveEngine()).toEqual({ error: expect.stringMatching(/WebGPU/) });
    await store.selectReplay("hermes-calculator");
    expect(store.store.getState().status.state).toBe("ready");
    expect(store.store.getState().transcriptProtocol).toBe("hermes");
  });

  it("a bad transcript name is an error with a suggestion, and nothing else is lost", async () => {
    await store.selectReplay("no-such-transcript");
    const state = store.store.getState();
    expect(state.status).toMatchObject({ state: "error", kind: "transcript", message: expect.stringMatching(/neither a built-in transcript nor a URL/) });
    expect(state.engine).toBeNull();
    expect(state.selectedModelId).toBe("Qwen3-1.7B-q4f16_1-MLC");
  });

  it("on an adapter without shader-f16 the f32 variant is chosen, and a failed worker start is reported", async () => {
    store.selectModel("Qwen3-1.7B-q4f16_1-MLC");
    await store.initEngines("", swiftshader);
    expect(store.store.getState().selectedModelId).toBe("Qwen3-1.7B-q4f32_1-MLC");
    // Node has no Worker: the load fails, the store says so, the app stays usable.
    await store.loadModel("Qwen3-4B-q4f16_1-MLC");
    const state = store.store.getState();
    expect(state.selectedModelId).toBe("Qwen3-4B-q4f32_1-MLC");
    expect(state.status).toMatchObject({ state: "error", kind: "worker-failed" });
    expect(state.template.name).toBe("qwen3");
    store.selectEngineKind("replay");
    await vi.waitFor(() => expect(store.store.getState().engine).not.toBeNull());
    expect(store.store.getState().status.state).toBe("ready");
  });

  it("thinking off renders Qwen3's empty think block and is remembered for this model", () => {
    const model = store.store.getState().selectedModelId;
    store.setThinking(false);
    const prompt = store.store.getState().template.render([{ role: "user", content: "hi" }], { addGenerationPrompt: true });
    expect(prompt.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
    expect(JSON.parse(storage.get("toolcall-lab:thinking-by-model")!)).toEqual({ [model]: false });
    store.setThinking(true);
    expect(store.store.getState().template.render([], { addGenerationPrompt: true }).endsWith("<|im_start|>assistant\n")).toBe(true);
  });

  it("the switch follows the model: Qwen3.5's default by size, the person's setting for a model kept for that model", () => {
    store.selectEngineKind("webllm");
    store.selectModel("Qwen3.5-4B-q4f16_1-MLC");
    expect(store.store.getState().thinking).toBe(true);
    store.selectModel("Qwen3.5-0.8B-q4f16_1-MLC");
    expect(store.store.getState().thinking).toBe(false);
    expect(store.store.getState().template.render([{ role: "user", content: "hi" }], { addGenerationPrompt: true }).endsWith("<think>\n\n</think>\n\n")).toBe(true);
    store.selectModel("Qwen3.5-9B-q4f16_1-MLC");
    store.setThinking(false);
    store.selectModel("Qwen3.5-2B-q4f16_1-MLC");
    expect(store.store.getState().thinking).toBe(false);
    store.setThinking(true);
    store.selectModel("Qwen3.5-4B-q4f16_1-MLC");
    expect(store.store.getState().thinking).toBe(true);
    store.selectModel("Qwen3.5-9B-q4f16_1-MLC");
    expect(store.store.getState().thinking).toBe(false);
    store.selectModel("Qwen3.5-2B-q4f16_1-MLC");
    expect(store.store.getState().thinking).toBe(true);
  });

  it("resetReplay continues a restored conversation at the right turn", async () => {
    await store.selectReplay("hermes-unknown-tool");
    store.resetReplay(2);
    const resolved = store.resolveActiveEngine();
    if ("error" in resolved) throw new Error(resolved.error);
    expect(await text(resolved.engine.generate("p", {}, new AbortController().signal))).toMatch(/can't look up the weather/);
  });
});

describe("the WebLLM kind's template", () => {
  it("is the chosen model's family template once the families load (they are not in the first screen)", async () => {
    const { chatTemplateForModel, replayChatTemplate } = await import("toolcall-middleware/families/registry.ts");
    const engines = (await import("./engine-store.ts")).createEngines({ turn: noTurn });
    engines.selectEngineKind("webllm");
    const model = engines.store.getState().selectedModelId;
    const expected = chatTemplateForModel(model)!;
    // SmolLM2's template, not the replay engine's Qwen3 one it shows while the families load.
    expect(expected.name).not.toBe(replayChatTemplate().name);
    await vi.waitFor(() => expect(engines.store.getState().template.name).toBe(expected.name));
    const prompt = engines.store.getState().template.render([{ role: "user", content: "hi" }], { addGenerationPrompt: true });
    expect(prompt).toBe(expected.render([{ role: "user", content: "hi" }], { addGenerationPrompt: true }));
  });
});

describe("a page opened again after the CPU engine was chosen", () => {
  it("keeps the CPU engine chosen without WebGPU (it needs none) instead of falling back to the replay engine", async () => {
    storage.set("toolcall-lab:engine", "cpu");
    const engines = (await import("./engine-store.ts")).createEngines({ turn: noTurn });
    await engines.initEngines("", noGpu);
    const state = engines.store.getState();
    expect(state.kind).toBe("cpu");
    expect(state.replayStatus.state).toBe("idle");
    expect(storage.get("toolcall-lab:engine")).toBe("cpu");
    // Nothing is loaded until the person asks: the next message says where to load it.
    expect(engines.resolveActiveEngine()).toEqual({ error: expect.stringMatching(/Load a model on the CPU first/) });
  });
});
