import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  // WebLLM's worker imports ES modules, so workers are bundled as modules.
  worker: { format: "es" },
  build: { target: "es2022", chunkSizeWarningLimit: 8000 },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "scripts/**/*.test.ts"],
    environment: "node",
  },
});
