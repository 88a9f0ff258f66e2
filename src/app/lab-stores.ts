// The composition root of the lab's state: every store is made here, once per page (main.tsx)
// or once per test, and handed down (React context for components, parameters for controllers).
// No store lives in a module, so two pages or two tests never share state through an import.
import { createMcpServers, type McpServers } from "../mcp/mcp-servers.ts";
import { createBranchController, createBranchStore, type BranchController, type BranchStore } from "../store/branch-controller.ts";
import { createConversations, type Conversations } from "../store/conversation-store.ts";
import { createCompareStore, type CompareStore } from "../store/compare-runs.ts";
import { createDebuggerStore, type DebuggerStore } from "../store/debugger-store.ts";
import { createRealModelOffer, type RealModelOffer } from "../store/real-model-offer.ts";
import { createProtocolStore, type ProtocolStore } from "../store/protocol-store.ts";
import { createDerivedProtocolStore, type DerivedProtocolStore } from "../store/derived-protocols.ts";
import { DerivationWorker } from "../engine/templates/derivation-worker.ts";
import { createRunController, createRunStore, type RunController, type RunStore } from "../store/run-controller.ts";
import { createEngines, type Engines, type TurnOnTheModel } from "../store/engine-store.ts";
import { createCpuEngine, type CpuEngineController } from "../store/cpu-engine-controller.ts";
import { createPromptCacheWarmer, type PromptCacheWarmer } from "../store/prompt-cache-warmer.ts";
import { createServerEngine, type ServerEngine } from "../store/server-engine.ts";
import { createToolCatalog, type ToolCatalog } from "../store/tool-catalog.ts";
import { createTabStatusStore, type TabStatusStore } from "../store/tab-status.ts";
import { createTranscriptConsentStore, type TranscriptConsentStore } from "../store/transcript-consent.ts";
import { TokenizationCache } from "../tokens/tokenizer-choice.ts";
import type { Evaluation } from "../store/eval-store.ts";
import { createTokensWantedStore, type TokensWantedStore } from "../store/tokens-wanted.ts";

export interface LabStores {
  /** The conversations: the list, the open one with its event log, saving and following other tabs. */
  conversations: Conversations;
  /** What this tab tells the person about other tabs (written elsewhere, merged, deleted). */
  tabStatus: TabStatusStore;
  /** Which step and parse event the debugger shows. */
  debugger: DebuggerStore;
  /** The protocol the next turn uses (remembered in localStorage). */
  protocol: ProtocolStore;
  /** Protocols derived from a model's own chat template (a GGUF of a family the lab does not know). */
  derivedProtocols: DerivedProtocolStore;
  /** The worker that derives chat templates' call formats, kept between derivations and warmed ahead of need (started on first use). */
  derivationWorker: DerivationWorker;
  /** The native-vs-prompt comparison's progress and runs. */
  compare: CompareStore;
  /** A transcript on another site that a link asks to replay, awaiting the person's yes. */
  transcriptConsent: TranscriptConsentStore;
  /** Whether token counts are on. */
  tokensWanted: TokensWantedStore;
  /** Tokenizations already made, shared by the page's token views. */
  tokenizationCache: TokenizationCache;
  /** Whether a turn runs, and why a message could not be sent. */
  run: RunStore;
  /** Runs turns (send, stop) in the environment startLab configures. */
  runController: RunController;
  /** Whether an experiment that writes to the log (re-run, continue, discard) is under way. */
  branch: BranchStore;
  /** Runs those experiments against the stores above. */
  branchController: BranchController;
  /** The engines (WebLLM, replay, server) and which one the next turn uses. */
  engines: Engines;
  /** The real model the page offers where a recording ends or Evaluate has no engine (the CPU engine connects in real-model-offer.ts). */
  realModel: RealModelOffer;
  /** The OpenAI-compatible server's settings (base URL, model, mode, template) and the actions that connect it. */
  serverEngine: ServerEngine;
  /** The CPU engine's model (llama.cpp in WebAssembly): which one, loading it, opening a GGUF file. */
  cpuEngine: CpuEngineController;
  /** The CPU engine's prompt cache, read ahead of the next message (started by startLab). */
  promptCache: PromptCacheWarmer;
  /** The MCP servers this browser connects to, their connections and tool calls. */
  mcp: McpServers;
  /** The tools a conversation can offer: the built-in ones (one note store for the page) and the MCP servers'. */
  tools: ToolCatalog;
  /** Parts whose code loads on demand (the Evaluate view's evaluation): made on first use (on-demand-stores.ts), then kept for the page. */
  onDemand: { evaluation?: Evaluation };
}

export function createLabStores(): LabStores {
  const mcp = createMcpServers();
  const tabStatus = createTabStatusStore();
  const conversations = createConversations({ tabStatus });
  const run = createRunStore();
  const runController = createRunController({ run, conversations });
  // Before a model goes (Unload, another model), whatever runs on it ends: a turn, or an experiment
  // (a forced token, a re-run), so it ends as stopped rather than failing in the unloaded runtime.
  const experiments: { controller?: BranchController } = {};
  const onTheModel: TurnOnTheModel = {
    stopRunningTurn: async () => {
      await runController.stopRunningTurn();
      await experiments.controller?.stopBranchAndWait();
    },
  };
  const engines = createEngines({ turn: onTheModel });
  const branch = createBranchStore();
  const protocol = createProtocolStore();
  const derivationWorker = new DerivationWorker();
  const derivedProtocols = createDerivedProtocolStore({ derivationWorker });
  const cpuEngine = createCpuEngine({ engines, turn: onTheModel, protocol, derivedProtocols, derivationWorker });
  const branchController = createBranchController({ branch, run, runController, engines, conversations });
  experiments.controller = branchController;
  return {
    conversations,
    tabStatus,
    debugger: createDebuggerStore(),
    protocol,
    derivedProtocols,
    derivationWorker,
    compare: createCompareStore(),
    transcriptConsent: createTranscriptConsentStore(),
    tokensWanted: createTokensWantedStore(),
    tokenizationCache: new TokenizationCache(),
    run,
    runController,
    branch,
    branchController,
    engines,
    realModel: createRealModelOffer({ engines, cpuEngine }),
    serverEngine: createServerEngine({ engines }),
    cpuEngine,
    promptCache: createPromptCacheWarmer({ engines, conversations, protocol, run, runController }),
    mcp,
    tools: createToolCatalog({ mcp }),
    onDemand: {},
  };
}
