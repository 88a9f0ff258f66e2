// `npx tsx bench/cpu-webgpu.ts`: what llama.cpp in the page does when asked to offload a GGUF to
// WebGPU (wllama's n_gpu_layers; the lab loads with 0). Chromium with WebGPU on, the bare runtime
// (bench/runtime-harness), SmolLM2 Q4_1: the adapter the browser offers, then for n_gpu_layers 0 and
// 99 the lines of llama.cpp's log that say where the weights and the KV cache were put, prefill and
// decode tokens/s (llama.cpp's own timings) and the first words of the greedy output. Figures
// only; nothing here is a test. BENCH_WEBGPU_MODEL picks another cached model.
import { loadavg } from "node:os";
import type { Page } from "@playwright/test";
import { webGpuArgs } from "../e2e/browser.ts";
import { launchHarnessBrowser, openHarnessPage, startHarnessServer } from "./runtime-harness/harness-server.ts";

const MODEL = process.env.BENCH_WEBGPU_MODEL ?? "smollm2-135m-instruct-q4_1";
const PROMPT = "<|im_start|>user\nWrite a long story about the sea.<|im_end|>\n<|im_start|>assistant\n";

interface Loaded { deviceLines: string[] }
interface Ran { text: string; timings: { prompt_per_second: number; predicted_per_second: number } }
const harness = <T>(page: Page, call: "load" | "run", options: object) =>
  page.evaluate(([c, o]) => (globalThis as unknown as { harness: Record<string, (o: object) => Promise<unknown>> }).harness[c]!(o), [call, options] as const) as Promise<T>;

const harnessServer = await startHarnessServer();
const { base } = harnessServer;
const browser = await launchHarnessBrowser(webGpuArgs);
try {
  console.log(`${MODEL}, 1 thread; load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  for (const gpuLayers of [0, 99]) {
    const page = await openHarnessPage(browser, base);
    if (gpuLayers === 0) {
      const adapter = await page.evaluate(async () => {
        const gpu = (navigator as { gpu?: { requestAdapter: () => Promise<{ info?: Record<string, unknown>; features: Set<string> } | null> } }).gpu;
        const found = await gpu?.requestAdapter();
        return found ? { vendor: found.info?.vendor, architecture: found.info?.architecture, fallback: found.info?.isFallbackAdapter, shaderF16: found.features.has("shader-f16") } : null;
      });
      console.log(`the page's WebGPU adapter: ${JSON.stringify(adapter)}`);
    }
    try {
      const loaded = await harness<Loaded>(page, "load", { url: `${base}/models/${MODEL}.gguf`, threads: 1, gpuLayers });
      const ran = await harness<Ran>(page, "run", { prompt: PROMPT, nPredict: 16 });
      console.log(`n_gpu_layers ${gpuLayers}: prefill ${ran.timings.prompt_per_second.toFixed(1)} tok/s, decode ${ran.timings.predicted_per_second.toFixed(1)} tok/s, ${JSON.stringify(ran.text.slice(0, 60))}`);
      for (const line of loaded.deviceLines) console.log(`  llama.cpp: ${line}`);
    } catch (error) {
      console.log(`n_gpu_layers ${gpuLayers}: failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    await page.close();
  }
} finally {
  await browser.close();
  await harnessServer.close();
}
