// Gemma 4 as a person meets it: E2B in the WebLLM picker (the f32 build, which runs without
// shader-f16) with its gemma4 format preselected, and a Gemma 4 model on an OpenAI-compatible
// server (the local stand-in) in prompt mode: the family is inferred from the name, the thinking
// switch is offered, and the tool loop's prompts are Gemma 4's (results in the model's turn).
import { expect, test } from "@playwright/test";
import { startOpenAiTestServer, type OpenAiTestServer } from "./openai-server/server.ts";
import { send, shownPrompt } from "./lab-helpers.ts";

let server: OpenAiTestServer;
test.beforeAll(async () => {
  server = await startOpenAiTestServer({ models: [{ id: "google/gemma-4-E2B-it", max_model_len: 32768 }] });
});
test.afterAll(() => server.close());

test("Gemma 4 E2B is offered and preselects the gemma4 protocol", async ({ page }) => {
  await page.goto("/?engine=webllm");
  await expect(page.getByTestId("webgpu-badge")).toHaveAttribute("data-state", "available");
  const option = page.locator('[data-testid="model-select"] option[value="gemma-4-E2B-it-q4f32_1-MLC"]');
  await expect(option).toHaveText(/Gemma 4 E2B \(q4f32_1\)/);

  await page.getByTestId("model-select").selectOption("gemma-4-E2B-it-q4f32_1-MLC");
  await expect(page.getByTestId("recommended-protocol")).toHaveText("gemma4 (recommended)");
  await expect(page.getByTestId("protocol-select")).toHaveValue("gemma4");
  await expect(page.getByTestId("thinking-toggle")).toBeVisible();
  await page.screenshot({ path: "e2e/.output/gemma4-picker.png" });
});

test("a Gemma 4 server model in prompt mode: Gemma 4's template, thinking switch, results in the model's turn", async ({ page }) => {
  server.script({ text: ['<|tool_call>call:calculator{expression:<|"|>2 + 3', '<|"|>}<tool_call|>'] }, { text: ["2 + 3 ", "= 5."] });
  await page.goto("/");
  await page.getByTestId("engine-select").selectOption("openai");
  await page.getByTestId("openai-base-url").fill(server.url);
  await page.getByTestId("openai-connect-button").click();
  await expect(page.getByTestId("openai-model-select")).toHaveValue("google/gemma-4-E2B-it");
  await page.getByTestId("openai-mode").selectOption("prompt");
  await expect(page.getByTestId("openai-template-select")).toContainText("Gemma 4");
  await expect(page.getByTestId("sampling-defaults-source")).toContainText("Gemma 4");
  const thinking = page.getByTestId("server-thinking-toggle");
  await expect(thinking).toBeVisible();
  if (await thinking.isChecked()) await thinking.uncheck();
  await page.getByTestId("protocol-select").selectOption("gemma4");
  await send(page, "What is 2 + 3?");

  await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("message-assistant").last()).toContainText("= 5.");
  const completions = server.requests.filter((r) => r.path === "/v1/completions");
  expect(completions).toHaveLength(2);
  const [first, second] = completions.map((r) => String(r.body!.prompt));
  // The system text (the app's default one), then the declarations right after it.
  expect(first).toMatch(/^<bos><\|turn>system\n[^<\n]+<\|tool>declaration:calculator\{/);
  expect(first!.endsWith("<|turn>user\nWhat is 2 + 3?<turn|>\n<|turn>model\n<|channel>thought\n<channel|>")).toBe(true);
  // The result (JSON, a number) in Gemma's value syntax, and nothing after it: the model generates on in its turn.
  expect(second).toMatch(/<\|turn>model\n<\|tool_call>call:calculator\{expression:<\|"\|>2 \+ 3<\|"\|>\}<tool_call\|><\|tool_response>response:calculator\{value:[^}]*5[^}]*\}<tool_response\|>$/s);
  expect(completions[0]!.body!.stop).toEqual(expect.arrayContaining(["<turn|>", "<|tool_response>"]));
  // The prompt the debugger shows for the first step is the prompt the server received.
  await page.getByTestId("tool-call-card").getByRole("button").first().click();
  expect(await shownPrompt(page)).toBe(first);
  await page.screenshot({ path: "e2e/.output/gemma4-server.png" });
});
