import { chromium, expect, test } from "@playwright/test";
import { baseChromiumArgs, systemChromiumPath } from "./browser.ts";

test("the shell renders its panes and the header", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Toolcall Lab" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Model" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Chat" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Debugger" })).toBeVisible();
});

test("the WebGPU badge reports the adapter this browser really offers", async ({ page }) => {
  await page.goto("/");
  // Ask the same browser, independently of the app, what adapter it has.
  const truth = await page.evaluate(async () => {
    const adapter = await navigator.gpu?.requestAdapter();
    if (!adapter) return null;
    return {
      vendor: adapter.info.vendor,
      architecture: adapter.info.architecture,
      shaderF16: adapter.features.has("shader-f16"),
    };
  });
  const badge = page.getByTestId("webgpu-badge");
  await expect(badge).not.toHaveAttribute("data-state", "checking");
  if (!truth) {
    await expect(badge).toHaveAttribute("data-state", "unavailable");
    return;
  }
  await expect(badge).toHaveAttribute("data-state", "available");
  await expect(badge).toHaveAttribute("data-vendor", truth.vendor);
  await expect(badge).toHaveAttribute("data-architecture", truth.architecture);
  await expect(badge).toHaveAttribute("data-shader-f16", String(truth.shaderF16));
  const label = [truth.vendor, truth.architecture].filter(Boolean).join(" / ");
  if (label) await expect(badge).toContainText(label);
  await expect(badge).toContainText(truth.shaderF16 ? "shader-f16" : "no shader-f16");
});

test("a Chromium without WebGPU shows the plain no-WebGPU message", async ({ baseURL }) => {
  const executablePath = systemChromiumPath();
  // A second browser, started without --enable-unsafe-webgpu and with WebGPU switched off.
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: [...baseChromiumArgs, "--disable-features=WebGPU,Vulkan", "--disable-unsafe-webgpu"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(baseURL ?? "/");
    const hasAdapter = await page.evaluate(async () => Boolean(await navigator.gpu?.requestAdapter()));
    expect(hasAdapter).toBe(false);
    const badge = page.getByTestId("webgpu-badge");
    await expect(badge).toHaveAttribute("data-state", "unavailable");
    await expect(badge).toHaveText("No WebGPU");
    await expect(page.getByTestId("webgpu-message")).toContainText(/WebGPU/);
    await expect(page.getByTestId("webgpu-message")).toContainText(/CPU/);
  } finally {
    await browser.close();
  }
});
