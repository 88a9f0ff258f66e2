import { CreateWebWorkerMLCEngine, postInitAndCheckFieldsCompletion, prebuiltAppConfig } from "@mlc-ai/web-llm";
import { describe, expect, it } from "vitest";
import type { EngineChunk } from "../../middleware/types.ts";
import { classifyEngineError, EngineFailure } from "./engine-errors.ts";
import { readLoadProgress } from "./load-progress.ts";
import { buildCatalog, catalog, DEFAULT_MODEL_ID, findModel, isCatalogCandidate, modelsForAdapter, pickVariant } from "./model-catalog.ts";
import { prebuiltModelRecords } from "./prebuilt-models.ts";
import { loadWebLlmModel } from "./model-loader.ts";
import { buildRequest, mapUsage } from "./webllm-engine.ts";

type Message = { kind: string; uuid: string; content: unknown };

/**
 * A stand-in for the worker that answers WebLLM's worker protocol the way
 * WebWorkerMLCEngineHandler does, so the real WebWorkerMLCEngine client runs against it.
 */
class FakeModelWorker {
  onmessage: ((event: unknown) => void) | null = null;
  readonly received: Message[] = [];
  terminated = false;
  private listeners = new Map<string, Set<(event: unknown) => void>>();

  constructor(
    private readonly script: {
      reload?: (worker: FakeModelWorker, msg: Message) => void;
      chunks?: unknown[];
      streamError?: unknown;
      /** Hold the stream after this many chunks until interruptGenerate arrives. */
      pauseAfter?: number;
    } = {},
  ) {}

  private chunkIndex = 0;
  private pendingNext: Message | undefined;
  private interrupted = false;

  postMessage(msg: Message) {
    this.received.push(msg);
    queueMicrotask(() => this.handle(msg));
  }

  reply(uuid: string, content: unknown, kind: "return" | "throw" = "return") {
    this.onmessage?.({ kind, uuid, content });
  }

  progress(uuid: string, content: unknown) {
    this.onmessage?.({ kind: "initProgressCallback", uuid, content });
  }

  private handle(msg: Message) {
    if (this.terminated) return;
    switch (msg.kind) {
      case "setAppConfig":
      case "setLogLevel":
        return;
      case "reload":
        if (this.script.reload) this.script.reload(this, msg);
        else this.reply(msg.uuid, null);
        return;
      case "completionStreamInit":
        this.reply(msg.uuid, null);
        return;
      case "completionStreamNextChunk": {
        if (this.script.streamError) return this.reply(msg.uuid, this.script.streamError, "throw");
        const chunks = this.script.chunks ?? [];
        if (this.script.pauseAfter !== undefined && this.chunkIndex >= this.script.pauseAfter && !this.interrupted) {
          this.pendingNext = msg;
          return;
        }
        const chunk = this.interrupted ? undefined : chunks[this.chunkIndex++];
        this.reply(msg.uuid, chunk);
        return;
      }
      case "interruptGenerate":
        this.interrupted = true;
        this.reply(msg.uuid, null);
        if (this.pendingNext) {
          const pending = this.pendingNext;
          this.pendingNext = undefined;
          this.reply(pending.uuid, undefined);
        }
        return;
      default:
        this.reply(msg.uuid, null);
    }
  }

