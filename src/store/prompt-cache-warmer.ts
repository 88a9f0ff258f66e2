// Reads the next prompt's start into the CPU engine's prompt cache before the person writes the
// message: once a model is loaded, and again whenever what that start holds changes (the tools,
// the protocol, the system prompt, the conversation, a finished reply). A message then prefills
// only its own words. The start is found by the loop's own rendering (promptBeforeNextMessage),
// never written a second way; the cache is llama.cpp's own (cache_prompt), so it also serves a new
// conversation with the same tools. Nothing is warmed while a turn runs; a step that needs the
// runtime for another text stops a warm-up at once (CpuEngine.generate).
import { createStore, type StoreApi } from "zustand/vanilla";
import type { Engine, PromptProgress } from "toolcall-middleware/types.ts";
import type { ProtocolStore } from "./protocol-store.ts";
import type { Conversations } from "./conversation-store.ts";
import type { Engines } from "./engine-store.ts";
import type { RunController, RunStore } from "./run-controller.ts";
import { deriveHistory } from "./derive-history.ts";
import type { WarmedPrompt } from "../engine/cpu/cpu-engine.ts";

export type PromptCacheState =
  | { state: "off" }
  | { state: "warming"; progress?: PromptProgress }
  | { state: "ready"; tokens: number; readTokens: number; elapsedMs: number }
  | { state: "failed"; message: string };

export type PromptCacheStore = StoreApi<PromptCacheState>;

/** An engine that can read a text into its prompt cache ahead of a step (the CPU engine). */
type WarmingEngine = Engine & {
  warmPrompt: (prompt: string, signal: AbortSignal, onProgress?: (progress: PromptProgress) => void) => Promise<WarmedPrompt | "stopped">;
};

const canWarm = (engine: Engine): engine is WarmingEngine => typeof (engine as Partial<WarmingEngine>).warmPrompt === "function";

/** How long the inputs must be still before a warm-up starts (typing in the system prompt, toggling several tools). */
const SETTLE_MS = 400;

export function createPromptCacheWarmer(stores: { engines: Pick<Engines, "store">; conversations: Pick<Conversations, "store">; protocol: ProtocolStore; run: RunStore; runController: Pick<RunController, "currentRunEnvironment"> }) {
  const store = createStore<PromptCacheState>()(() => ({ state: "off" }));
  let warmed: { engine: Engine; prompt: string } | null = null;
  let warming: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function stopWarming(): void {
    warming?.abort();
    warming = null;
  }

  async function warmNow(): Promise<void> {
    const env = stores.runController.currentRunEnvironment();
    const engines = stores.engines.store.getState();
    if (!env || engines.kind !== "cpu" || engines.cpuStatus.state !== "ready" || !engines.cpuEngine) {
      stopWarming();
      warmed = null;
      store.setState({ state: "off" }, true);
      return;
    }
    if (stores.run.getState().running) return;
    const resolved = env.resolveEngine();
    const active = stores.conversations.store.getState().active;
    if ("error" in resolved || !resolved.template || !canWarm(resolved.engine) || !active) return;
    const { engine, template } = resolved;
    let prompt: string;
    try {
      const protocol = await env.resolveProtocol(env.protocolName());
      if (!protocol) return;
      const [{ promptBeforeNextMessage }, { settleRender }] = await Promise.all([import("toolcall-middleware/loop/render-conversation.ts"), import("toolcall-middleware/templates/render-pending.ts")]);
      const tools = env.resolveTools(active.settings).map(({ name, description, parameters }) => ({ name, description, parameters }));
      const systemPrompt = active.settings.systemPrompt.trim() ? { systemPrompt: active.settings.systemPrompt } : {};
      // Awaited: a GGUF's own template renders in a worker.
      prompt = await settleRender(() => promptBeforeNextMessage({ ...systemPrompt, tools, protocol, messages: deriveHistory(active.events), template }));
    } catch (error) {
      store.setState({ state: "failed", message: `The prompt's start could not be rendered: ${error instanceof Error ? error.message : String(error)}` }, true);
      return;
    }
    if (warmed?.engine === engine && warmed.prompt === prompt && store.getState().state !== "failed") return;
    if (stores.run.getState().running) return;
    stopWarming();
    const controller = new AbortController();
    warming = controller;
    warmed = { engine, prompt };
    store.setState({ state: "warming" }, true);
    try {
      const result = await engine.warmPrompt(prompt, controller.signal, (progress) => {
        if (warming === controller) store.setState({ state: "warming", progress }, true);
      });
      if (warming !== controller) return;
      warming = null;
      if (result === "stopped") {
        // A step took the runtime first: it reads this start itself; warm again after it.
        warmed = null;
        store.setState({ state: "off" }, true);
      } else store.setState({ state: "ready", ...result }, true);
    } catch (error) {
      if (warming !== controller) return;
      warming = null;
      warmed = null;
      store.setState({ state: "failed", message: error instanceof Error ? error.message : String(error) }, true);
    }
  }

  function schedule(): void {
    clearTimeout(timer);
    timer = setTimeout(() => void warmNow(), SETTLE_MS);
  }

  /** Follows the stores until the returned function is called. */
  function start(): () => void {
    const unsubscribe = [
      stores.engines.store.subscribe((s, p) => {
        if (s.kind !== p.kind || s.cpuEngine !== p.cpuEngine || s.cpuTemplate !== p.cpuTemplate || s.cpuStatus !== p.cpuStatus) schedule();
      }),
      stores.conversations.store.subscribe((s, p) => {
        if (s.active?.id !== p.active?.id || s.active?.settings !== p.active?.settings) schedule();
      }),
      stores.protocol.subscribe((s, p) => {
        if (s.protocol !== p.protocol) schedule();
      }),
      // After a turn the conversation's start holds its reply: warm it while the person reads.
      stores.run.subscribe((s, p) => {
        if (!s.running && p.running) schedule();
      }),
    ];
    schedule();
    return () => {
      clearTimeout(timer);
      stopWarming();
      for (const stop of unsubscribe) stop();
    };
  }

  return { store, start, warmNow };
}

export type PromptCacheWarmer = ReturnType<typeof createPromptCacheWarmer>;
