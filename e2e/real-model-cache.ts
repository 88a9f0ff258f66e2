// The real SmolLM2 a spec runs, from the per-machine model cache (`npm run models`): where it is
// not cached the spec's tests are skipped, saying why, except in CI, which must run them and
// fails instead.
import { existsSync } from "node:fs";
import { test } from "@playwright/test";
import { modelPath, readManifest } from "../scripts/real-models/cache-dir.mjs";

/** The cached SmolLM2's manifest entry; call at a spec's top level. `inCi`: what CI must run, e.g. "the CPU engine's real-model tests must run in CI". */
export function cachedSmolLm2(inCi: string) {
  const smollm2 = readManifest().models.find((m) => m.id === "smollm2-135m-instruct-q4_1")!;
  const missing = existsSync(modelPath(smollm2)) ? undefined : "SmolLM2 is not in the model cache: run `npm run models`";
  if (missing && process.env.CI) throw new Error(`${inCi}, but ${missing}`);
  test.skip(missing !== undefined, missing);
  return smollm2;
}
