// The OpenAI-compatible server engine as a person uses it, against the local stand-in server
// (e2e/openai-server/server.ts, which is not vLLM or Ollama but speaks their API): connect, prompt
// mode (the exact prompt reaches /v1/completions), native mode (tools reach /v1/chat/completions),
// Stop, and each failure explained.
import { expect, test, type Page } from "@playwright/test";
import { startOpenAiTestServer, type OpenAiTestServer } from "./openai-server/server.ts";
import { send, shownPrompt } from "./lab-helpers.ts";

let server: OpenAiTestServer;
test.beforeAll(async () => {
  server = await startOpenAiTestServer({ models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }, { id: "mystery-model" }] });
});
test.afterAll(() => server.close());
test.beforeEach(() => {
  server.requests.length = 0;
  server.set({ allowOrigin: "*", apiKey: undefined, noCompletions: false });
});

const calculatorCall = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "2 + 3"}}\n</tool_call>';

async function connect(page: Page, options: { url?: string; apiKey?: string; mode?: "prompt" | "native" } = {}) {
  await page.goto("/");
  await page.getByTestId("engine-select").selectOption("openai");
  await page.getByTestId("openai-base-url").fill(options.url ?? server.url);
  if (options.apiKey) await page.getByTestId("openai-api-key").fill(options.apiKey);
  await page.getByTestId("openai-connect-button").click();
}

async function connected(page: Page, mode: "prompt" | "native") {
  await connect(page);
  await expect(page.getByTestId("engine-status")).toContainText("the server lists 2 models");
  await expect(page.getByTestId("openai-model-select")).toHaveValue("Qwen/Qwen3-8B");
  await page.getByTestId("openai-mode").selectOption(mode);
  await expect(page.getByTestId("engine-label")).toContainText(`Server: (${mode}): Qwen/Qwen3-8B`);
}

test("prompt mode: the lab's exact prompt goes to /v1/completions, the call runs, the answer streams", async ({ page }) => {
  server.script({ text: [calculatorCall.slice(0, 20), calculatorCall.slice(20)], usage: { prompt_tokens: 900, completion_tokens: 30 } }, { text: ["2 + 3 ", "= 5."] });
  await connected(page, "prompt");
  await expect(page.getByTestId("openai-template-select")).toContainText("Qwen3");
  await page.getByTestId("protocol-select").selectOption("hermes");
  await send(page, "What is 2 + 3?");

  await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("message-assistant").last()).toContainText("= 5.");
  const completions = server.requests.filter((r) => r.path === "/v1/completions");
  expect(completions).toHaveLength(2);
  const sent = completions[0]!.body!;
  expect(sent.model).toBe("Qwen/Qwen3-8B");
  expect(sent.stream).toBe(true);
  expect(String(sent.prompt)).toContain("<|im_start|>user\nWhat is 2 + 3?<|im_end|>");
  expect(String(sent.prompt)).toContain("<tools>");
  // The prompt the debugger shows for the first step is the prompt the server received.
  await page.getByTestId("tool-call-card").getByRole("button").first().click();
  await expect(page.getByTestId("prompt-view")).toContainText("What is 2 + 3?");
  expect(await shownPrompt(page)).toBe(sent.prompt);
});

test("the sampling defaults follow the server's model and its template, not the WebLLM model of the other pane", async ({ page }) => {
  await connected(page, "prompt");
  await expect(page.getByTestId("sampling-defaults-source")).toContainText("Defaults for Qwen3, thinking on");
  // A template chosen by hand decides the family: Mistral's defaults, whatever WebLLM model is picked.
  await page.getByTestId("openai-template-select").selectOption("mistral");
  await expect(page.getByTestId("sampling-defaults-source")).toContainText("Defaults for Mistral");
  await page.getByTestId("openai-template-select").selectOption("auto");
  await page.getByTestId("openai-model-select").selectOption("mystery-model");
  await expect(page.getByTestId("sampling-defaults-source")).toContainText('Defaults for "mystery-model"');
});

