// The real models' GGUF files in the per-user cache (`npm run models`), for tests. In CI a
// missing file is a failure; elsewhere a test may skip with the message this gives.
import { existsSync, openSync, readSync, closeSync } from "node:fs";
import { readManifest, modelPath } from "./cache-dir.mjs";
import type { GgufByteReader } from "../../src/gguf/gguf-metadata.ts";

export interface RealModel {
  id: string;
  family: string;
  path: string;
}

export function realModel(id: string): RealModel {
  const model = readManifest().models.find((entry) => entry.id === id);
  if (!model) throw new Error(`models/models.json has no model "${id}".`);
  return { id, family: model.family, path: modelPath(model) };
}

/** Why the model cannot be used here (its file is missing), or null when it can. */
export function missingModel(model: RealModel): string | null {
  if (existsSync(model.path)) return null;
  const message = `The real model ${model.id} is not in the cache (${model.path}): run \`npm run models\`.`;
  if (process.env.CI) throw new Error(message);
  return message;
}

/** Reads byte ranges of a file on disk (closes it after `use`). */
export async function withFileReader<T>(path: string, use: (read: GgufByteReader) => Promise<T>): Promise<T> {
  const fd = openSync(path, "r");
  try {
    return await use(async (offset, length) => {
      const buffer = Buffer.alloc(length);
      const read = readSync(fd, buffer, 0, length, offset);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, read);
    });
  } finally {
    closeSync(fd);
  }
}
