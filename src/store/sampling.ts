// The sampling defaults of the engine the next turn uses: the loaded (or chosen) WebLLM model's
// family with the thinking switch, the server's own model's family for the server engine (its
// chosen template's family, else the family its model name points to), or Qwen3's for the replay
// engine (its transcripts and prompt template are Qwen3's).
import { familyEntryById, familyEntryOfServerModel, familyEntryOfTemplateName, familySampling, samplingDefaultsFor } from "toolcall-middleware/families/family-index.ts";
import { labDefaults, type SamplingDefaults } from "toolcall-middleware/families/sampling.ts";
import type { EngineState } from "./engine-store.ts";
import { effectiveTemplate, type ServerEngineState } from "./server-engine.ts";

/** The server's model and the template prompt mode renders it with (undefined: not known). */
export interface ServerModelChoice {
  model: string;
  template: string | undefined;
}

export function serverModelChoice(state: Pick<ServerEngineState, "model" | "template">): ServerModelChoice {
  return { model: state.model, template: effectiveTemplate(state) };
}

export function activeSamplingDefaults(state: Pick<EngineState, "kind" | "loadedModelId" | "selectedModelId" | "thinking"> & Partial<Pick<EngineState, "cpuFamilyId">>, server: ServerModelChoice): SamplingDefaults {
  if (state.kind === "cpu") {
    const family = state.cpuFamilyId ? familyEntryById(state.cpuFamilyId) : undefined;
    return family ? familySampling(family, state.thinking) : labDefaults("this model");
  }
  if (state.kind === "openai") {
    const family = (server.template !== undefined ? familyEntryOfTemplateName(server.template) : undefined) ?? familyEntryOfServerModel(server.model);
    return family ? familySampling(family, state.thinking) : labDefaults(server.model ? `"${server.model}"` : "this model");
  }
  return samplingDefaultsFor(state.kind === "replay" ? null : (state.loadedModelId ?? state.selectedModelId), state.thinking);
}