test("native mode: the tools go to /v1/chat/completions and the server's calls run", async ({ page }) => {
  server.script({ toolCalls: [{ name: "calculator", argumentChunks: ['{"expression"', ': "2 + 3"}'] }] }, { text: ["It is ", "5."] });
  await connected(page, "native");
  await send(page, "What is 2 + 3?");

  await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("tool-call-card")).toContainText("5");
  await expect(page.getByTestId("message-assistant").last()).toContainText("It is 5.");
  const chats = server.requests.filter((r) => r.path === "/v1/chat/completions");
  expect(chats).toHaveLength(2);
  const tools = chats[0]!.body!.tools as Array<{ function: { name: string } }>;
  expect(tools.map((t) => t.function.name)).toContain("calculator");
  const second = chats[1]!.body!.messages as Array<Record<string, unknown>>;
  expect(second.at(-1)).toMatchObject({ role: "tool", content: "5" });

  await page.getByTestId("tool-call-card").getByRole("button").first().click();
  await expect(page.getByTestId("native-request-note")).toContainText("No prompt text exists on our side");
  await expect(page.getByTestId("native-request")).toContainText('"tool_choice": "auto"');
});

test("Stop ends a streaming server reply at once and keeps what arrived", async ({ page }) => {
  server.script({ text: ["Thinking about "], hold: true });
  await connected(page, "prompt");
  await send(page, "Tell me a long story");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Thinking about");
  await page.getByTestId("stop-button").click();
  await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", "aborted");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Thinking about");
  await expect.poll(() => server.closedEarly()).toBeGreaterThan(0);
});

test("a dropped stream is an engine error that keeps the partial reply", async ({ page }) => {
  server.script({ text: ["Half a ", "rep"], hold: true, drop: true });
  await connected(page, "prompt");
  await send(page, "Hello");
  const reply = page.getByTestId("message-assistant").last();
  // The connection breaks once the page has shown what arrived.
  await expect(reply).toContainText("Half a rep");
  server.release();
  await expect(reply).toHaveAttribute("data-status", "engine-error");
  await expect(reply).toContainText("Half a rep");
  await expect(reply).toContainText("broke while the reply was streaming");
});

test("failures are explained: CORS, 401, an unreachable server, no /v1/completions, an unknown template", async ({ page }) => {
  server.set({ allowOrigin: null });
  await connect(page);
  await expect(page.getByTestId("engine-error")).toContainText("CORS");
  await expect(page.getByTestId("engine-error")).toContainText("OLLAMA_ORIGINS");
  await expect(page.getByTestId("engine-error")).toContainText("--allowed-origins");

  server.set({ allowOrigin: "*", apiKey: "sekret" });
  await page.getByTestId("openai-connect-button").click();
  await expect(page.getByTestId("engine-error")).toContainText("refused the request (401)");
  await page.getByTestId("openai-api-key").fill("sekret");
  await page.getByTestId("openai-connect-button").click();
  await expect(page.getByTestId("engine-status")).toContainText("the server lists 2 models");
  expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer sekret");

  server.set({ apiKey: undefined, noCompletions: true });
  await send(page, "Hi");
  await expect(page.getByTestId("message-assistant").last()).toContainText("no raw completions endpoint");
  await expect(page.getByTestId("message-assistant").last()).toContainText("native mode");

  await page.getByTestId("openai-model-select").selectOption("mystery-model");
  await expect(page.getByTestId("engine-error")).toContainText("cannot tell which chat template");
  await page.getByTestId("openai-template-select").selectOption("chatml");
  await expect(page.getByTestId("engine-status")).toContainText("chatml template");

  await page.getByTestId("openai-base-url").fill("http://127.0.0.1:9/v1");
  await page.getByTestId("openai-connect-button").click();
  await expect(page.getByTestId("engine-error")).toContainText("No server answered");
});

