// The model families, one line each; a family is one file (see types.ts). Both engines look
// families up here: WebLLM by model id, a server by the model name it lists, a recorded step by
// its template name. Order matters where names overlap (Hermes 3 before Llama 3).
// How a family is found is family-lookup.ts (shared with the light index the first screen reads,
// family-index.ts, which the registry's test keeps equal to this list).
import type { ChatTemplate } from "../types.ts";
import { chatTemplateFromConv, type ModelChatTemplate } from "./conv-template.ts";
import { findServerFamily, findTemplateFamily, findWebLlmFamily, recommendedProtocolOf, type ProtocolRecommendation } from "./family-lookup.ts";
import { deepseekR1DistillLlama, deepseekR1DistillQwen } from "./deepseek-r1-distill.ts";
import { deepseekV3 } from "./deepseek-v3.ts";
import { deepseekV31 } from "./deepseek-v31.ts";
import { deepseekV32 } from "./deepseek-v32.ts";
import { gemma2 } from "./gemma2.ts";
import { gemma3 } from "./gemma3.ts";
import { gptOss } from "./gpt-oss.ts";
import { glm45, glm47 } from "./glm45.ts";
import { functionGemma } from "./functiongemma.ts";
import { gemma4 } from "./gemma4.ts";
import { hermes2pro } from "./hermes2pro.ts";
import { hermes3 } from "./hermes3.ts";
import { kimiK2, kimiK2Thinking } from "./kimi-k2.ts";
import { lfm2 } from "./lfm2.ts";
import { lfm2_5 } from "./lfm2_5.ts";
import { llama3 } from "./llama3.ts";
import { llama3_2 } from "./llama3_2.ts";
import { minimaxM2 } from "./minimax-m2.ts";
import { mistral } from "./mistral.ts";
import { mistralNemo } from "./mistral-nemo.ts";
import { mistralSmall3 } from "./mistral-small3.ts";
import { mistralSmall3_2 } from "./mistral-small3_2.ts";
import { ministral3 } from "./ministral3.ts";
import { ministral3Reasoning } from "./ministral3-reasoning.ts";
import { phi3 } from "./phi3.ts";
import { phi4Mini } from "./phi4-mini.ts";
import { qwen2 } from "./qwen2.ts";
import { qwen3 } from "./qwen3.ts";
import { qwen3_5 } from "./qwen3_5.ts";
import { labDefaults, type SamplingDefaults } from "./sampling.ts";
import { smollm2 } from "./smollm2.ts";
import type { ModelFamily, WebLlmModelRecord } from "./types.ts";
import { xlamLlama, xlamQwen } from "./xlam.ts";

export const families: readonly ModelFamily[] = [
  qwen3_5,
  qwen3,
  qwen2,
  hermes2pro,
  hermes3,
  llama3_2,
  llama3,
  mistralNemo,
  mistralSmall3,
  mistralSmall3_2,
  ministral3,
  ministral3Reasoning,
  mistral,
  deepseekV31,
  deepseekV32,
  deepseekR1DistillQwen,
  deepseekR1DistillLlama,
  deepseekV3,
  gptOss,
  glm45,
  glm47,
  kimiK2Thinking,
  kimiK2,
  minimaxM2,
  xlamLlama,
  xlamQwen,
  smollm2,
  phi4Mini,
  phi3,
  lfm2_5,
  lfm2,
  functionGemma,
  gemma4,
  gemma3,
  gemma2,
];

export { MAX_MODEL_ID_CHARS, recommendedProtocolOf, type ProtocolRecommendation } from "./family-lookup.ts";

/** The family of a WebLLM prebuilt model id. */
export function familyOfWebLlmModel(modelId: string): ModelFamily | undefined {
  return findWebLlmFamily(families, modelId);
}

/** WebLLM's prebuilt-model records of every family (each family's own, in registry order): the model picker's list. */
export const webllmModelRecords: readonly WebLlmModelRecord[] = families.flatMap((family) => family.webllmModels?.records ?? []);

/** WebLLM's record of a prebuilt model id, from its family's file. */
export function webllmRecordOf(modelId: string): WebLlmModelRecord | undefined {
  return familyOfWebLlmModel(modelId)?.webllmModels?.records.find((record) => record.model_id === modelId);
}

/**
 * One WebLLM model of a family to stand for it (tests, examples): its first record with the
 * largest context window, so never a -1k twin when the family has a larger one.
 */
export function sampleWebLlmModel(family: ModelFamily): string | undefined {
  const records = family.webllmModels?.records ?? [];
  const context = (record: WebLlmModelRecord) => record.overrides?.context_window_size ?? 0;
  return records.reduce<WebLlmModelRecord | undefined>((best, record) => (!best || context(record) > context(best) ? record : best), undefined)?.model_id;
}

/** The family a served model's name points to, or undefined when it is not clear (or the name is over MAX_MODEL_ID_CHARS). */
export function familyOfServerModel(modelName: string): ModelFamily | undefined {
  return findServerFamily(families, modelName);
}

/** The family of a WebLLM id or a server model name (render-prompt takes either). */
export function familyOfModel(model: string): ModelFamily | undefined {
  return familyOfWebLlmModel(model) ?? familyOfServerModel(model);
}

/** The family whose template a step recorded ("qwen3 (thinking off)" counts as "qwen3"), older names included. */
export function familyOfTemplateName(name: string): ModelFamily | undefined {
  return findTemplateFamily(families, name);
}

export function familyById(id: string): ModelFamily | undefined {
  return families.find((family) => family.id === id);
}

/** The chat template of a family for a server's prompt mode, with thinking on or off where it has the switch. */
export function familyChatTemplate(family: ModelFamily, settings: { enableThinking?: boolean } = {}): ChatTemplate {
  if (family.template) return family.template(settings);
  if (family.conv) return chatTemplateFromConv(family.conv.template, family.conv.extras, settings);
  throw new Error(`Model family "${family.id}" has no chat template`);
}

/** The conv_template-based template of a WebLLM model (the chat path and KV reuse need its conv). */
export function chatTemplateForModel(modelId: string, settings: { enableThinking?: boolean } = {}): ModelChatTemplate | undefined {
  const family = familyOfWebLlmModel(modelId);
  return family?.conv ? chatTemplateFromConv(family.conv.template, family.conv.extras, settings) : undefined;
}

/** The template name a WebLLM model id renders with. */
export function templateNameForModel(modelId: string): string | undefined {
  return familyOfWebLlmModel(modelId)?.templateName;
}

/** The family the replay engine's prompts are shown with: Qwen3, like its transcripts. */
export const REPLAY_FAMILY = qwen3;

export { replayChatTemplate } from "./replay-template.ts";

/** Families a server's prompt mode can render (all of them), by template name. */
export const serverTemplateFamilies: readonly ModelFamily[] = families;

export function recommendedProtocol(model: string): ProtocolRecommendation {
  return recommendedProtocolOf(familyOfModel(model));
}

/** The sampling defaults for a model (WebLLM id or server name); null is the replay engine (Qwen3). */
export function samplingDefaultsFor(model: string | null, thinking: boolean): SamplingDefaults {
  const family = model === null ? REPLAY_FAMILY : familyOfModel(model);
  if (family) return family.sampling(thinking);
  return labDefaults("this model");
}

/** The conv_templates of the families WebLLM runs, by template name (for the chat path's tests). */
export const convFamilies: Readonly<Record<string, NonNullable<ModelFamily["conv"]>>> = Object.fromEntries(
  families.filter((family) => family.webllmIds && family.conv).map((family) => [family.templateName, family.conv!]),
);
