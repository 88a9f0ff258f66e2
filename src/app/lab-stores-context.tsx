// How components reach the lab's stores: main.tsx wraps the page in LabStoresProvider with the
// stores createLabStores() made; a component reads one with a selector through a small hook
// (zustand's useStore on the store from the context), so it re-renders only when its slice changes.
import { createContext, useContext, type ReactNode } from "react";
import { useStore } from "zustand";
import type { McpState } from "../mcp/mcp-servers.ts";
import type { BranchRunState } from "../store/branch-controller.ts";
import type { CompareState } from "../store/compare-runs.ts";
import type { DebuggerSelection } from "../store/debugger-store.ts";
import type { ProtocolChoice } from "../store/protocol-store.ts";
import type { ConversationState } from "../store/conversation-store.ts";
import type { PromptCacheState } from "../store/prompt-cache-warmer.ts";
import type { CpuEngineState } from "../store/cpu-engine-controller.ts";
import type { EngineState } from "../store/engine-store.ts";
import type { RunState } from "../store/run-controller.ts";
import type { ServerEngineState } from "../store/server-engine.ts";
import type { TabStatus } from "../store/tab-status.ts";
import type { TranscriptConsentState } from "../store/transcript-consent.ts";
import type { LabStores } from "./lab-stores.ts";

const LabStoresContext = createContext<LabStores | null>(null);

export function LabStoresProvider({ stores, children }: { stores: LabStores; children?: ReactNode }) {
  return <LabStoresContext.Provider value={stores}>{children}</LabStoresContext.Provider>;
}

/** The page's stores (for actions and getState in event handlers); throws outside the provider. */
export function useLabStores(): LabStores {
  const stores = useContext(LabStoresContext);
  if (!stores) throw new Error("useLabStores: the component is not inside a LabStoresProvider");
  return stores;
}

export function useDebuggerSelection<T>(selector: (state: DebuggerSelection) => T): T {
  return useStore(useLabStores().debugger, selector);
}

export function useProtocolChoice<T>(selector: (state: ProtocolChoice) => T): T {
  return useStore(useLabStores().protocol, selector);
}

export function useCompareRuns<T>(selector: (state: CompareState) => T): T {
  return useStore(useLabStores().compare, selector);
}

export function useTranscriptConsent<T>(selector: (state: TranscriptConsentState) => T): T {
  return useStore(useLabStores().transcriptConsent, selector);
}

export function useBranchRun<T>(selector: (state: BranchRunState) => T): T {
  return useStore(useLabStores().branch, selector);
}

export function useMcpServers<T>(selector: (state: McpState) => T): T {
  return useStore(useLabStores().mcp.store, selector);
}

export function useRunState<T>(selector: (state: RunState) => T): T {
  return useStore(useLabStores().run, selector);
}

export function useCpuEngine<T>(selector: (state: CpuEngineState) => T): T {
  return useStore(useLabStores().cpuEngine.store, selector);
}

export function usePromptCache<T>(selector: (state: PromptCacheState) => T): T {
  return useStore(useLabStores().promptCache.store, selector);
}

export function useServerEngine<T>(selector: (state: ServerEngineState) => T): T {
  return useStore(useLabStores().serverEngine.store, selector);
}

export function useEngineState<T>(selector: (state: EngineState) => T): T {
  return useStore(useLabStores().engines.store, selector);
}

export function useConversation<T>(selector: (state: ConversationState) => T): T {
  return useStore(useLabStores().conversations.store, selector);
}

export function useTabStatus<T>(selector: (state: TabStatus) => T): T {
  return useStore(useLabStores().tabStatus, selector);
}
