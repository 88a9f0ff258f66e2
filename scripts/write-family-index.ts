// Writes packages/toolcall-middleware/src/families/family-index-data.ts: the light index of the
// model families (family-index-entry.ts says what it holds and why) from the registry. Run after
// adding or changing a family: `npx tsx scripts/write-family-index.ts` (family-index.test.ts fails
// until the written index equals the registry's).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { familyIndexEntry } from "toolcall-middleware/families/family-index-entry.ts";
import { families } from "toolcall-middleware/families/registry.ts";

const OUT = resolve(import.meta.dirname, "../packages/toolcall-middleware/src/families/family-index-data.ts");

/** A value as TypeScript source: JSON, except that a RegExp is written as its literal. */
export function toSource(value: unknown): string {
  if (value instanceof RegExp) return value.toString();
  if (Array.isArray(value)) return `[${value.map(toSource).join(", ")}]`;
  if (value && typeof value === "object") return `{ ${Object.entries(value).map(([key, v]) => `${keySource(key)}: ${toSource(v)}`).join(", ")} }`;
  return JSON.stringify(value);
}

function keySource(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** One family: a field a line, its WebLLM records a line each. */
function entrySource(entry: object): string {
  const fields = Object.entries(entry).map(([key, value]) => {
    if (key === "webllmModels") {
      const records = (value as { records: readonly object[] }).records.map((record) => `        ${toSource(record)},`).join("\n");
      return `    webllmModels: {\n      records: [\n${records}\n      ],\n    },`;
    }
    return `    ${keySource(key)}: ${toSource(value)},`;
  });
  return `  {\n${fields.join("\n")}\n  },`;
}

export function familyIndexSource(): string {
  const entries = families.map((family) => entrySource(familyIndexEntry(family))).join("\n");
  return `// Written by scripts/write-family-index.ts from families/registry.ts; do not edit (family-index.test.ts
// fails when it differs from the registry). The light fields of every family, in registry order:
// what the lab's first screen reads before the families' templates load (family-index-entry.ts).
import type { FamilyIndexEntry } from "./family-index-entry.ts";

export const familyIndexEntries: readonly FamilyIndexEntry[] = [
${entries}
];
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(OUT, familyIndexSource());
  console.log(`wrote ${OUT} (${families.length} families)`);
}
