// The one place the lab's dead ends offer "a real model instead": where a replay's recording is
// over, and in Evaluate's empty state. Today that is WebLLM on the GPU (the Model pane's engine).
// The in-page CPU engine (llama.cpp in WebAssembly, SmolLM2 135M) connects HERE: give `label`,
// `unavailableReason` and `start` its words and action where WebGPU is missing or a software
// adapter, and every offer in the page follows.
import type { EngineState, Engines } from "./engine-store.ts";

export interface RealModelOffer {
  /** The button's words. */
  label: (state: EngineState) => string;
  /** Why the offer cannot start in this browser, said beside the disabled button; null when it can. */
  unavailableReason: (state: EngineState) => string | null;
  /** Switches the lab to that engine (the Model pane then shows how to load it). */
  start: () => void;
}

export function createRealModelOffer(deps: { engines: Pick<Engines, "selectEngineKind"> }): RealModelOffer {
  return {
    label: () => "Run a real model on your GPU",
    unavailableReason: (state) => (state.gpu.state === "unavailable" ? `This browser cannot run one: ${state.gpu.message}` : null),
    start: () => deps.engines.selectEngineKind("webllm"),
  };
}
