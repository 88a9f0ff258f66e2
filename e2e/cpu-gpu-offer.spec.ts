// The CPU engine's offer to put a GGUF's layers on the GPU (llama.cpp's WebGPU backend in
// wllama.wasm) is made for a hardware adapter only. This Chromium's only adapter is SwiftShader, a
// software fallback: the pane says why there is no offer. To run the offered path here, the page's
// own adapter check is told of a hardware adapter (an init script changes what
// `requestAdapter` reports to the lab, not what llama.cpp's worker gets): the person ticks the
// offer, the real SmolLM2 loads with every layer asked on the GPU, and the pane says what llama.cpp
// did with them, in its own count.
import { expect, test } from "@playwright/test";

test.setTimeout(300_000);

test("a software adapter: no GPU offer, and the pane says why", async ({ page }) => {
  await page.goto("/?cpuThreads=1");
  await page.getByTestId("engine-select").selectOption("cpu");
  const why = page.getByTestId("cpu-gpu-offload-why");
  await expect(why).toHaveText(/^This browser's only WebGPU adapter is a software one \(.*swiftshader.*\): the model runs on the CPU\.$/i);
  await expect(page.getByTestId("cpu-gpu-offload")).toHaveCount(0);
});

test("offered for a hardware adapter: ticked, SmolLM2 loads with its layers asked on the GPU and the pane says llama.cpp's count", async ({ page }) => {
  await page.addInitScript(() => {
    const gpu = navigator.gpu;
    if (!gpu) return;
    const request = gpu.requestAdapter.bind(gpu);
    gpu.requestAdapter = async (options) => {
      const adapter = await request(options);
      if (!adapter) return adapter;
      const info = { vendor: "test-vendor", architecture: "test-hardware", device: "", description: "", isFallbackAdapter: false };
      return new Proxy(adapter, { get: (target, key) => (key === "info" ? info : Reflect.get(target, key, target)) });
    };
  });
  await page.goto("/?cpuThreads=1");
  await page.getByTestId("engine-select").selectOption("cpu");
  const offer = page.getByTestId("cpu-gpu-offload");
  await expect(offer).toContainText("Put the model's layers on the GPU (test-vendor / test-hardware, llama.cpp's WebGPU backend) at the next load");
  await expect(page.getByTestId("cpu-gpu-offload-why")).toHaveCount(0);
  await offer.getByRole("checkbox").check();
  const shots = process.env.CPU_SHOTS ?? "test-results/screens";
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("cpu-section").screenshot({ path: `${shots}/cpu-gpu-offer-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/cpu-gpu-offer-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId("cpu-load-button").click();
  const status = page.getByTestId("cpu-section").getByTestId("engine-status");
  await expect(status).toContainText("runs on the CPU", { timeout: 240_000 });
  // What llama.cpp did with the layers is its own count (on SwiftShader it has put none there so far).
  await expect(status).toContainText(/, (\d+ of \d+ layers on the GPU \(WebGPU\)|every layer asked on the GPU \(WebGPU\), (but llama\.cpp kept them on the CPU|and llama\.cpp did not say where it put them))/);
  console.log(`cpu-gpu-offer: ${(await status.textContent())?.match(/1 thread, .*?-token window\)/)?.[0]}`);
});
