// Builds the WebLLM harness page (tests only) into e2e/.output/webllm-harness: the app plus a
// model worker that runs WebLLM's real engine around a scripted stand-in for the GPU. It is a
// separate build: nothing here reaches the app's own bundle (`vite build` at the root).
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { wllamaRuntime } from "../../scripts/runtime-kernels/vite-plugin.ts";

const here = fileURLToPath(new URL(".", import.meta.url));

/**
 * WebLLM keeps LLMChatPipeline (the stand-in's prototype) and CustomLock (its request lock)
 * module-private; this build exports them from WebLLM's module so the harness can install a
 * model the way WebLLM's own loading does.
 */
function exposeWebLlmInternals(): Plugin {
  return {
    name: "expose-webllm-internals",
    transform(code, id) {
      if (!/@mlc-ai[\\/]web-llm[\\/]lib[\\/]index\.js$/.test(id)) return null;
      return { code: `${code}\nexport { LLMChatPipeline as __LLMChatPipeline, CustomLock as __CustomLock };\n`, map: null };
    },
  };
}

export default defineConfig({
  root: here,
  base: "./",
  logLevel: "warn",
  // The app's CPU engine imports its runtime from the plugin (virtual:wllama-runtime), as the root build does.
  plugins: [react(), wllamaRuntime()],
  resolve: { tsconfigPaths: true },
  worker: { format: "es", plugins: () => [exposeWebLlmInternals()] },
  build: {
    outDir: fileURLToPath(new URL("../.output/webllm-harness", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 8000,
  },
});
