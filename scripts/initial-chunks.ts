// The chunks a built page loads with its first screen: the entry chunk of index.html and every
// chunk it imports statically, transitively (what the page loads and modulepreloads; dynamic
// imports load later). Shared by scripts/initial-load.test.ts and bench/initial-load-attribution.ts.
import type { Rollup } from "vite";

export function initialChunksOf(chunks: readonly Rollup.OutputChunk[]): Rollup.OutputChunk[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith("index.html"));
  if (!entry) throw new Error(`no entry chunk for index.html among ${chunks.map((chunk) => chunk.fileName).join(", ")}`);
  const seen = new Map<string, Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const file of chunk.imports) {
      const next = byFile.get(file);
      if (next) visit(next);
    }
  };
  visit(entry);
  return [...seen.values()];
}
