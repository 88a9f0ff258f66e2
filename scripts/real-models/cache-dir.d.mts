export interface ManifestModelPart {
  package: string;
  version: string;
  path: string;
}
export interface ManifestModel {
  id: string;
  label: string;
  family: string;
  license: string;
  file: string;
  sha256: string;
  size: number;
  parts: ManifestModelPart[];
  huggingFace?: { repo: string; file: string };
  /** A chat template for llama-server (--chat-template-file), relative to the repository, where the GGUF has none. */
  chatTemplateFile?: string;
}
export interface ModelsManifest {
  models: ManifestModel[];
  llamaServer: { package: string; version: string; integrity?: string };
}
export function labCacheDir(): string;
export const manifestPath: string;
export function readManifest(): ModelsManifest;
export function modelPath(model: ManifestModel): string;
export function cachedModels(ids?: string[]): ManifestModel[];
export function cachedModelProblem(model: ManifestModel): string | undefined;
