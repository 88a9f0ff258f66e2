import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { serveModels } from "./scripts/real-models/serve-models.ts";
import { wllamaRuntime } from "./scripts/runtime-kernels/vite-plugin.ts";

// Cross-origin isolation: SharedArrayBuffer, so llama.cpp in WebAssembly (the CPU engine) runs
// multi-threaded. "credentialless" rather than "require-corp": cross-origin requests without CORS
// still load (without cookies), so nothing the lab fetches from elsewhere needs a CORP header.
const crossOriginIsolation = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "credentialless" };

export default defineConfig({
  // serveModels: /models/<id>.gguf from the per-user cache (the CPU engine loads real weights from there).
  // wllamaRuntime: the CPU engine's llama.cpp runtime with SIMD 4-bit kernels (scripts/runtime-kernels).
  plugins: [react(), serveModels(), wllamaRuntime()],
  // The middleware package (packages/toolcall-middleware) by its name, from its sources: tsconfig.json's paths.
  resolve: { tsconfigPaths: true },
  // WebLLM's worker imports ES modules, so workers are bundled as modules.
  worker: { format: "es" },
  build: { target: "es2022", chunkSizeWarningLimit: 8000 },
  server: { headers: crossOriginIsolation },
  preview: { headers: crossOriginIsolation },
  test: {
    include: ["src/**/*.test.ts", "packages/*/src/**/*.test.ts", "src/**/*.test.tsx", "scripts/**/*.test.ts"],
    environment: "node",
    // Generous: CI machines have 2 cores, and importing WebLLM or a tokenizer takes seconds there.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