  terminate() {
    this.terminated = true;
  }
  addEventListener(type: string, listener: (event: unknown) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
  }
  removeEventListener(type: string, listener: (event: unknown) => void) {
    this.listeners.get(type)?.delete(listener);
  }
  dispatch(type: string, event: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  kinds(): string[] {
    return this.received.map((m) => m.kind);
  }
}

const chunk = (text: string, finish: string | null = null) => ({ choices: [{ index: 0, text, finish_reason: finish }] });
const usageChunk = {
  choices: [],
  usage: {
    prompt_tokens: 120,
    completion_tokens: 7,
    total_tokens: 127,
    extra: { time_to_first_token_s: 0.25, decode_tokens_per_s: 31.5, prefill_tokens_per_s: 480 },
  },
};

async function load(worker: FakeModelWorker, extra: Parameters<typeof loadWebLlmModel>[1] = {}) {
  return loadWebLlmModel("Qwen3-1.7B-q4f32_1-MLC", {
    createWorker: () => worker as unknown as Worker,
    createClient: CreateWebWorkerMLCEngine,
    ...extra,
  });
}

async function collect(stream: AsyncIterable<EngineChunk>) {
  const out: EngineChunk[] = [];
  for await (const c of stream) out.push(c);
  return out;
}

describe("WebLLM engine over the worker protocol", () => {
  it("loads with progress, then streams a raw completion of exactly our prompt with usage", async () => {
    const worker = new FakeModelWorker({
      reload: (w, msg) => {
        w.progress(msg.uuid, { progress: 0.5, timeElapsed: 10, text: "Fetching param cache[5/10]: 480MB fetched. 50% completed, 10 secs elapsed." });
        w.reply(msg.uuid, null);
      },
      chunks: [chunk("<tool_"), chunk("call>"), chunk("", "stop"), usageChunk],
    });
    const progress: number[] = [];
    const loaded = await load(worker, { onProgress: (p) => progress.push(p.percent) });
    expect(progress).toEqual([50]);
    const reload = worker.received.find((m) => m.kind === "reload");
    expect(reload?.content).toMatchObject({ modelId: ["Qwen3-1.7B-q4f32_1-MLC"] });

    const prompt = "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n";
    const out = await collect(loaded.engine.generate(prompt, { maxTokens: 64, temperature: 0.2, stop: ["<|im_end|>"] }, new AbortController().signal));
    const init = worker.received.find((m) => m.kind === "completionStreamInit");
    expect((init?.content as { request: unknown }).request).toEqual({
      prompt,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 64,
      temperature: 0.2,
      stop: ["<|im_end|>"],
    });
    expect(out).toEqual([
      { type: "text", text: "<tool_" },
      { type: "text", text: "call>" },
      {
        type: "usage",
        usage: { promptTokens: 120, completionTokens: 7, timeToFirstTokenMs: 250, decodeTokensPerSecond: 31.5, prefillTokensPerSecond: 480, finishReason: "stop" },
      },
    ]);

    await loaded.unload();
    expect(worker.kinds()).toContain("unload");
    expect(worker.terminated).toBe(true);
  });

  it("abort sends interruptGenerate and ends the stream with finishReason abort", async () => {
    const worker = new FakeModelWorker({ chunks: [chunk("a"), chunk("b"), chunk("c")], pauseAfter: 2 });
    const loaded = await load(worker);
    const controller = new AbortController();
    const texts: string[] = [];
    let usage: EngineChunk | undefined;
    for await (const c of loaded.engine.generate("p", {}, controller.signal)) {
      if (c.type === "text") {
        texts.push(c.text);
        if (texts.length === 2) controller.abort();
      } else usage = c;
    }
    expect(texts).toEqual(["a", "b"]);
    expect(worker.kinds()).toContain("interruptGenerate");
    expect(usage).toEqual({ type: "usage", usage: { finishReason: "abort" } });
  });

  it("a lost device mid-generation becomes a clear failure and is reported", async () => {
    const worker = new FakeModelWorker({ streamError: new Error("Device was lost. The GPU device was destroyed.") });
    const lost: EngineFailure[] = [];
    const loaded = await load(worker, { onDeviceLost: (f) => lost.push(f) });
    const failing = collect(loaded.engine.generate("p", {}, new AbortController().signal));
    await expect(failing).rejects.toMatchObject({ kind: "device-lost" });
    expect(lost.map((f) => f.kind)).toEqual(["device-lost"]);
  });

  it("a failed download rejects with a download error and ends the worker", async () => {
    const worker = new FakeModelWorker({
      reload: (w, msg) => w.reply(msg.uuid, new TypeError("Failed to fetch"), "throw"),
    });
    const failing = load(worker);
    await expect(failing).rejects.toBeInstanceOf(EngineFailure);
    await expect(failing).rejects.toMatchObject({ kind: "download-failed", message: expect.stringMatching(/could not download/i) });
    expect(worker.terminated).toBe(true);
  });

  it("cancel during a load terminates the worker and rejects as cancelled", async () => {
    const worker = new FakeModelWorker({ reload: () => undefined /* never answers: a long download */ });
    const controller = new AbortController();
    const loading = load(worker, { signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    await expect(loading).rejects.toMatchObject({ kind: "cancelled" });
    expect(worker.terminated).toBe(true);
  });

  it("a worker that fails to start rejects instead of hanging", async () => {
    const worker = new FakeModelWorker({ reload: () => undefined });
    const loading = load(worker);
    await Promise.resolve();
    worker.dispatch("error", { message: "Uncaught SyntaxError: Unexpected token" });
    await expect(loading).rejects.toMatchObject({ kind: "worker-failed" });
    expect(worker.terminated).toBe(true);
  });
});

describe("request and usage mapping", () => {
  it("builds a request WebLLM's own completion validation accepts", () => {
    const request = buildRequest("<|im_start|>user\nhi<|im_end|>\n", { maxTokens: 16, temperature: 0.7, stop: ["<|im_end|>"] });
    expect(() => postInitAndCheckFieldsCompletion(request as Parameters<typeof postInitAndCheckFieldsCompletion>[0], "m")).not.toThrow();
  });

  it("omits unset settings and empty stop strings", () => {
    expect(buildRequest("x", { topP: 0.95, repetitionPenalty: 1, presencePenalty: 0, frequencyPenalty: 0, seed: 7 })).toMatchObject({
      top_p: 0.95,
      repetition_penalty: 1,
      presence_penalty: 0,
      frequency_penalty: 0,
      seed: 7,
    });
    expect(buildRequest("x", { stop: ["", "<|im_end|>"] })).toEqual({ prompt: "x", stream: true, stream_options: { include_usage: true }, stop: ["<|im_end|>"] });
    expect(buildRequest("x", {})).toEqual({ prompt: "x", stream: true, stream_options: { include_usage: true } });
  });
  it("drops non-finite speeds (no decode steps)", () => {
    expect(mapUsage({ prompt_tokens: 3, completion_tokens: 0, extra: { decode_tokens_per_s: Number.NaN, time_to_first_token_s: 0.1 } })).toEqual({
      promptTokens: 3,
      completionTokens: 0,
      timeToFirstTokenMs: 100,
    });
  });
});

describe("load progress", () => {
  it("reads percent, megabytes, shards and time left from WebLLM's text", () => {
    const p = readLoadProgress({
      progress: 0.25,
      timeElapsed: 30,
      text: "Fetching param cache[12/40]: 300MB fetched. 25% completed, 30 secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.",
    });
    expect(p).toMatchObject({ percent: 25, fetchedMB: 300, shard: { done: 12, total: 40 }, phase: "fetching", secondsLeft: 90 });
    const cached = readLoadProgress({ progress: 1, timeElapsed: 4, text: "Loading model from cache[40/40]: 950MB loaded. 100% completed, 4 secs elapsed." });
    expect(cached).toMatchObject({ percent: 100, fetchedMB: 950, phase: "loading-from-cache" });
    expect(cached.secondsLeft).toBeUndefined();
  });
});

describe("failure classification", () => {
  const cases: Array<[unknown, string]> = [
    [new TypeError("Failed to fetch"), "download-failed"],
    [new Error("Cannot fetch https://huggingface.co/mlc-ai/x/resolve/main/mlc-chat-config.json: 404"), "download-failed"],
    [new DOMException("The quota has been exceeded.", "QuotaExceededError"), "storage-quota"],
    [new Error("WebGPU is not supported in your current environment"), "no-webgpu"],
    [new Error("Unable to find a compatible GPU. This issue might be because your computer doesn't have a GPU"), "no-adapter"],
    [new Error("The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM)."), "device-lost"],
    [new Error("Out of memory while allocating buffer"), "out-of-memory"],
    [new Error("This model requires WebGPU extension shader-f16, which is not enabled in this browser."), "needs-shader-f16"],
    [new Error("Prompt tokens exceed context window size: number of prompt tokens: 5000"), "context-overflow"],
    [new Error("something odd"), "unknown"],
  ];
  it.each(cases)("%s → %s", (error, kind) => {
    const failure = classifyEngineError(error, { phase: "load", modelId: "m" });
    expect(failure.kind).toBe(kind);
    expect(failure.message.length).toBeGreaterThan(10);
    expect(failure.suggestion.length).toBeGreaterThan(10);
  });
  it("suggests a smaller or -1k model when memory runs out", () => {
    expect(classifyEngineError(new Error("out of memory"), { phase: "load" }).suggestion).toMatch(/smaller model.*-1k/);
  });
});

describe("model catalogue", () => {
  it("its snapshot equals WebLLM's own prebuilt records for every catalogue model", () => {
    const live = prebuiltAppConfig.model_list
      .filter((r) => isCatalogCandidate(r.model_id))
      .map((r) => ({
        model_id: r.model_id,
        vram_required_MB: r.vram_required_MB,
        low_resource_required: r.low_resource_required,
        context_window_size: r.overrides?.context_window_size,
      }));
    const snapshot = prebuiltModelRecords.map((r) => ({
      model_id: r.model_id,
      vram_required_MB: r.vram_required_MB,
      low_resource_required: r.low_resource_required,
      context_window_size: r.overrides?.context_window_size,
    }));
    expect(snapshot).toEqual(live);
  });

  it("holds only 4-bit instruction models of the supported families, each with VRAM and size", () => {
    expect(new Set(catalog.map((m) => m.family))).toEqual(new Set(["Qwen3", "Qwen2.5", "Hermes 3", "Llama 3.2", "SmolLM2", "Phi-3.5", "Gemma 2"]));
    for (const model of catalog) {
      expect(model.quantization).toMatch(/^q4f(16|32)_1$/);
      expect(model.vramMB).toBeGreaterThan(0);
      expect(model.downloadMB).toBeGreaterThan(0);
      expect(model.id).not.toMatch(/Math|Coder|DeepSeek|vision/);
    }
    expect(findModel(DEFAULT_MODEL_ID)?.family).toBe("Qwen3");
  });

  it("picks the f32 variant when the adapter lacks shader-f16", () => {
    expect(pickVariant("Qwen3-1.7B-q4f16_1-MLC", false)).toBe("Qwen3-1.7B-q4f32_1-MLC");
    expect(pickVariant("Qwen3-1.7B-q4f16_1-MLC", true)).toBe("Qwen3-1.7B-q4f16_1-MLC");
    expect(pickVariant("gemma-2-2b-it-q4f16_1-MLC-1k", false)).toBe("gemma-2-2b-it-q4f32_1-MLC-1k");
    expect(pickVariant("Qwen3-1.7B-q4f32_1-MLC", false)).toBe("Qwen3-1.7B-q4f32_1-MLC");
    // No f32 twin: keep the id (loading will explain the missing feature).
    const onlyF16 = buildCatalog([{ model_id: "Qwen3-9B-q4f16_1-MLC", vram_required_MB: 1 }]);
    expect(pickVariant("Qwen3-9B-q4f16_1-MLC", false, onlyF16)).toBe("Qwen3-9B-q4f16_1-MLC");
    expect(modelsForAdapter(false).every((m) => !m.needsShaderF16)).toBe(true);
    expect(modelsForAdapter(true).length).toBe(catalog.length);
  });
});
