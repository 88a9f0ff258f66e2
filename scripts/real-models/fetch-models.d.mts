import type { ManifestModel } from "./cache-dir.mjs";
export function removeStaleStaging(modelsDir?: string, alive?: (pid: number) => boolean, now?: number): string[];
export function ensureModel(model: ManifestModel): Promise<string>;
