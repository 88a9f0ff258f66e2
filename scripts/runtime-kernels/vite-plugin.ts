// Gives the page the patched runtime (patch-runtime.ts) as `import wasmUrl from
// "virtual:wllama-runtime"`: served from memory by the dev server, written into the build as an
// asset named by its content's hash. The patch is made once per server or build, from the
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

export const kernelsPath = () => new URL("./kernels.wasm", import.meta.url);

export function patchedRuntimeFile(): { fileName: string; bytes: Uint8Array<ArrayBuffer> } {
  const { bytes } = patchRuntime(readFileSync(shippedRuntimePath()), readFileSync(kernelsPath()));
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 12);
  return { fileName: `wllama/wllama-simd-${hash}.wasm`, bytes };
}

export function wllamaRuntime(): Plugin {
  let file: ReturnType<typeof patchedRuntimeFile> | undefined;
  const patched = () => (file ??= patchedRuntimeFile());
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
      const { fileName, bytes } = patched();
      if (serving) return `export default ${JSON.stringify(base + fileName)};`;
      const reference = this.emitFile({ type: "asset", fileName, source: bytes });
      return `export default import.meta.ROLLUP_FILE_URL_${reference};`;
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const { fileName, bytes } = patched();
        if (request.url?.split("?")[0] !== base + fileName) return next();
        response.setHeader("Content-Type", "application/wasm");
        response.setHeader("Cache-Control", "no-cache");
        response.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      });
    },
  };
}
