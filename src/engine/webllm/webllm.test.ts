import { postInitAndCheckFieldsCompletion, prebuiltAppConfig } from "@mlc-ai/web-llm";
import { describe, expect, it, vi } from "vitest";
import type { EngineChunk } from "toolcall-middleware/types.ts";
import { classifyEngineError, EngineFailure } from "./engine-errors.ts";
import { readLoadProgress } from "./load-progress.ts";
import { buildCatalog, catalog, DEFAULT_MODEL_ID, findModel, isCatalogCandidate, modelsForAdapter, modelsSharingFiles, pickVariant } from "./model-catalog.ts";
import { families, webllmModelRecords } from "toolcall-middleware/families/registry.ts";
import { loadWebLlmModel } from "./model-loader.ts";
import { queryCacheStatus } from "./model-cache.ts";
import type { WorkerLike } from "./worker-client.ts";
import { buildRequest, mapUsage } from "./webllm-engine.ts";

type Message = { kind: string; uuid: string; content: unknown };

/**
 * A stand-in for the model worker that answers WebLLM's worker protocol the way
 * WebWorkerMLCEngineHandler does (and the lab's own messages the way LabWorkerHandler does), so
 * the page's client and engine run against it. The e2e harness runs the real handler.
 */
class FakeModelWorker {
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
      /** Hold every stream start (a long prefill) until release() is called. */
      holdStart?: boolean;
      modelInfo?: { contextWindowSize?: number };
      tokenCount?: number;
    } = {},
  ) {}

  private chunkIndex = 0;
  private pendingNext: Message | undefined;
  private heldStarts: Message[] = [];
  private interrupted = false;

  postMessage(msg: Message) {
    this.received.push(msg);
    queueMicrotask(() => this.handle(msg));
  }

  reply(uuid: string, content: unknown, kind: "return" | "throw" = "return") {
    if (!this.terminated) this.dispatch("message", { data: { kind, uuid, content } });
  }

  send(kind: string, content: unknown) {
    this.dispatch("message", { data: { kind, uuid: "", content } });
  }

  progress(content: unknown) {
    this.send("initProgressCallback", content);
  }

  /** Lets held stream starts through (the prefill finished). */
  release() {
    const held = this.heldStarts;
    this.heldStarts = [];
    for (const msg of held) this.reply(msg.uuid, null);
  }

  private handle(msg: Message) {
    if (this.terminated) return;
    switch (msg.kind) {
      case "reload":
        if (this.script.reload) this.script.reload(this, msg);
        else this.reply(msg.uuid, null);
        return;
      case "lab:modelInfo":
        this.reply(msg.uuid, { modelId: "m", ...(this.script.modelInfo ?? { contextWindowSize: 4096 }) });
        return;
      case "lab:cacheStatus":
        return; // answered by the test
      case "lab:countTokens":
        this.reply(msg.uuid, this.script.tokenCount ?? 0);
        return;
      case "lab:tokenize":
        this.reply(msg.uuid, { ids: new Int32Array([7, 8]), control: new Uint8Array([1, 0]), spans: null });
        return;
      case "completionStreamInit":
        this.interrupted = false;
        this.chunkIndex = 0;
        if (this.script.holdStart) this.heldStarts.push(msg);
        else this.reply(msg.uuid, null);
        return;
      case "completionStreamNextChunk": {
        if (this.script.streamError) return this.reply(msg.uuid, String(this.script.streamError), "throw");
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
    for (const listener of [...(this.listeners.get(type) ?? [])]) listener(event);
  }
  kinds(): string[] {
    return this.received.map((m) => m.kind);
  }
}

const chunk = (text: string, finish: string | null = null) => ({ choices: [{ index: 0, text, finish_reason: finish }] });
const usageChunk = (prompt = 120, completion = 7) => ({
  choices: [],
  usage: {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    extra: { time_to_first_token_s: 0.25, decode_tokens_per_s: 31.5, prefill_tokens_per_s: 480 },
  },
});

async function load(worker: FakeModelWorker, extra: Parameters<typeof loadWebLlmModel>[1] = {}) {
  return loadWebLlmModel("Qwen3-1.7B-q4f32_1-MLC", { createWorker: () => worker as unknown as WorkerLike, ...extra });
}

async function collect(stream: AsyncIterable<EngineChunk>) {
  const out: EngineChunk[] = [];
  for await (const c of stream) out.push(c);
  return out;
}

const usageOf = (chunks: EngineChunk[]) => chunks.find((c): c is Extract<EngineChunk, { type: "usage" }> => c.type === "usage")?.usage;

describe("WebLLM engine over the worker protocol", () => {
  it("loads with progress, then streams a raw completion of exactly our prompt with usage", async () => {
    const worker = new FakeModelWorker({
      reload: (w, msg) => {
        w.progress({ progress: 0.5, timeElapsed: 10, text: "Fetching param cache[5/10]: 480MB fetched. 50% completed, 10 secs elapsed." });
        w.reply(msg.uuid, null);
      },
      chunks: [chunk("<tool_"), chunk("call>"), chunk("", "stop"), usageChunk()],
    });
    const progress: number[] = [];
    const loaded = await load(worker, { onProgress: (p) => progress.push(p.percent) });
    expect(progress).toEqual([50]);
    const reload = worker.received.find((m) => m.kind === "reload");
    expect(reload?.content).toMatchObject({ modelId: ["Qwen3-1.7B-q4f32_1-MLC"] });
    expect(loaded.engine.contextWindowSize).toBe(4096);

    const prompt = "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n";
    const out = await collect(loaded.engine.generate(prompt, { maxTokens: 64, temperature: 0.2, stop: ["<|im_end|>"] }, new AbortController().signal));
    const init = worker.received.find((m) => m.kind === "completionStreamInit");
    expect(init?.content).toMatchObject({ selectedModelId: "Qwen3-1.7B-q4f32_1-MLC", modelId: ["Qwen3-1.7B-q4f32_1-MLC"] });
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

  it("sends the sampling settings explicitly", async () => {
    const worker = new FakeModelWorker({ chunks: [chunk("", "stop")] });
    const loaded = await load(worker);
    await collect(
      loaded.engine.generate("p", { maxTokens: 8, temperature: 0.6, topP: 0.95, repetitionPenalty: 1, presencePenalty: 0.5, frequencyPenalty: 0, seed: 42 }, new AbortController().signal),
    );
    const init = worker.received.find((m) => m.kind === "completionStreamInit");
    expect((init?.content as { request: unknown }).request).toMatchObject({ top_p: 0.95, repetition_penalty: 1, presence_penalty: 0.5, frequency_penalty: 0, seed: 42 });
  });

  it("a length stop says whether max tokens or the context window ran out", async () => {
    const atMax = await load(new FakeModelWorker({ chunks: [chunk("abc"), chunk("", "length"), usageChunk(100, 64)], modelInfo: { contextWindowSize: 4096 } }));
    expect(usageOf(await collect(atMax.engine.generate("p", { maxTokens: 64 }, new AbortController().signal)))).toMatchObject({ finishReason: "length", cutOff: "max-tokens" });
    const full = await load(new FakeModelWorker({ chunks: [chunk("abc"), chunk("", "length"), usageChunk(4000, 97)], modelInfo: { contextWindowSize: 4096 } }));
    const out = await collect(full.engine.generate("p", { maxTokens: 1024 }, new AbortController().signal));
    expect(out[0]).toEqual({ type: "text", text: "abc" });
    expect(usageOf(out)).toMatchObject({ finishReason: "length", cutOff: "context-window", promptTokens: 4000, completionTokens: 97 });
  });

  it("an abort finish the lab did not ask for is an engine error, not a completed turn", async () => {
    const loaded = await load(new FakeModelWorker({ chunks: [chunk("par"), chunk("", "abort"), usageChunk(10, 1)] }));
    await expect(collect(loaded.engine.generate("p", {}, new AbortController().signal))).rejects.toMatchObject({ kind: "interrupted" });
  });

  it("a worker that cannot say the context window still loads the model, without a window size", async () => {
    const worker = new FakeModelWorker();
    const loading = load(worker);
    // Answer lab:modelInfo with an error, as LabWorkerHandler would if WebLLM's internals moved.
    worker.postMessage = ((post) => (msg: Message) => {
      if (msg.kind === "lab:modelInfo") queueMicrotask(() => worker.reply(msg.uuid, "Error: Model not loaded.", "throw"));
      else post(msg);
    })(worker.postMessage.bind(worker));
    const loaded = await loading;
    expect(loaded.engine.contextWindowSize).toBeUndefined();
  });

  it("counts a prompt's tokens with the worker's tokenizer", async () => {
    const worker = new FakeModelWorker({ tokenCount: 1234 });
    const loaded = await load(worker);
    expect(await loaded.engine.countPromptTokens?.("<|im_start|>system\n…")).toBe(1234);
    expect(worker.received.find((m) => m.kind === "lab:countTokens")?.content).toEqual({ prompt: "<|im_start|>system\n…" });
  });

  it("lists a text's tokens with the worker's tokenizer, passing the template's control tokens", async () => {
    const worker = new FakeModelWorker({});
    const loaded = await load(worker);
    const tokens = await loaded.engine.tokenize?.("<|im_start|>x", ["<|im_start|>"]);
    expect(Array.from(tokens!.ids)).toEqual([7, 8]);
    expect(worker.received.find((m) => m.kind === "lab:tokenize")?.content).toEqual({ text: "<|im_start|>x", controlTokens: ["<|im_start|>"] });
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
    expect(usage).toEqual({ type: "usage", usage: { finishReason: "abort" } });
    // The stream is closed in WebLLM so its lock is freed for the next request.
    await vi.waitFor(() => expect(worker.kinds()).toContain("completionStreamReturn"));
  });

  it("a stop during prefill ends the stream at once; the next generation waits for the GPU and says so", async () => {
    const worker = new FakeModelWorker({ holdStart: true, chunks: [chunk("x"), chunk("", "stop")] });
    const queue: Array<{ waiting: number; draining: boolean }> = [];
    const loaded = await load(worker, { onQueueChange: (state) => queue.push(state) });
    const first = new AbortController();
    const stopped = collect(loaded.engine.generate("long prompt", {}, first.signal));
    await vi.waitFor(() => expect(worker.kinds()).toContain("completionStreamInit"));
    first.abort();
    // Ends while WebLLM is still in prefill (the worker holds the start).
    expect(await stopped).toEqual([{ type: "usage", usage: { finishReason: "abort" } }]);
    expect(worker.kinds()).toContain("interruptGenerate");
    const next = collect(loaded.engine.generate("next", {}, new AbortController().signal));
    await vi.waitFor(() => expect(loaded.engine.queueState).toEqual({ waiting: 1, draining: true }));
    expect(worker.kinds().filter((k) => k === "completionStreamInit")).toHaveLength(1);
    worker.release();
    await vi.waitFor(() => expect(worker.kinds().filter((k) => k === "completionStreamInit")).toHaveLength(2));
    worker.release();
    expect((await next).filter((c) => c.type === "text")).toEqual([{ type: "text", text: "x" }]);
    expect(queue).toContainEqual({ waiting: 1, draining: true });
    expect(loaded.engine.queueState).toEqual({ waiting: 0, draining: false });
  });

  it("two generations on one engine take turns, and stopping the waiting one does not interrupt the running one", async () => {
    const worker = new FakeModelWorker({ chunks: [chunk("a"), chunk("b"), chunk("", "stop")], pauseAfter: 1 });
    const loaded = await load(worker);
    const firstReader = loaded.engine.generate("one", {}, new AbortController().signal)[Symbol.asyncIterator]();
    expect(await firstReader.next()).toEqual({ done: false, value: { type: "text", text: "a" } });
    const second = new AbortController();
    const secondRun = collect(loaded.engine.generate("two", {}, second.signal));
    await vi.waitFor(() => expect(loaded.engine.queueState.waiting).toBe(1));
    expect(worker.kinds().filter((k) => k === "completionStreamInit")).toHaveLength(1);
    second.abort();
    expect(await secondRun).toEqual([]);
    expect(worker.kinds()).not.toContain("interruptGenerate");
  });

  it("unloading during a generation fails it at once instead of leaving it hanging", async () => {
    const worker = new FakeModelWorker({ chunks: [chunk("a"), chunk("b")], pauseAfter: 1 });
    const loaded = await load(worker);
    const running = collect(loaded.engine.generate("p", {}, new AbortController().signal));
    await vi.waitFor(() => expect(worker.kinds().filter((k) => k === "completionStreamNextChunk")).toHaveLength(2));
    await loaded.unload();
    await expect(running).rejects.toMatchObject({ kind: "unloaded" });
  });

  it("a worker that fails mid-stream fails the stream and is reported", async () => {
    const worker = new FakeModelWorker({ chunks: [chunk("a"), chunk("b")], pauseAfter: 1 });
    const failed: string[] = [];
    const loaded = await load(worker, { onWorkerFailed: (f) => failed.push(f.kind) });
    const running = collect(loaded.engine.generate("p", {}, new AbortController().signal));
    await vi.waitFor(() => expect(worker.kinds().filter((k) => k === "completionStreamNextChunk")).toHaveLength(2));
    worker.dispatch("error", { message: "Uncaught RangeError: out of bounds" });
    await expect(running).rejects.toMatchObject({ kind: "worker-failed" });
    expect(failed).toEqual(["worker-failed"]);
    expect(worker.terminated).toBe(true);
  });

  it("a lost device mid-generation becomes a clear failure and is reported", async () => {
    const worker = new FakeModelWorker({ streamError: new Error("Device was lost. The GPU device was destroyed.") });
    const lost: EngineFailure[] = [];
    const loaded = await load(worker, { onDeviceLost: (f) => lost.push(f) });
    const failing = collect(loaded.engine.generate("p", {}, new AbortController().signal));
    await expect(failing).rejects.toMatchObject({ kind: "device-lost" });
    expect(lost.map((f) => f.kind)).toEqual(["device-lost"]);
  });

  it("a model WebLLM unloaded while idle (GPU lost) is reported at once, and a request then says the model is lost", async () => {
    const worker = new FakeModelWorker({ streamError: "ModelNotLoadedError: Model not loaded before trying to complete CompletionCreateParams." });
    const lost: EngineFailure[] = [];
    const loaded = await load(worker, { onDeviceLost: (f) => lost.push(f) });
    worker.send("lab:modelLost", { modelIds: ["Qwen3-1.7B-q4f32_1-MLC"] });
    expect(lost.map((f) => f.kind)).toEqual(["model-lost"]);
    const failing = collect(loaded.engine.generate("p", {}, new AbortController().signal));
    await expect(failing).rejects.toMatchObject({ kind: "model-lost", message: expect.stringMatching(/Reload the model.*Model not loaded/s) });
  });

  it("a failed download rejects with a download error and ends the worker", async () => {
    const worker = new FakeModelWorker({
      reload: (w, msg) => w.reply(msg.uuid, "TypeError: Failed to fetch", "throw"),
    });
    const failing = load(worker);
    await expect(failing).rejects.toBeInstanceOf(EngineFailure);
    await expect(failing).rejects.toMatchObject({ kind: "download-failed", summary: expect.stringMatching(/could not download/i) });
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

  it("the cache is asked in a worker, with WebLLM's own functions there", async () => {
    const worker = new FakeModelWorker();
    const asked = queryCacheStatus(["a", "b"], () => worker as unknown as WorkerLike);
    await vi.waitFor(() => expect(worker.kinds()).toContain("lab:cacheStatus"));
    const msg = worker.received.find((m) => m.kind === "lab:cacheStatus");
    expect(msg?.content).toEqual({ modelIds: ["a", "b"] });
    worker.reply(msg?.uuid ?? "", { a: true, b: false });
    expect(await asked).toEqual({ a: true, b: false });
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

  it("names each phase by WebLLM's own texts: finishing is not compiling", () => {
    const phase = (text: string, progress = 0.5) => readLoadProgress({ progress, timeElapsed: 1, text }).phase;
    expect(phase("Start to fetch params", 0)).toBe("fetching");
    expect(phase("Loading GPU shader modules[12/80]: 15% completed, 3 secs elapsed.")).toBe("compiling");
    expect(phase("Finish loading on WebGPU - google swiftshader", 1)).toBe("finished");
    expect(phase("Finish loading on WebGPU - nvidia", 1)).toBe("finished");
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
  it("out of memory advises models that can run the tools (not the -1k variants), and keeps the engine's words", () => {
    const failure = classifyEngineError(new Error("Out of memory while allocating buffer. Try a less resource-intensive model."), { phase: "load" });
    expect(failure.suggestion).toMatch(/fewer parameters/);
    expect(failure.suggestion).not.toMatch(/-1k|1k/);
    for (const name of failure.suggestion.match(/Qwen3 [\d.]+B/g) ?? []) {
      expect(catalog.filter((m) => m.displayName.startsWith(name) && m.fitsToolPrompt).length).toBeGreaterThan(0);
    }
    // The step's error text is the error's message: it keeps the suggestion and the engine's own advice.
    expect(failure.message).toContain(failure.suggestion);
    expect(failure.message).toContain("Try a less resource-intensive model.");
  });
});

describe("model catalogue", () => {
  it("its snapshot (each family's webllmModels.records) equals WebLLM's own prebuilt records for every catalogue model", () => {
    const live = prebuiltAppConfig.model_list
      .filter((r) => isCatalogCandidate(r.model_id))
      .map((r) => ({
        model_id: r.model_id,
        model: r.model.replace("https://huggingface.co/mlc-ai/", ""),
        model_lib: r.model_lib.split("/").pop(),
        vram_required_MB: r.vram_required_MB,
        low_resource_required: r.low_resource_required,
        context_window_size: r.overrides?.context_window_size,
      }));
    const snapshot = webllmModelRecords.map((r) => ({
      model_id: r.model_id,
      model: r.model,
      model_lib: r.model_lib,
      vram_required_MB: r.vram_required_MB,
      low_resource_required: r.low_resource_required,
      context_window_size: r.overrides?.context_window_size,
    }));
    // The records sit in their families' files, so the order is the registry's, not WebLLM's.
    const byId = (a: { model_id: string }, b: { model_id: string }) => a.model_id.localeCompare(b.model_id);
    expect(snapshot.sort(byId)).toEqual(live.sort(byId));
  });

  it("holds only 4-bit instruction models of the supported families, each with VRAM and size", () => {
    // Every family that lists WebLLM models is in the picker, under its catalogue label.
    const labels = families.flatMap((f) => (f.webllmModels?.records ?? []).map(() => f.catalogLabel ?? f.label));
    expect(new Set(catalog.map((m) => m.family))).toEqual(new Set(labels));
    expect(new Set(labels).size).toBeGreaterThanOrEqual(18);
    for (const model of catalog) {
      expect(model.quantization).toMatch(/^q4f(16|32)_1$/);
      expect(model.vramMB).toBeGreaterThan(0);
      expect(model.downloadMB).toBeGreaterThan(0);
      expect(model.id).not.toMatch(/Math|Coder|DeepSeek-(?!R1-Distill)|vision/);
    }
    expect(findModel(DEFAULT_MODEL_ID)?.family).toBe("Qwen3");
  });

  it("flags the models whose context window cannot hold the tool prompt (the -1k variants)", () => {
    const small = catalog.filter((m) => !m.fitsToolPrompt).map((m) => m.id);
    expect(small.length).toBeGreaterThan(0);
    expect(small.every((id) => id.endsWith("-1k"))).toBe(true);
    expect(catalog.filter((m) => m.id.endsWith("-1k")).every((m) => !m.fitsToolPrompt)).toBe(true);
    expect(findModel(DEFAULT_MODEL_ID)?.fitsToolPrompt).toBe(true);
    expect(findModel("gemma-2-2b-it-q4f32_1-MLC-1k")?.displayName).toMatch(/too small for tools/);
  });

  it("knows which models share files, as WebLLM's records say", () => {
    const ids = (id: string) => modelsSharingFiles(id).map((m) => m.id).sort();
    expect(ids("gemma-2-2b-it-q4f32_1-MLC")).toEqual(["gemma-2-2b-it-q4f32_1-MLC", "gemma-2-2b-it-q4f32_1-MLC-1k"]);
    expect(ids("Hermes-3-Llama-3.2-3B-q4f16_1-MLC")).toEqual(["Hermes-3-Llama-3.2-3B-q4f16_1-MLC", "Llama-3.2-3B-Instruct-q4f16_1-MLC"]);
    expect(ids("Qwen3-1.7B-q4f16_1-MLC")).toEqual(["Qwen3-1.7B-q4f16_1-MLC"]);
    // Checked against WebLLM's own records: same weights URL or the same model library.
    const record = (id: string) => prebuiltAppConfig.model_list.find((r) => r.model_id === id);
    for (const model of catalog) {
      const mine = record(model.id);
      const expected = catalog.filter((m) => m.id === model.id || record(m.id)?.model === mine?.model || record(m.id)?.model_lib === mine?.model_lib).map((m) => m.id);
      expect(ids(model.id)).toEqual(expected.sort());
    }
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
