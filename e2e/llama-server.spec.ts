// The server engine against a real llama.cpp server with the real models, as a person uses it:
// the page (the preview origin) connects to llama-server on 127.0.0.1 (CORS), and the same question
// runs in native mode (/v1/chat/completions with tools: llama.cpp's own template and tool-call
// parser) and in prompt mode (/v1/completions with the lab's exact prompt) side by side; then
// Gemma 3 270M in prompt mode. Temperature 0. Asserted: what the page shows (steps, states, the
// prompt shown equals what was sent, the engine's figures) and what the runtime reports, never the
// model's words.
//
// Needs llama-server and the models (`npm run llama-server`, `npm run models`; `npm test` runs
// both first): skipped without them on a person's machine, failing under CI.
import { expect, test, type Page } from "@playwright/test";
import { realModelsForTests, startLlamaServer, type LlamaServer } from "../scripts/real-models/llama-server-process.ts";
import { tokenize } from "../scripts/real-models/llama-server-api.ts";
import { send, shownPrompt } from "./lab-helpers.ts";

const SMOLLM2 = "smollm2-135m-instruct-q4_1";
const GEMMA3 = "gemma-3-270m-q4_k_m";
// Under CI a missing binary or model fails here (realModelsForTests throws); elsewhere the tests skip with the reason.
const real = realModelsForTests([SMOLLM2, GEMMA3]);
const missing = real.run ? undefined : real.why;

interface SentRequest {
  path: string;
  body: Record<string, unknown>;
}

/** Every request the page posts to the server, as sent. */
function recordRequests(page: Page, server: LlamaServer): SentRequest[] {
  const sent: SentRequest[] = [];
  page.on("request", (request) => {
    if (request.method() !== "POST" || !request.url().startsWith(server.url)) return;
    sent.push({ path: new URL(request.url()).pathname, body: (request.postDataJSON() ?? {}) as Record<string, unknown> });
  });
  return sent;
}

async function connect(page: Page, server: LlamaServer) {
  await page.goto("/");
  await page.getByTestId("engine-select").selectOption("openai");
  await page.getByTestId("openai-base-url").fill(server.baseUrl);
  // The key this start of llama-server asks for, typed as a person would (llama-server-process.ts).
  await page.getByTestId("openai-api-key").fill(server.apiKey);
  await page.getByTestId("openai-connect-button").click();
  await expect(page.getByTestId("engine-status")).toContainText("the server lists 1 model");
  await expect(page.getByTestId("openai-model-select")).toHaveValue(server.modelFile);
  // Same answer every run: temperature 0, and a short budget for a 2-core machine.
  await page.getByTestId("setting-temperature").fill("0");
  await page.getByTestId("setting-max-tokens").fill("48");
}

