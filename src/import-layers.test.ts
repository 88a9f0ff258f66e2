// Every import points down. The lab is built in layers, the middleware package at the bottom and
// the page's entry at the top; a module imports its own folder and the layers below its own,
// never a layer above it and never a peer beside it (peers on one floor stay independent of each
// other, so either can change or move without the other). LAYERS is the one place the order is
// written; docs/architecture.md draws the same floors.
//
// Tests (`*.test.ts`, `*.test.tsx`) are not held to it: a test may use what stands above the code
// it tests (a stand-in server from e2e/, llama-server from scripts/, a store's test events), and
// nothing ships with it. Test support that is not itself a test is held to it like any module.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

/** The floors, bottom first: each a list of folders (or files) that are peers. */
export const LAYERS: readonly (readonly string[])[] = [
  // The ground floor: the middleware package, and the real models' list (data).
  ["packages/toolcall-middleware", "models"],
  // Pure helpers on the package: network helpers, reading GGUF files, the in-browser tools, the
  // shared-text encoding of a log.
  ["src/net", "src/gguf", "src/tools", "src/log-encoding"],
  // Tokenizers; the Conversation domain type (settings and its event log).
  ["src/tokens", "src/domain"],
  // Engines, the MCP client, the experiments' logic, evaluation.
  ["src/engine", "src/mcp", "src/experiments", "src/eval"],
  // IndexedDB repositories and the tabs' link.
  ["src/persistence"],
  // The stores and their controllers.
  ["src/store"],
  // The composition root.
  ["src/app"],
  // React components.
  ["src/ui"],
  // The page's entry.
  ["src/main.tsx"],
  // Around the source, never imported by it: scripts and benchmarks (Node), the browser tests.
  ["scripts", "bench", "e2e"],
];

const PACKAGE_NAME = "toolcall-middleware";
const PACKAGE_DIR = "packages/toolcall-middleware";

/** Where `path` stands: its layer's index and the folder (or file) of LAYERS it is in. */
export function placeOf(path: string, layers: readonly (readonly string[])[] = LAYERS): { layer: number; unit: string } | undefined {
  for (const [layer, units] of layers.entries()) {
    for (const unit of units) if (path === unit || path.startsWith(unit + "/")) return { layer, unit };
  }
  return undefined;
}

/** What a module imports, as repository paths: relative imports resolved, the package by its name. Static, re-exported and dynamic imports alike. */
export function importsOf(file: string, source: string): { spec: string; target: string }[] {
  const specs = [
    ...source.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms),
    ...source.matchAll(/^\s*import\s+"([^"]+)"/gm),
    ...source.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g),
  ].map((m) => m[1]!);
  return [...new Set(specs)].flatMap((spec) => {
    if (spec.startsWith(".")) return [{ spec, target: normalize(join(dirname(file), spec)) }];
    if (spec === PACKAGE_NAME || spec.startsWith(PACKAGE_NAME + "/")) return [{ spec, target: PACKAGE_DIR }];
    return []; // a dependency from node_modules
  });
}

/** Every import in `files` that breaks the order, each with the rule it breaks. */
export function importsAgainstLayers(files: readonly { path: string; source: string }[], layers: readonly (readonly string[])[] = LAYERS): string[] {
  const floor = (layer: number) => `floor ${layer + 1} (${layers[layer]!.join(", ")})`;
  const broken: string[] = [];
  for (const { path, source } of files) {
    const from = placeOf(path, layers);
    if (!from) {
      broken.push(`${path} is in no layer: add its folder to LAYERS in src/import-layers.test.ts (and to docs/architecture.md)`);
      continue;
    }
    for (const { spec, target } of importsOf(path, source)) {
      const to = placeOf(target, layers);
      const where = `${path} imports "${spec}"`;
      if (!to) broken.push(`${where}, which is in no layer (${target})`);
      else if (to.unit === from.unit) continue;
      else if (to.layer > from.layer) broken.push(`${where}: it points up, from ${from.unit} on ${floor(from.layer)} to ${to.unit} on ${floor(to.layer)}; a module imports only its own layer's folder and the layers below`);
      else if (to.layer === from.layer) broken.push(`${where}: it points sideways, from ${from.unit} to ${to.unit}, peers on ${floor(from.layer)}; peers stay independent of each other`);
    }
  }
  return broken;
}

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? modules(path) : /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const isTest = (path: string) => /\.test\.tsx?$/.test(path);

describe("imports under src and in the middleware package", () => {
  const files = [...modules("src"), ...modules(join(PACKAGE_DIR, "src"))].filter((path) => !isTest(path)).map((path) => ({ path, source: readFileSync(path, "utf8") }));

  it("reads the modules and their imports", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.some(({ path }) => path === "src/store/run-controller.ts")).toBe(true);
    expect(importsOf("src/app/lab-stores.ts", files.find(({ path }) => path === "src/app/lab-stores.ts")!.source).map(({ target }) => target)).toContain("src/store/run-controller.ts");
  });

  it("point down: each imports its own folder and the layers below it only", () => {
    expect(importsAgainstLayers(files)).toEqual([]);
  });
});

describe("the layer check", () => {
  const layers = [["lib"], ["src/a", "src/b"], ["src/top"]];

  it("names an import that points up, a peer's import and a module outside the layers, each with its rule", () => {
    const broken = importsAgainstLayers(
      [
        { path: "src/a/x.ts", source: 'import { t } from "../top/t.ts";\nimport { l } from "../../lib/l.ts";\nimport { y } from "./y.ts";' },
        { path: "src/b/z.ts", source: 'const lazy = () => import("../a/x.ts");' },
        { path: "src/top/t.ts", source: 'export { x } from "../a/x.ts";\nimport "./t.css";' },
        { path: "src/new/n.ts", source: "" },
      ],
      layers,
    );
    expect(broken).toEqual([
      'src/a/x.ts imports "../top/t.ts": it points up, from src/a on floor 2 (src/a, src/b) to src/top on floor 3 (src/top); a module imports only its own layer\'s folder and the layers below',
      'src/b/z.ts imports "../a/x.ts": it points sideways, from src/b to src/a, peers on floor 2 (src/a, src/b); peers stay independent of each other',
      "src/new/n.ts is in no layer: add its folder to LAYERS in src/import-layers.test.ts (and to docs/architecture.md)",
    ]);
  });

  it("takes the package by its name as the package's folder", () => {
    expect(importsOf("src/eval/x.ts", 'import type { LoopEvent } from "toolcall-middleware/types.ts";\nimport { z } from "zod";')).toEqual([{ spec: "toolcall-middleware/types.ts", target: PACKAGE_DIR }]);
  });
});
