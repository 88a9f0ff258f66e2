// The thinking switch as a person meets it: it belongs to the model shown. Picking Qwen3.5 2B shows
// it off and 4B on (the model cards' defaults); a setting the person makes holds for that model,
// and only for it, also after a reload; on a server (the local stand-in, prompt mode) the switch
// follows the server model the same way, and the prompt sent says what the switch shows.
import { expect, test, type Page } from "@playwright/test";
import { startOpenAiTestServer, type OpenAiTestServer } from "./openai-server/server.ts";
import { send } from "./lab-helpers.ts";

let server: OpenAiTestServer;
test.beforeAll(async () => {
  server = await startOpenAiTestServer({ models: [{ id: "Qwen/Qwen3.5-2B", max_model_len: 32768 }, { id: "Qwen/Qwen3.5-4B", max_model_len: 32768 }] });
});
test.afterAll(() => server.close());

const SMALL = "Qwen3.5-2B-q4f32_1-MLC";
const LARGE = "Qwen3.5-4B-q4f32_1-MLC";
const TINY = "Qwen3.5-0.8B-q4f32_1-MLC";

/** Screenshots at 1440 and 390 px (there the side column opens behind the header's button); the test goes on at 1440. */
async function shot(page: Page, name: string, locator = page.getByTestId("thinking-toggle")): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await locator.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `e2e/.output/${name}-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  const toggle = page.getByTestId("side-toggle");
  if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
  await locator.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `e2e/.output/${name}-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("WebLLM picker: Qwen3.5's switch shows each model's default, and the person's setting for a model stays with it", async ({ page }) => {
  await page.goto("/?engine=webllm");
  await expect(page.getByTestId("webgpu-badge")).toHaveAttribute("data-state", "available");
  const select = page.getByTestId("model-select");
  const thinking = page.getByTestId("thinking-toggle");

  await select.selectOption(LARGE);
  await expect(thinking).toBeChecked();
  await select.selectOption(SMALL);
  await expect(thinking).not.toBeChecked();
  await expect(page.getByTestId("thinking-note")).toHaveText("This model's default (off).");
  await shot(page, "thinking-follows-model-2b");
  await select.selectOption(TINY);
  await expect(thinking).not.toBeChecked();

  // The person turns it on for 0.8B: 0.8B keeps it, 2B and 4B keep their own defaults.
  await thinking.check();
  await expect(page.getByTestId("thinking-note")).toHaveText("Set by you for this model (off by default).");
  await select.selectOption(SMALL);
  await expect(thinking).not.toBeChecked();
  await select.selectOption(LARGE);
  await expect(thinking).toBeChecked();
  // And off for 4B.
  await thinking.uncheck();
  await select.selectOption(TINY);
  await expect(thinking).toBeChecked();

  // After a reload: the model last picked, with the person's setting for it; the others as set or by default.
  await page.reload();
  await expect(select).toHaveValue(TINY);
  await expect(thinking).toBeChecked();
  await select.selectOption(LARGE);
  await expect(thinking).not.toBeChecked();
  await select.selectOption(SMALL);
  await expect(thinking).not.toBeChecked();
  await shot(page, "thinking-follows-model-after-reload");
});

test("a server's Qwen3.5 models in prompt mode: the switch follows the chosen model, and the prompt says what it shows", async ({ page }) => {
  server.script({ text: ["Hello."] }, { text: ["Hello again."] });
  await page.goto("/");
  await page.getByTestId("engine-select").selectOption("openai");
  await page.getByTestId("openai-base-url").fill(server.url);
  await page.getByTestId("openai-connect-button").click();
  await page.getByTestId("openai-model-select").selectOption("Qwen/Qwen3.5-2B");
  await page.getByTestId("openai-mode").selectOption("prompt");
  const thinking = page.getByTestId("server-thinking-toggle");
  await expect(thinking).not.toBeChecked();
  await page.getByTestId("openai-model-select").selectOption("Qwen/Qwen3.5-4B");
  await expect(thinking).toBeChecked();
  await shot(page, "thinking-follows-server-model-4b", thinking);
  await page.getByTestId("openai-model-select").selectOption("Qwen/Qwen3.5-2B");
  await expect(thinking).not.toBeChecked();

  await send(page, "Hi");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Hello.");
  await page.getByTestId("openai-model-select").selectOption("Qwen/Qwen3.5-4B");
  await expect(thinking).toBeChecked();
  await send(page, "Hi again");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Hello again.");

  const prompts = server.requests.filter((r) => r.path === "/v1/completions").map((r) => String(r.body!.prompt));
  expect(prompts).toHaveLength(2);
  expect(prompts[0]!.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
  expect(prompts[1]!.endsWith("<|im_start|>assistant\n<think>\n")).toBe(true);
});
