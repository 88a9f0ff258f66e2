// Starts the lab (main.tsx calls it once, with the page's stores): storage, engines, and the run controller's wiring to the real loop,
// protocols, engine and tools. The protocol follows a replay transcript's own protocol.
import { isBuiltInProtocol } from "toolcall-middleware/protocols/built-in-protocol-names.ts";
import { createIndexedDbRepository } from "../persistence/conversation-db.ts";
import { createTabLink } from "../persistence/tab-link.ts";
import type { Conversations } from "./conversation-store.ts";
import { followOtherTabs } from "./follow-other-tabs.ts";
import { DEFAULT_TRANSCRIPT, type Engines, type EngineStore } from "./engine-store.ts";
import type { ProtocolStore } from "./protocol-store.ts";
import type { DerivedProtocolStore } from "./derived-protocols.ts";
import type { RunController, RunLoopOptions } from "./run-controller.ts";
import type { LoopEvent } from "toolcall-middleware";
import { activeSamplingDefaults, serverModelChoice } from "./sampling.ts";
import type { ServerEngine } from "./server-engine.ts";
import type { ToolCatalog } from "./tool-catalog.ts";
import type { TabStatusStore } from "./tab-status.ts";
import type { PromptCacheWarmer } from "./prompt-cache-warmer.ts";
import { holdForeignTranscript, holdRememberedForeignTranscript, type TranscriptConsentStore } from "./transcript-consent.ts";

/** The stores startup wires together (the page's LabStores has them all). */
export interface LabStartupStores {
  protocol: ProtocolStore;
  derivedProtocols: DerivedProtocolStore;
  transcriptConsent: TranscriptConsentStore;
  tools: ToolCatalog;
  runController: RunController;
  engines: Engines;
  serverEngine: ServerEngine;
  conversations: Conversations;
  tabStatus: TabStatusStore;
  promptCache: PromptCacheWarmer;
}

/**
 * `?topProbabilities=N` sets how many alternatives each run records (bench/probabilities-page.ts
 * compares 0 and 5 in the page); else the loop's default.
 */
function topProbabilitiesFromUrl(): { topProbabilities?: number } {
  const raw = new URLSearchParams(globalThis.location?.search ?? "").get("topProbabilities");
  const value = Number(raw);
  return raw !== null && raw !== "" && Number.isInteger(value) && value >= 0 ? { topProbabilities: value } : {};
}

export function startLab(stores: LabStartupStores): void {
  const { engines, conversations } = stores;
  stores.runController.configureRunEnvironment({
    runLoop: (options) => runToolLoopOnDemand({ ...topProbabilitiesFromUrl(), ...options }),
    // The protocols' code loads with the first turn (or the first check of a draft), not with the page.
    resolveProtocol: async (name) =>
      // A protocol derived from a loaded model's own template (derived again from the remembered template after a reload), else a registered one.
      (await stores.derivedProtocols.getState().restore(name)) ?? (await import("toolcall-middleware/protocols/registry.ts")).getProtocol(name),
    resolveEngine: engines.resolveActiveEngine,
    resolveTools: (settings) => stores.tools.enabledTools(settings),
    protocolName: () => stores.protocol.getState().protocol,
    samplingDefaults: () => activeSamplingDefaults(engines.store.getState(), serverModelChoice(stores.serverEngine.store.getState())),
  });
  const tabs = createTabLink();
  void conversations.conversationActions.init(createIndexedDbRepository(), tabs);
  followOtherTabs(tabs, stores);
  saveWhenThePageGoes(conversations.saveActive);
  followTranscriptProtocol(stores.protocol, engines.store);
  // The header's protocol, when it was derived from a model's template before a reload, is derived again now (in a worker) for the debugger's words.
  void stores.derivedProtocols.getState().restore(stores.protocol.getState().protocol);
  // A link, or a choice remembered by an older version, may name a transcript on another site:
  // that one waits for the person's yes, and the engines start without it.
  if (holdRememberedForeignTranscript(stores.transcriptConsent, engines.store.getState().transcriptSource, location.href)) engines.store.setState({ transcriptSource: DEFAULT_TRANSCRIPT });
  void engines.initEngines(holdForeignTranscript(stores.transcriptConsent, location.search, location.href));
  stores.promptCache.start();
}

/** When a replay transcript says which protocol it is written in, the next turn uses it. */
function followTranscriptProtocol(protocol: ProtocolStore, engineStore: EngineStore): void {
  const apply = (name: string | null) => {
    if (name && isBuiltInProtocol(name)) protocol.getState().setProtocol(name);
  };
  apply(engineStore.getState().transcriptProtocol);
  engineStore.subscribe((state, previous) => {
    if (state.transcriptProtocol !== previous.transcriptProtocol || state.transcript !== previous.transcript) apply(state.transcriptProtocol);
  });
}

/**
 * While a reply streams, saves are throttled to one a second; a tab hidden or closed in between
 * saves at once, so what was streamed up to then is kept. (The page may be gone before the write
 * finishes; hiding a tab, the usual first step, leaves it time.)
 */
function saveWhenThePageGoes(saveActive: () => Promise<void>): void {
  const save = () => void saveActive();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") save();
  });
  window.addEventListener("pagehide", save);
}

/** The tool loop's code (the loop, its prompt rendering and tool runs) loads with the first turn, not with the page. */
async function* runToolLoopOnDemand(options: RunLoopOptions): AsyncIterable<LoopEvent> {
  const { runToolLoop } = await import("toolcall-middleware/loop/run-tool-loop.ts");
  yield* runToolLoop(options);
}
