// The sampling defaults of the engine the next turn uses: the loaded (or chosen) WebLLM model's
// family with the thinking switch, or Qwen3's for the replay engine (its transcripts and prompt
// template are Qwen3's).
import { samplingDefaultsFor, type SamplingDefaults } from "../engine/templates/sampling-defaults.ts";
import type { EngineState } from "./engine-store.ts";

export function activeSamplingDefaults(state: Pick<EngineState, "kind" | "loadedModelId" | "selectedModelId" | "thinking">): SamplingDefaults {
  return samplingDefaultsFor(state.kind === "replay" ? null : (state.loadedModelId ?? state.selectedModelId), state.thinking);
}
