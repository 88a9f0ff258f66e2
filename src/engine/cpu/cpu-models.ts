// The models the CPU engine offers: the repository's manifest (models/models.json), served by the
// dev/preview server at /models/<id>.gguf from the per-user cache (`npm run models` fills it). On
// a person's own machine a manifest entry's Hugging Face file is the other place to load it from.
import manifest from "../../../models/models.json";

export interface CpuModel {
  id: string;
  label: string;
  /** The registry family whose template and stops the model runs with. */
  family: string;
  license: string;
  sizeBytes: number;
  huggingFace?: { repo: string; file: string };
}

export const cpuModels: readonly CpuModel[] = manifest.models.map((m) => ({
  id: m.id,
  label: m.label,
  family: m.family,
  license: m.license,
  sizeBytes: m.size,
  ...(m.huggingFace ? { huggingFace: m.huggingFace } : {}),
}));

export const DEFAULT_CPU_MODEL_ID = "smollm2-135m-instruct-q4_1";

export function findCpuModel(id: string): CpuModel | undefined {
  return cpuModels.find((m) => m.id === id);
}

/** Where the lab's own server serves the model (a 404 there says to run `npm run models`). */
export function labServedModelUrl(model: Pick<CpuModel, "id">): string {
  return `/models/${encodeURIComponent(model.id)}.gguf`;
}

/** The model's file on Hugging Face, for a person's machine without the lab's cache (never used in tests). */
export function huggingFaceModelUrl(model: CpuModel): string | undefined {
  return model.huggingFace ? `https://huggingface.co/${model.huggingFace.repo}/resolve/main/${model.huggingFace.file}` : undefined;
}

export function formatBytes(bytes: number): string {
  const mb = bytes / 1_000_000;
  return mb >= 1000 ? `${(mb / 1000).toFixed(1)} GB` : `${Math.round(mb)} MB`;
}

/** Texts a BOS token is spelled with in the families' templates. */
const BOS_SPELLINGS = ["<bos>", "<s>", "<|begin_of_text|>", "<|startoftext|>"];

/** The BOS text among a template's control tokens, if it writes one. */
export function bosTextOf(controlTokens: readonly string[]): string | undefined {
  return BOS_SPELLINGS.find((t) => controlTokens.includes(t));
}
