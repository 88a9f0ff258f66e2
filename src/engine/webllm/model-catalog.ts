// The models offered for tool calling: WebLLM's prebuilt list, filtered to instruction models
// of the families whose chat templates we ship, with what a person needs to choose one.
// The list is read from a snapshot of WebLLM's records, kept in each family's file
// (`webllmModels`), because importing WebLLM here would put its 6 MB library into the page's
// first download; a test checks that the snapshot equals WebLLM's own list.
import { familyEntryOfWebLlmModel, familyIndexEntries, webllmModelRecords } from "toolcall-middleware/families/family-index.ts";
import type { WebLlmModelRecord } from "toolcall-middleware/families/types.ts";

export interface CatalogModel {
  id: string;
  family: string;
  displayName: string;
  /** Billions of parameters, parsed from the id. */
  paramsB: number;
  quantization: string;
  /** q4f16/q0f16 weights need the adapter feature shader-f16. */
  needsShaderF16: boolean;
  vramMB: number;
  /** Estimated download size in MB (weights only): parameters × bits per weight. */
  downloadMB: number;
  contextWindow?: number;
  lowResource: boolean;
  /** The family's template name (what its steps record). */
  template: string;
  /** The family's id in the registry (packages/toolcall-middleware/src/families/). */
  familyId: string;
  /** False when the context window cannot hold the tool prompt and a reply (the -1k variants). */
  fitsToolPrompt: boolean;
  /** Where its weights live and which compiled library it runs: files other models may share. */
  weights?: string;
  modelLib?: string;
}

/**
 * A budget for the tool section of the eight built-in tools: 1.0k–1.47k tokens with Qwen3's
 * tokenizer, depending on the protocol (tool-prompt-size.test.ts measures it). A model needs
 * that plus a system prompt, a message and room for a reply (MIN_CONTEXT_FOR_TOOLS); a smaller
 * window fails at its first message, so the list does not offer such a model for tool calling.
 */
export const TOOL_PROMPT_TOKENS = 1_500;
export const MIN_CONTEXT_FOR_TOOLS = 2_048;


/** Whether a WebLLM model record belongs in the catalogue (used to check the snapshot). */
export function isCatalogCandidate(modelId: string): boolean {
  return buildCatalog([{ model_id: modelId, vram_required_MB: 1 }]).length === 1;
}

/** The default for tool calling on an ordinary laptop GPU (see the README, "Engines"). */
export const DEFAULT_MODEL_ID = "Qwen3-1.7B-q4f16_1-MLC";

export function buildCatalog(models: readonly WebLlmModelRecord[] = webllmModelRecords): CatalogModel[] {
  const out: CatalogModel[] = [];
  for (const record of models) {
    const id = record.model_id;
    const modelFamily = familyEntryOfWebLlmModel(id);
    const family = modelFamily?.catalogLabel ?? modelFamily?.label;
    const template = modelFamily?.templateName;
    const quantization = /-(q\df\d+(?:_\d)?)/.exec(id)?.[1] ?? "";
    // Only 4-bit weights: full-precision (q0) variants are several times larger for no gain here.
    if (!family || !template || !quantization.startsWith("q4")) continue;
    const paramsB = record.paramsB ?? parseParams(id);
    const bitsPerWeight = 4.5; // 4-bit weights plus group scales
    out.push({
      id,
      family,
      displayName: displayNameOf(id, family, paramsB, quantization),
      paramsB,
      quantization,
      needsShaderF16: /f16/.test(quantization),
      vramMB: Math.round(record.vram_required_MB ?? 0),
      downloadMB: Math.round((paramsB * 1e9 * bitsPerWeight) / 8 / 1e6),
      ...(record.overrides?.context_window_size ? { contextWindow: record.overrides.context_window_size } : {}),
      lowResource: Boolean(record.low_resource_required),
      template,
      familyId: modelFamily!.id,
      fitsToolPrompt: (record.overrides?.context_window_size ?? Infinity) >= MIN_CONTEXT_FOR_TOOLS,
      ...(record.model ? { weights: record.model } : {}),
      ...(record.model_lib ? { modelLib: record.model_lib } : {}),
    });
  }
  const order = (model: CatalogModel) => familyIndexEntries.findIndex((f) => f.id === model.familyId);
  return out.sort((a, b) => order(a) - order(b) || a.family.localeCompare(b.family) || a.paramsB - b.paramsB || a.id.localeCompare(b.id));
}

export const catalog: CatalogModel[] = buildCatalog();

export function findModel(modelId: string, models: CatalogModel[] = catalog): CatalogModel | undefined {
  return models.find((m) => m.id === modelId);
}

/**
 * The models whose cache entries deleting `modelId` touches, itself included: WebLLM deletes a
 * model's weights (shared by its -1k twin) and its compiled library (shared, e.g., by Hermes-3
 * and Llama-3.2-3B of the same quantization).
 */
export function modelsSharingFiles(modelId: string, models: CatalogModel[] = catalog): CatalogModel[] {
  const model = findModel(modelId, models);
  if (!model) return [];
  return models.filter((m) => m.id === modelId || (model.weights && m.weights === model.weights) || (model.modelLib && m.modelLib === model.modelLib));
}

/**
 * The variant this adapter can run: without shader-f16 a q4f16 model id becomes its q4f32
 * twin (same weights in f32 arithmetic), when the catalogue has one.
 */
export function pickVariant(modelId: string, shaderF16: boolean, models: CatalogModel[] = catalog): string {
  if (shaderF16 || !/q4f16/.test(modelId)) return modelId;
  const f32 = modelId.replace("q4f16", "q4f32");
  return models.some((m) => m.id === f32) ? f32 : modelId;
}

/** Models this adapter can run (hides f16 variants when shader-f16 is missing). */
export function modelsForAdapter(shaderF16: boolean, models: CatalogModel[] = catalog): CatalogModel[] {
  return shaderF16 ? models : models.filter((m) => !m.needsShaderF16);
}

/** Billions of parameters as the id spells them ("-1.7B-", "-360M-"); a record gives them where it does not. */
function parseParams(id: string): number {
  const match = /-(\d+(?:\.\d+)?)([BM])-/i.exec(`${id}-`);
  if (!match?.[1] || !match[2]) return 0;
  const n = Number(match[1]);
  return match[2].toUpperCase() === "M" ? n / 1000 : n;
}

function displayNameOf(id: string, family: string, paramsB: number, quantization: string): string {
  // Gemma 4 spells its "effective" size with an E (E2B).
  const spelled = /-(E?\d+(?:\.\d+)?[BM])-/i.exec(id)?.[1];
  const size = spelled ?? `${paramsB}B`;
  const ctx = /-1k$/.test(id) ? " · 1k context, too small for tools" : "";
  return `${family} ${size} (${quantization})${ctx}`;
}
