// Which modules the first screen's JavaScript is made of (issue #30): builds the app in memory,
// follows the entry chunk's static imports (what index.html loads and modulepreloads, as
// scripts/initial-load.test.ts does), gzips each of those chunks and shares its gzip size among its
// modules by their rendered length. An estimate (minified library code and app code compress
// differently), to find what to move; the figure itself is bench/ui-perf.ts's.
//   npx tsx bench/initial-load-attribution.ts        (TOP=<n> lists n modules, 60 by default)
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Rollup } from "vite";
import { initialChunksOf } from "../scripts/initial-chunks.ts";

const ROOT = resolve(import.meta.dirname, "..");
const TOP = Number(process.env.TOP ?? 60);

const result = await build({ root: ROOT, logLevel: "silent", build: { write: false, emptyOutDir: false, outDir: resolve(ROOT, ".bench-cache", "attribution") } });
const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
const chunks = outputs.flatMap((output) => output.output.filter((item): item is Rollup.OutputChunk => item.type === "chunk"));
const initial = new Map(initialChunksOf(chunks).map((chunk) => [chunk.fileName, chunk]));

const kb = (bytes: number) => (bytes / 1024).toFixed(2).padStart(7);
const modules: { id: string; gzip: number }[] = [];
let total = 0;
for (const chunk of initial.values()) {
  const gzip = gzipSync(chunk.code, { level: 9 }).length;
  total += gzip;
  const rendered = Object.entries(chunk.modules);
  const length = rendered.reduce((sum, [, module]) => sum + module.renderedLength, 0);
  console.log(`${kb(gzip)} KB  ${chunk.fileName} (${rendered.length} modules)`);
  for (const [id, module] of rendered) modules.push({ id: id.replace(`${ROOT}/`, "").replace(/.*node_modules\//, "node_modules/"), gzip: (gzip * module.renderedLength) / Math.max(1, length) });
}
console.log(`${kb(total)} KB  in all\n`);

const groups: [string, RegExp][] = [
  ["react, react-dom, scheduler", /^node_modules\/(react|react-dom|scheduler)\//],
  ["zod", /^node_modules\/zod\//],
  ["the model families", /^packages\/toolcall-middleware\/src\/families\//],
  ["the rest of the middleware", /^packages\/toolcall-middleware\/src\/(?!families\/)/],
  ["the app (src/)", /^src\//],
];
for (const [name, pattern] of groups) console.log(`${kb(modules.filter((m) => pattern.test(m.id)).reduce((sum, m) => sum + m.gzip, 0))} KB  ${name}`);
console.log();
for (const module of modules.sort((a, b) => b.gzip - a.gzip).slice(0, TOP)) console.log(`${kb(module.gzip)} KB  ${module.id}`);
