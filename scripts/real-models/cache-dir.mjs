// Where big downloads and builds live: one per-user cache outside any work tree, so every clone on
// the machine reuses the same models and the same llama-server build.
import { homedir } from "node:os";
import { join } from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { unverifiedFile } from "./verified-file.mjs";

export function labCacheDir() {
  if (process.env.TOOLCALL_LAB_CACHE) return process.env.TOOLCALL_LAB_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "toolcall-lab");
}

export const manifestPath = fileURLToPath(new URL("../../models/models.json", import.meta.url));

export function readManifest() {
  return JSON.parse(readFileSync(manifestPath, "utf8"));
}

export function modelPath(model) {
  return join(labCacheDir(), "models", model.id, model.file);
}

/** The manifest's models whose file is in the cache, only those named when `ids` is given (benchmarks). */
export function cachedModels(ids) {
  return readManifest().models.filter((m) => (!ids || ids.includes(m.id)) && existsSync(modelPath(m)));
}

/**
 * Why the cached file of `model` may not be used (missing, a link, the wrong size or sha256), or
 * undefined when it may: checked by its sha256 once per file identity (verified-file.mjs).
 */
export function cachedModelProblem(model) {
  return unverifiedFile(modelPath(model), model);
}
