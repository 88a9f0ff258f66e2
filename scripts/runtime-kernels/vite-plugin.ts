// Gives the page the patched runtimes (patch-runtime.ts) as `import { simdRuntimeUrl,
// relaxedSimdRuntimeUrl } from "virtual:wllama-runtime"`: one with the kernels of kernels.wasm
// (WebAssembly SIMD), one with those of kernels-relaxed.wasm (relaxed SIMD too), the page picks
// the second where the browser has relaxed SIMD. Served from memory by the dev server, written
// into the build as assets named by their content's hash. The patch is made once per server or build, from the
// installed @wllama/wllama and the committed kernels.wasm, so it follows a wllama upgrade or
// refuses it with the reason (a renamed kernel, another signature).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Plugin } from "vite";
import { patchRuntime } from "./patch-runtime.ts";

const VIRTUAL_ID = "virtual:wllama-runtime";
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

export function shippedRuntimePath(): string {
  return createRequire(import.meta.url).resolve("@wllama/wllama/esm/wasm/wllama.wasm");
}

export type KernelsVariant = "simd" | "relaxed-simd";

export const kernelsPath = (variant: KernelsVariant = "simd") => new URL(variant === "simd" ? "./kernels.wasm" : "./kernels-relaxed.wasm", import.meta.url);

export function patchedRuntimeFile(variant: KernelsVariant = "simd"): { fileName: string; bytes: Uint8Array<ArrayBuffer> } {
  const { bytes } = patchRuntime(readFileSync(shippedRuntimePath()), readFileSync(kernelsPath(variant)));
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 12);
  return { fileName: `wllama/wllama-${variant}-${hash}.wasm`, bytes };
}

const VARIANTS: ReadonlyArray<{ variant: KernelsVariant; exportName: string }> = [
  { variant: "simd", exportName: "simdRuntimeUrl" },
  { variant: "relaxed-simd", exportName: "relaxedSimdRuntimeUrl" },
];

export function wllamaRuntime(): Plugin {
  const files = new Map<KernelsVariant, ReturnType<typeof patchedRuntimeFile>>();
  const patched = (variant: KernelsVariant) => files.get(variant) ?? files.set(variant, patchedRuntimeFile(variant)).get(variant)!;
  let base = "/";
  let serving = false;
  return {
    name: "wllama-simd-runtime",
    configResolved(config) {
      base = config.base;
      serving = config.command === "serve";
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      return VARIANTS.map(({ variant, exportName }) => {
        const { fileName, bytes } = patched(variant);
        if (serving) return `export const ${exportName} = ${JSON.stringify(base + fileName)};`;
        const reference = this.emitFile({ type: "asset", fileName, source: bytes });
        return `export const ${exportName} = import.meta.ROLLUP_FILE_URL_${reference};`;
      }).join("\n");
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = request.url?.split("?")[0];
        const file = VARIANTS.map(({ variant }) => patched(variant)).find(({ fileName }) => path === base + fileName);
        if (!file) return next();
        const { bytes } = file;
        response.setHeader("Content-Type", "application/wasm");
        response.setHeader("Cache-Control", "no-cache");
        response.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      });
    },
  };
}
