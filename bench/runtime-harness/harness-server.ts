// The runtime harness (harness.ts) as the benchmarks and the runtime's tests open it: Vite's dev
// server with the project's config (the patched runtimes of `virtual:wllama-runtime`, the models
// route), Chromium with the project's flags, and the harness page once its `harness` is ready.
import { join } from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { createServer } from "vite";
import { baseChromiumArgs, systemChromiumPath } from "../../e2e/browser.ts";

/** The dev server on a free port of 127.0.0.1: its address, and how to stop it. */
export async function startHarnessServer(): Promise<{ base: string; close: () => Promise<void> }> {
  const vite = await createServer({ root: join(import.meta.dirname, "..", ".."), server: { port: 0, host: "127.0.0.1" }, logLevel: "error" });
  await vite.listen();
  const address = vite.httpServer?.address();
  return { base: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`, close: () => vite.close() };
}

/** Chromium with the project's flags (and any more, e.g. WebGPU's). */
export function launchHarnessBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const executablePath = systemChromiumPath();
  return chromium.launch({ ...(executablePath ? { executablePath } : {}), args: [...baseChromiumArgs, ...extraArgs] });
}

/** A new page on the harness, once its `harness` object is there. */
export async function openHarnessPage(browser: Browser, base: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${base}/bench/runtime-harness/index.html`);
  await page.waitForFunction(() => "harness" in globalThis);
  return page;
}
