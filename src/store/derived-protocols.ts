// Protocols derived from a model's own chat template (a GGUF whose family the lab does not know):
// not in the registry (which holds the hand-written ones), kept here by name (`template:<model>`)
// for the page's turns to resolve, with the derivation in words for the debugger.
import { createStore, type StoreApi } from "zustand/vanilla";
import type { Protocol } from "toolcall-middleware/types.ts";

export const DERIVED_PROTOCOL_PREFIX = "template:";

export interface DerivedProtocolEntry {
  protocol: Protocol;
  /** The derived format in words (describeDerivedFormat). */
  lines: string[];
}

export interface DerivedProtocols {
  entries: Readonly<Record<string, DerivedProtocolEntry>>;
  add: (entry: DerivedProtocolEntry) => void;
}

export type DerivedProtocolStore = StoreApi<DerivedProtocols>;

export function createDerivedProtocolStore(): DerivedProtocolStore {
  return createStore<DerivedProtocols>()((set) => ({
    entries: {},
    add: (entry) => set((state) => ({ entries: { ...state.entries, [entry.protocol.name]: entry } })),
  }));
}

/** The protocol name of a model's derived protocol. */
export function derivedProtocolName(modelName: string): string {
  return `${DERIVED_PROTOCOL_PREFIX}${modelName}`;
}
