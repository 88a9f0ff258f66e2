// The harness's model worker (tests only): the app's own LabWorkerHandler around WebLLM's real
// MLCEngine, with one change — loading a model installs the scripted stand-in
// (src/engine/webllm/testing/scripted-pipeline.ts) instead of downloading weights and compiling
// GPU code. Everything after that is WebLLM's own request path. The harness's Vite build
// exposes WebLLM's LLMChatPipeline and CustomLock classes for this (vite.config.ts).
import * as webllm from "@mlc-ai/web-llm";
import { LabWorkerHandler } from "../../src/engine/webllm/lab-worker-handler.ts";
import type { ScriptedGeneration, ScriptedModel } from "../../src/engine/webllm/testing/scripted-pipeline.ts";
import { loadStandIn } from "../../src/engine/webllm/testing/stand-in-load.ts";
import { HARNESS_REPLY, type HarnessRequest, type HarnessState } from "./protocol.ts";

const exposed = webllm as unknown as { __LLMChatPipeline?: { prototype: object }; __CustomLock?: new () => { acquired: boolean } };
if (!exposed.__LLMChatPipeline || !exposed.__CustomLock) throw new Error("The harness build must expose WebLLM's LLMChatPipeline and CustomLock (see vite.config.ts).");
const LLMChatPipeline = exposed.__LLMChatPipeline;
const CustomLock = exposed.__CustomLock;

/** The fields of WebLLM 0.2.86's MLCEngine that loading fills in (reloadInternal's end state). */
interface EngineState {
  loadedModelIdToPipeline: Map<string, object>;
  loadedModelIdToChatConfig: Map<string, object>;
  loadedModelIdToModelType: Map<string, number>;
  loadedModelIdToLock: Map<string, { acquired: boolean }>;
  getInitProgressCallback: () => ((report: { progress: number; timeElapsed: number; text: string }) => void) | undefined;
  reloadInternal: (modelId: string, chatOpts?: Record<string, unknown>) => Promise<void>;
  unload: () => Promise<void>;
  interruptGenerate: () => Promise<void>;
}

const handler = new LabWorkerHandler();
const engine = handler.engine as unknown as EngineState;
let model: ScriptedModel | undefined;
let pending: ScriptedGeneration[] = [];
let contextWindowSize = 4096;

// WebLLM's reload() unloads, then calls reloadInternal per model: this replaces the download and
// the GPU set-up with the stand-in, and leaves the engine as reloadInternal would (the chat
// options merged over the model's config, as WebLLM does).
engine.reloadInternal = async (modelId: string, chatOpts?: Record<string, unknown>) => {
  const report = engine.getInitProgressCallback();
  report?.({ progress: 0.5, timeElapsed: 0, text: "Loading model from cache[1/2]: 1MB loaded. 50% completed, 0 secs elapsed." });
  report?.({ progress: 0.75, timeElapsed: 0, text: "Loading GPU shader modules[1/2]: 50% completed, 0 secs elapsed." });
  model = loadStandIn(engine, { pipelinePrototype: LLMChatPipeline.prototype, createLock: () => new CustomLock() }, modelId, contextWindowSize, chatOpts);
  model.enqueue(...pending);
  pending = [];
  report?.({ progress: 1, timeElapsed: 0, text: "Finish loading on WebGPU - scripted stand-in" });
};

function state(): HarnessState {
  const loaded = model !== undefined && engine.loadedModelIdToPipeline.size > 0;
  return {
    loaded,
    held: model?.held() ?? null,
    disposed: model?.disposed() ?? false,
    records: model?.records ?? [],
    prefilledTokens: model?.prefilledTokens() ?? 0,
    seeds: model?.seeds ?? [],
    lockTaken: [...engine.loadedModelIdToLock.values()].some((lock) => lock.acquired),
  };
}

async function control(message: HarnessRequest): Promise<unknown> {
  switch (message.kind) {
    case "harness:script":
      if (message.content.contextWindowSize) contextWindowSize = message.content.contextWindowSize;
      if (model) model.enqueue(...message.content.generations);
      else pending.push(...message.content.generations);
      return state();
    case "harness:release":
      model?.release();
      return state();
    case "harness:loseDevice":
      // What WebLLM does when its GPUDevice is lost (reloadInternal's device.lost handler):
      // unload the engine. GPU steps still running fail.
      model?.loseDevice();
      model?.release();
      await engine.unload();
      return state();
    case "harness:interrupt":
      // An interrupt the page's engine did not send (WebLLM's interrupt is global to its engine).
      await engine.interruptGenerate();
      return state();
    case "harness:state":
      return state();
  }
}

self.onmessage = (event: MessageEvent) => {
  const message = event.data as { kind?: unknown; uuid?: string };
  if (typeof message?.kind === "string" && message.kind.startsWith("harness:")) {
    void control(message as HarnessRequest).then((content) => postMessage({ kind: HARNESS_REPLY, uuid: message.uuid, content }));
    return;
  }
  handler.onmessage(event);
};