test("a model the server no longer serves, and a prompt over its context window, are explained in the turn", async ({ page }) => {
  await connected(page, "prompt");
  server.set({ models: [{ id: "mystery-model" }] });
  await send(page, "Hi");
  await expect(page.getByTestId("message-assistant").last()).toContainText("does not serve the model");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Press Connect");

  server.set({ models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }, { id: "mystery-model" }] });
  server.script({ error: { status: 400, message: "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens." } });
  await send(page, "Hi again");
  await expect(page.getByTestId("message-assistant").last()).toContainText("does not fit the model's context window");
});

test("compare: the same question through native tool calling and through the middleware, side by side", async ({ page }) => {
  // Native: the server's parser hands over a clean call. Prompt mode: the model's text has a
  // trailing comma the middleware repairs.
  server.script(
    { toolCalls: [{ name: "calculator", argumentChunks: ['{"expression": "6 * 7"}'] }], usage: { prompt_tokens: 300, completion_tokens: 12 } },
    { text: ["6 × 7 = 42."], usage: { prompt_tokens: 330, completion_tokens: 8 } },
    { text: ['<tool_call>\n{"name": "calculator", "arguments": {"expression": "6 * 7",}}\n</tool_call>'], usage: { prompt_tokens: 1200, completion_tokens: 30 } },
    { text: ["It is 42."], usage: { prompt_tokens: 1260, completion_tokens: 5 } },
  );
  await connected(page, "prompt");
  await page.getByTestId("compare-section").locator("summary").click();
  await page.getByTestId("compare-message").fill("What is 6 * 7?");
  await page.getByTestId("compare-protocol").selectOption("hermes");
  await page.getByTestId("compare-button").click();

  const columns = page.getByTestId("compare-column");
  await expect(columns).toHaveCount(2);
  const native = page.locator('[data-testid="compare-column"][data-mode="native"]');
  const prompt = page.locator('[data-testid="compare-column"][data-mode="prompt"]');
  await expect(native.getByTestId("compare-calls")).toContainText('calculator({"expression":"6 * 7"}) ok');
  await expect(prompt.getByTestId("compare-calls")).toContainText('calculator({"expression":"6 * 7"}) ok');
  await expect(native.getByTestId("compare-repairs")).toHaveText("0");
  await expect(prompt.getByTestId("compare-repairs")).not.toHaveText("0");
  await expect(native.getByTestId("compare-steps")).toHaveText("2");
  await expect(native.getByTestId("compare-answer")).toHaveText("6 × 7 = 42.");
  await expect(prompt.getByTestId("compare-answer")).toHaveText("It is 42.");
  // Step by step, in the compare view every debugger step has: the native request body against our prompt.
  await expect(page.getByTestId("step-compare-a")).toContainText("native · step 1");
  await expect(page.getByTestId("step-compare-b")).toContainText("prompt · step 1");
  await expect(page.getByTestId("step-compare-calls")).toContainText('same: calculator {"expression":"6 * 7"}');
  await expect(page.getByTestId("step-compare-prompt").getByTestId("diff-delete").first()).toBeVisible();
  await expect(native).toContainText("630 in · 20 out");
  await page.screenshot({ path: "test-results/compare-view.png" });
  // Which endpoint each side used.
  expect(server.requests.filter((r) => r.method === "POST").map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions", "/v1/completions", "/v1/completions"]);
  // Each run is an ordinary conversation: listed, and it opens with its turn.
  await expect(page.getByTestId("session-item").filter({ hasText: "Compare · native" })).toHaveCount(1);
  await native.getByTestId("compare-open").click();
  await expect(page.getByTestId("message-user")).toHaveText("What is 6 * 7?");
  await expect(page.getByTestId("message-assistant").last()).toContainText("6 × 7 = 42.");
  // The mode chosen before comparing is back.
  await expect(page.getByTestId("openai-mode")).toHaveValue("prompt");
});