test.describe("llama-server with SmolLM2 135M", () => {
  test.skip(missing !== undefined, missing);
  let server: LlamaServer;
  test.beforeAll(async () => {
    server = await startLlamaServer({ modelId: SMOLLM2 });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("native mode and prompt mode side by side on the same question; the prompt shown is the prompt sent", async ({ page }) => {
    test.setTimeout(240_000);
    const sent = recordRequests(page, server);
    await connect(page, server);
    await page.getByTestId("openai-mode").selectOption("prompt");
    // The family comes from the GGUF's file name llama-server lists as the model id.
    await expect(page.getByTestId("engine-status")).toContainText("chatml template");
    await expect(page.getByTestId("engine-label")).toContainText(`(prompt): ${server.modelFile}`);

    await page.getByTestId("compare-section").locator("summary").click();
    await page.getByTestId("compare-message").fill("What is 1234 * 5678? Use the calculator.");
    await page.getByTestId("compare-protocol").selectOption("xml");
    await page.getByTestId("compare-button").click();

    const native = page.locator('[data-testid="compare-column"][data-mode="native"]');
    const prompt = page.locator('[data-testid="compare-column"][data-mode="prompt"]');
    await expect(page.getByTestId("compare-column")).toHaveCount(2, { timeout: 200_000 });
    await expect(page.getByTestId("compare-button")).toBeEnabled({ timeout: 200_000 });
    await expect(page.getByTestId("compare-error")).toHaveCount(0);
    for (const column of [native, prompt]) {
      // A run ends as the loop ends one: never an engine error against the real server.
      await expect(column.getByTestId("compare-status")).toHaveText(/^(final|max-steps|cut-off)/);
      expect(Number(await column.getByTestId("compare-steps").textContent())).toBeGreaterThanOrEqual(1);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: "test-results/llama-server-compare-1440.png", fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "test-results/llama-server-compare-390.png", fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Native first, through llama.cpp's template and parser; then the lab's prompt, raw.
    const posted = sent.filter((r) => r.path.startsWith("/v1/")).map((r) => r.path);
    expect(posted[0]).toBe("/v1/chat/completions");
    expect(posted).toContain("/v1/completions");
    expect(posted.indexOf("/v1/completions")).toBeGreaterThan(posted.lastIndexOf("/v1/chat/completions"));
    const chat = sent.find((r) => r.path === "/v1/chat/completions")!.body;
    expect((chat.tools as Array<{ function: { name: string } }>).length).toBeGreaterThan(0);
    expect(chat.temperature).toBe(0);
    const completion = sent.find((r) => r.path === "/v1/completions")!.body;
    expect(completion.temperature).toBe(0);
    expect(String(completion.prompt).startsWith("<|im_start|>system\n")).toBe(true);

    // The prompt-mode run's first step, in the debugger: exactly the prompt llama-server received.
    await prompt.getByTestId("compare-open").click();
    await page.getByTestId("compare-close").click();
    await expect(page.getByTestId("message-user").first()).toContainText("What is 1234 * 5678?");
    await page.getByTestId("step-item").first().click();
    await expect(page.getByTestId("prompt-view")).toContainText("What is 1234 * 5678?");
    expect(await shownPrompt(page)).toBe(completion.prompt);
    // llama.cpp's own figures for the step: what it prefilled, and its speeds.
    await expect(page.getByTestId("step-prefill")).toContainText("tokens prefilled");
    await expect(page.getByTestId("step-speed")).toContainText("decode");
    await expect(page.getByTestId("step-settings")).toContainText("temperature 0");
  });

  test("native mode: the debugger shows the prompt llama.cpp rendered from the request, and that its template left the tools out", async ({ page }) => {
    test.setTimeout(180_000);
    const sent = recordRequests(page, server);
    await connect(page, server);
    await page.getByTestId("openai-mode").selectOption("native");
    await send(page, "What is 1234 * 5678? Use the calculator.");
    await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", /^(final|max-steps|cut-off)$/, { timeout: 120_000 });
    await page.getByTestId("step-item").first().click();
    // The server was asked to render the very body it was then sent.
    const chat = sent.find((r) => r.path === "/v1/chat/completions")!.body;
    expect(sent.find((r) => r.path === "/apply-template")?.body).toEqual(chat);
    expect((chat.tools as unknown[]).length).toBeGreaterThan(0);
    await expect(page.getByTestId("server-prompt")).toContainText("What is 1234 * 5678?");
    // SmolLM2's ChatML template has no tools section: the page says the model never saw them.
    await expect(page.getByTestId("native-tools-dropped")).toContainText("left the tools out");
    await expect(page.getByTestId("native-request")).toContainText('"tools"');
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByTestId("server-prompt").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/screenshots/llama-server-native-prompt-${width}.png` });
    }
  });

  test("a second message in prompt mode reuses the first turn from llama.cpp's cache, as the debugger says", async ({ page }) => {
    test.setTimeout(180_000);
    await connect(page, server);
    await page.getByTestId("openai-mode").selectOption("prompt");
    await page.getByTestId("protocol-select").selectOption("xml");
    await send(page, "Say hello.");
    await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", /^(final|max-steps|cut-off)$/, { timeout: 120_000 });
    await send(page, "Say it again.");
    await expect(page.getByTestId("message-assistant")).toHaveCount(2);
    await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", /^(final|max-steps|cut-off)$/, { timeout: 120_000 });
    await page.getByTestId("step-item").last().click();
    await expect(page.getByTestId("step-prefill")).toContainText(/tokens prefilled · [\d,]+ reused from the step before/);
  });
});

test.describe("llama-server with Gemma 3 270M", () => {
  test.skip(missing !== undefined, missing);
  let server: LlamaServer;
  test.beforeAll(async () => {
    server = await startLlamaServer({ modelId: GEMMA3 });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("prompt mode: the lab's Gemma prompt, sent without the <bos> llama.cpp adds itself; the model reads one BOS", async ({ page }) => {
    test.setTimeout(180_000);
    const sent = recordRequests(page, server);
    await connect(page, server);
    await page.getByTestId("openai-mode").selectOption("prompt");
    await expect(page.getByTestId("engine-status")).toContainText("gemma3_instruction template");
    await expect(page.getByTestId("engine-status")).toContainText("llama.cpp adds <bos> to every prompt itself");
    await page.getByTestId("protocol-select").selectOption("pythonic");
    await send(page, "What is 1234 * 5678?");
    await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", /^(final|max-steps|cut-off)$/, { timeout: 120_000 });

    const completion = sent.find((r) => r.path === "/v1/completions")!.body;
    await page.getByTestId("step-item").first().click();
    const shown = await shownPrompt(page);
    expect(shown.startsWith("<bos><start_of_turn>user\n")).toBe(true);
    expect(`<bos>${String(completion.prompt)}`).toBe(shown);
    // What the model read: llama.cpp's tokens of what was sent (its BOS added) are the shown prompt's, one BOS.
    const read = await tokenize(server, String(completion.prompt), { addSpecial: true });
    expect(read).toEqual(await tokenize(server, shown, { addSpecial: false }));
    await expect(page.getByTestId("step-prefill")).toContainText(`${read.length.toLocaleString("en-US")} tokens prefilled`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: "test-results/llama-server-gemma-1440.png" });
  });
});
