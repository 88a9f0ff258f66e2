// The one place the lab's dead ends offer "a real model instead": where a replay's recording is
// over, and in Evaluate's empty state. Where WebGPU is missing or only a software adapter, that is
// SmolLM2 135M on the CPU (llama.cpp in WebAssembly, no GPU needed); elsewhere WebLLM on the GPU.
import { DEFAULT_CPU_MODEL_ID, findCpuModel, formatBytes } from "../engine/cpu/cpu-models.ts";
import { gpuIsMissingOrSoftware } from "../engine/webgpu-probe.ts";
import type { CpuEngineController } from "./cpu-engine-controller.ts";
import type { EngineState, Engines } from "./engine-store.ts";

export interface RealModelOffer {
  /** The button's words. */
  label: (state: EngineState) => string;
  /** Why the offer cannot start in this browser, said beside the disabled button; null when it can. */
  unavailableReason: (state: EngineState) => string | null;
  /** Starts that model (the CPU model loads at once; WebLLM's pane then shows how to load one). */
  start: () => void;
}

export function createRealModelOffer(deps: { engines: Pick<Engines, "selectEngineKind" | "store">; cpuEngine: Pick<CpuEngineController, "loadCpuModel"> }): RealModelOffer {
  const cpuModel = findCpuModel(DEFAULT_CPU_MODEL_ID);
  const cpuLabel = `Run ${cpuModel?.label.replace(/ Instruct.*$/, "") ?? "SmolLM2 135M"} on this computer's CPU (≈ ${cpuModel ? formatBytes(cpuModel.sizeBytes) : "100 MB"})`;
  return {
    label: (state) => (gpuIsMissingOrSoftware(state.gpu) ? cpuLabel : "Run a real model on your GPU"),
    unavailableReason: (state) => (!gpuIsMissingOrSoftware(state.gpu) || typeof WebAssembly === "object" ? null : "This browser has neither WebGPU nor WebAssembly."),
    start: () => {
      if (gpuIsMissingOrSoftware(deps.engines.store.getState().gpu)) void deps.cpuEngine.loadCpuModel(DEFAULT_CPU_MODEL_ID);
      else deps.engines.selectEngineKind("webllm");
    },
  };
}
