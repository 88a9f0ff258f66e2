// Choosing a model shows the protocol its family was trained on and preselects it; the header
// still lets the person pick another for the next turn.
import { expect, test } from "@playwright/test";

test("choosing a model preselects its recommended protocol, which the person can still change", async ({ page }) => {
  await page.goto("/?engine=webllm");
  await expect(page.getByTestId("webgpu-badge")).toHaveAttribute("data-state", "available");
  const protocol = page.getByTestId("protocol-select");

  await page.getByTestId("model-select").selectOption("Llama-3.2-1B-Instruct-q4f32_1-MLC");
  await expect(page.getByTestId("recommended-protocol")).toHaveText("llama3-json (recommended)");
  await expect(protocol).toHaveValue("llama3-json");

  await protocol.selectOption("pythonic");
  await expect(protocol).toHaveValue("pythonic");

  await page.getByTestId("model-select").selectOption("SmolLM2-360M-Instruct-q4f32_1-MLC");
  await expect(page.getByTestId("recommended-protocol")).toHaveText("xml (recommended)");
  await expect(protocol).toHaveValue("xml");

  await page.getByTestId("model-select").selectOption("Qwen3-0.6B-q4f32_1-MLC");
  await expect(protocol).toHaveValue("hermes");
});
