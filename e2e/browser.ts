// Which Chromium the end-to-end tests drive. Playwright cannot download its own browser on every
// machine (a closed network), so a system Chromium is preferred when one is installed; on a
// machine with Playwright's managed browser and no system one, that is used instead.
import { existsSync } from "node:fs";

export function systemChromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((p): p is string => Boolean(p) && existsSync(p as string));
}

/** Flags that make headless Chromium work on closed-network, GPU-less machines. */
export const baseChromiumArgs = [
  "--no-sandbox",
  "--disable-gpu-sandbox",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** With this flag, headless Chromium exposes a real WebGPU adapter (SwiftShader on CPU-only machines). */
export const webGpuArgs = ["--enable-unsafe-webgpu"];
