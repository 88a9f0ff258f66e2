// Types of cache-dir.mjs, for the TypeScript that imports it (the Vite plugin serving models).
export interface ManifestModel {
  id: string;
  label: string;
  family: string;
  license: string;
  file: string;
  sha256: string;
  size: number;
  parts: Array<{ package: string; version: string; path: string }>;
  huggingFace?: { repo: string; file: string };
}
export function labCacheDir(): string;
export const manifestPath: string;
export function readManifest(): { models: ManifestModel[] };
export function modelPath(model: ManifestModel): string;
