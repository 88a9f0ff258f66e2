// Which loop step (and which parse event within it) the debugger shows. The chat's tool-call
// cards select steps here; the debugger reads it.
import { createStore, type StoreApi } from "zustand/vanilla";
import { unfinishedStepDraw } from "./render-guard.ts";

export interface DebuggerSelection {
  /** The selected step's id, or null to follow the latest step. */
  stepId: string | null;
  /** Index of the selected parse event within that step, if any. */
  parseIndex: number | null;
  /**
   * The step (its key) whose drawing never finished when the page last stopped, read once when the
   * page starts (render-guard.ts): the debugger does not draw it by itself. Null once drawn on request.
   */
  heldStepKey: string | null;
  selectStep: (stepId: string | null) => void;
  selectParseEvent: (stepId: string, parseIndex: number | null) => void;
  drawHeldStep: () => void;
}

export type DebuggerStore = StoreApi<DebuggerSelection>;

export function createDebuggerStore(heldStepKey: string | null = unfinishedStepDraw()): DebuggerStore {
  return createStore<DebuggerSelection>()((set) => ({
    stepId: null,
    parseIndex: null,
    heldStepKey,
    drawHeldStep: () => set({ heldStepKey: null }),
    selectStep: (stepId) => set({ stepId, parseIndex: null }),
    selectParseEvent: (stepId, parseIndex) => set({ stepId, parseIndex }),
  }));
}
