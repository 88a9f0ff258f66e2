// A real model in the page: SmolLM2 135M (GGUF, from `npm run models`) on llama.cpp in
// WebAssembly, driven as a person would from the first screen. Headless Chromium here has only
// SwiftShader's software WebGPU adapter, so the CPU offer is what the first screen shows. The
// assertions are on what the page shows and the runtime reports, never on the model's words.
import { expect, test, type Page } from "@playwright/test";
import { cachedSmolLm2 } from "./real-model-cache.ts";
import { offerTheCalculatorAlone, send, shownPrompt } from "./lab-helpers.ts";

cachedSmolLm2("the CPU engine's real-model tests must run in CI");

test.describe.configure({ timeout: 300_000 });
// In CI the real model must run: a missing file fails the spec instead of skipping it.

const SHOTS = process.env.CPU_SHOTS ?? "test-results/screens";

async function runSmolLm2OnTheCpu(page: Page): Promise<void> {
  // One thread: this shared 2-core machine is oversubscribed, and llama.cpp's threads wait on each
  // other there (2 threads decoded at 0.3 tok/s against 4.8 with 1; see docs/cpu-engine.md).
  page.on("crash", () => console.log("cpu-engine.spec: the page crashed"));
  page.on("framenavigated", (frame) => frame === page.mainFrame() && console.log(`cpu-engine.spec: navigated to ${frame.url()}`));
  page.on("pageerror", (error) => console.log(`cpu-engine.spec: page error ${error.message}`));
  await page.goto("/?cpuThreads=1");
  const offer = page.getByTestId("cpu-offer-button");
  await expect(offer).toHaveText("Run SmolLM2 135M on this computer's CPU (≈ 98 MB)");
  await offer.click();
  await expect(page.getByTestId("engine-label")).toContainText("CPU: SmolLM2 135M", { timeout: 180_000 });
  // The same settings every run: greedy decoding and a short reply.
  await page.getByTestId("setting-temperature").fill("0");
  await page.getByTestId("setting-max-tokens").fill("48");
  // One tool (the calculator) keeps the protocol's tool section in the prompt and the prefill
  // short: the shared 2-core machine prefills a few hundred tokens a second at best.
  await offerTheCalculatorAlone(page);
}

/** The reply's text as the chat shows it so far ("" before any). */
async function shownReply(message: ReturnType<Page["getByTestId"]>): Promise<string> {
  const body = message.locator(".md").first();
  return (await body.count()) ? ((await body.textContent()) ?? "") : "";
}

const RUNNING = /^(running|streaming)$/;

/** Waits until a reply has ended (any way but an error). */
async function replyEnded(message: ReturnType<Page["getByTestId"]>): Promise<void> {
  await expect(message).not.toHaveAttribute("data-status", RUNNING, { timeout: 240_000 });
  await expect(message).not.toHaveAttribute("data-status", "error");
}

/** The step list's last step, once it has finished (any way but streaming). */
async function lastStepDone(page: Page) {
  const step = page.getByTestId("step-item").last();
  await expect(step).not.toHaveAttribute("data-status", RUNNING, { timeout: 240_000 });
  return step;
}

test("one click from the empty chat to a real reply on the CPU; the debugger shows the exact prompt, tokens, raw output and parse steps; Hermes then XML", async ({ page }) => {
  await runSmolLm2OnTheCpu(page);
  await page.getByTestId("protocol-select").selectOption("hermes");
  await send(page, "Hello! Who are you?");
  await replyEnded(page.getByTestId("message-assistant").first());
  // Real text streamed: the step's raw output holds what the model wrote.
  const step = await lastStepDone(page);
  await step.click();
  const raw = page.getByTestId("raw-output-view");
  await expect.poll(async () => ((await raw.textContent()) ?? "").trim().length).toBeGreaterThan(0);
  // The exact prompt: SmolLM2's ChatML, Hermes's tool section, the message, the generation prompt.
  const prompt = await shownPrompt(page);
  expect(prompt.startsWith("<|im_start|>system\n")).toBe(true);
  expect(prompt).toContain("<tool_call>");
  expect(prompt).not.toContain("<tool_name>");
  expect(prompt).toContain("<|im_start|>user\nHello! Who are you?<|im_end|>\n<|im_start|>assistant\n");
  // Tokens as llama.cpp counted them, and its speeds.
  await expect(page.getByTestId("step-prefill")).toContainText(/\d+ tokens prefilled/);
  await expect(page.getByTestId("step-speed")).toContainText(/prefill [\d,]+ tok\/s · decode [\d.]+ tok\/s/);
  await expect(page.getByTestId("parse-steps-view").getByTestId("parse-step").first()).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${SHOTS}/cpu-engine-1440.png` });

  // The same conversation with the XML protocol: the next step's prompt carries XML's tool section.
  await page.getByTestId("protocol-select").selectOption("xml");
  await send(page, "Thanks. And what can you do?");
  await expect(page.getByTestId("message-assistant")).toHaveCount(2);
  await replyEnded(page.getByTestId("message-assistant").last());
  await (await lastStepDone(page)).click();
  const xmlPrompt = await shownPrompt(page);
  expect(xmlPrompt).toContain("<tool_name>");
  expect(xmlPrompt).toContain("<|im_start|>user\nThanks. And what can you do?<|im_end|>\n<|im_start|>assistant\n");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/cpu-engine-390.png`, fullPage: true });
});

test("a CPU step's prompt in the GGUF's own token ids, and its tokens' probabilities from llama.cpp", async ({ page }) => {
  await runSmolLm2OnTheCpu(page);
  await page.getByTestId("setting-max-tokens").fill("16");
  await page.getByTestId("protocol-select").selectOption("hermes");
  await send(page, "What is 2 + 3?");
  await replyEnded(page.getByTestId("message-assistant").first());
  await (await lastStepDone(page)).click();

  // The token view reads the prompt with SmolLM2's own vocabulary (read from the GGUF), not "No tokenizer for chatml".
  await page.getByTestId("prompt-view").locator("..").getByTestId("token-view-toggle").check();
  const view = page.getByTestId("prompt-view").getByTestId("token-view");
  await expect(view).toContainText("read from its GGUF");
  const first = view.getByTestId("token").first();
  // <|im_start|> is id 1 in SmolLM2's vocabulary (tokenizer.ggml.tokens), a control token.
  await expect(first).toHaveAttribute("data-token-id", "1");
  await expect(first).toHaveAttribute("data-control", "true");

  // Each generated token with its probability and alternatives, as llama.cpp (n_probs) reported them.
  await page.getByTestId("probabilities-toggle").click();
  const tokens = page.getByTestId("tp-token");
  await expect.poll(() => tokens.count()).toBeGreaterThan(0);
  await expect(page.getByTestId("decision-point")).toBeVisible();
  await expect(page.getByTestId("decision-point")).not.toHaveAttribute("data-kind", "unknown");
  await tokens.first().hover();
  await expect.poll(() => page.getByTestId("tp-alternative").count()).toBeGreaterThan(1);
  await expect(page.getByTestId("tp-alternative").first()).toContainText(/\d\.\d/);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("token-probabilities").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/cpu-probabilities-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("token-probabilities").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/cpu-probabilities-390.png` });
});

test("with Constrain tool calls on, a CPU step sends its structural tag as one GBNF grammar to llama.cpp, and the debugger says so", async ({ page }) => {
  await runSmolLm2OnTheCpu(page);
  await page.getByTestId("setting-constrain").check();
  await page.getByTestId("protocol-select").selectOption("hermes");
  await send(page, "What is 6 times 7?");
  await replyEnded(page.getByTestId("message-assistant").first());
  await page.getByTestId("step-item").first().click();
  // The engine reported how it sent the tag: llama.cpp takes a grammar, not a structural tag.
  await expect(page.getByTestId("step-constraint")).toContainText("structural tag sent as one GBNF grammar (llama.cpp's grammar field)");
  await page.getByText("The structural tag, as JSON").click();
  expect(JSON.parse((await page.getByTestId("structural-tag-json").textContent()) ?? "null")).toMatchObject({ type: "structural_tag" });
});

test("Evaluate offers the model loaded on the CPU and runs a case on it", async ({ page }) => {
  await runSmolLm2OnTheCpu(page);
  await page.getByTestId("view-evaluate").click();
  await expect(page.getByTestId("evaluate-view")).toBeVisible();
  // The empty state names the CPU model as ready; using it chooses the CPU engine.
  await expect(page.getByTestId("eval-needs-cpu")).toContainText("Ready here: SmolLM2 135M");
  await page.getByTestId("eval-use-cpu").click();
  await expect(page.getByTestId("eval-engine")).toHaveValue("cpu");
  await expect(page.getByTestId("eval-engine").locator('option[value="cpu"]')).toHaveText("CPU: SmolLM2 135M Instruct (Q4_1)");
  // A model in the page runs one case at a time and needs no server address.
  await expect(page.getByTestId("eval-base-url")).toHaveCount(0);
  for (const category of ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"]) {
    await page.getByTestId(`eval-category-${category}`).setChecked(category === "simple_python");
  }
  await page.getByTestId("eval-per-category").fill("1");
  for (const name of ["hermes", "xml", "qwen3-coder", "pythonic"]) await page.getByTestId(`eval-protocol-${name}`).setChecked(name === "hermes");
  await page.getByTestId("eval-run").click();
  await expect(page.getByTestId("eval-progress-text")).toContainText("1 / 1", { timeout: 240_000 });
  await expect(page.getByTestId("eval-progress-text")).toContainText("done");
  await expect(page.getByTestId("eval-error")).toHaveCount(0);
  // The case ran on llama.cpp: its step's prompt is SmolLM2's ChatML with Hermes's tool section.
  await page.getByTestId("eval-case-row").first().locator('[data-protocol="hermes"]').click();
  const debuggerView = page.getByTestId("eval-case-debugger");
  const prompt = (await debuggerView.getByTestId("prompt-view").textContent()) ?? "";
  expect(prompt).toContain("<|im_start|>system");
  expect(prompt).toContain("<tool_call>");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${SHOTS}/cpu-evaluate-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/cpu-evaluate-390.png` });
});

test("Stop mid-generation keeps what streamed and leaves no uncaught error; a reload mid-generation says the reply was interrupted", async ({ page }) => {
  const uncaught: string[] = [];
  page.on("pageerror", (error) => uncaught.push(error.message));
  page.on("console", (message) => message.type() === "error" && /abort|uncaught/i.test(message.text()) && uncaught.push(message.text()));
  await runSmolLm2OnTheCpu(page);
  await page.getByTestId("setting-max-tokens").fill("400");
  await send(page, "Write a long story about a lighthouse keeper, with many details.");
  const message = page.getByTestId("message-assistant").first();
  await expect.poll(async () => (await shownReply(message)).trim().length, { timeout: 240_000 }).toBeGreaterThan(20);
  await page.getByTestId("stop-button").click();
  await expect(message).toHaveAttribute("data-status", "aborted");
  await expect(message.getByTestId("turn-end-note")).toContainText("Stopped");
  const kept = (await message.locator(".md").first().textContent()) ?? "";
  expect(kept.trim().length).toBeGreaterThan(10);
  // What streamed is what the step recorded: the raw output begins with the text the chat kept.
  const step = await lastStepDone(page);
  await step.click();
  const raw = ((await page.getByTestId("raw-output-view").textContent()) ?? "").replace(/\s+/g, " ");
  expect(raw).toContain(kept.trim().replace(/\s+/g, " ").slice(0, 20));
  // wllama's own stream left its AbortError to a reader that had gone: an uncaught error on every Stop.
  await page.waitForTimeout(500);
  expect(uncaught).toEqual([]);

  await send(page, "Tell me another long story, about a baker.");
  const next = page.getByTestId("message-assistant").last();
  await expect(page.getByTestId("message-assistant")).toHaveCount(2);
  await expect.poll(async () => (await shownReply(next)).trim().length, { timeout: 240_000 }).toBeGreaterThan(20);
  await page.reload();
  const cut = page.getByTestId("message-assistant").last();
  await expect(cut).toHaveAttribute("data-status", "interrupted");
  await expect(cut).toContainText("Interrupted: the page was closed or reloaded");
});

test("the one-click CPU path: the calculator only (and why), the prompt's start read ahead, a suggested message that reads only its own words, and progress while a long message is read", async ({ page }) => {
  await page.goto("/?cpuThreads=1");
  await page.getByTestId("cpu-offer-button").click();
  const empty = page.getByTestId("chat-empty");
  await expect(empty).toHaveAttribute("data-offer", "cpu-ready", { timeout: 180_000 });
  await expect(page.getByTestId("few-tools-note")).toContainText("Only the calculator is offered");
  await expect(page.getByTestId("suggested-message")).toHaveText("What is 17 * 23?");
  // The model pane says what runs: one thread as asked, and this Chromium's relaxed-SIMD kernels.
  await expect(page.getByTestId("cpu-section").getByTestId("engine-status")).toContainText("llama.cpp in WebAssembly with relaxed SIMD kernels, 1 thread");
  // The tool list says the same: the calculator on, the others off but listed.
  await expect(page.getByTestId("tool-toggle-calculator")).toBeChecked();
  expect(await page.locator('[data-testid^="tool-toggle-"]:checked').count()).toBe(1);
  expect(await page.locator('[data-testid^="tool-toggle-"]').count()).toBeGreaterThan(1);
  // The prompt's start (system prompt and the calculator's tool section) is read before any message.
  const cache = page.getByTestId("prompt-cache-status");
  await expect(cache).toHaveAttribute("data-state", "ready", { timeout: 240_000 });
  const cachedTokens = Number(await cache.getAttribute("data-tokens"));
  expect(cachedTokens).toBeGreaterThan(100);
  await page.screenshot({ path: `${SHOTS}/cpu-ready-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/cpu-ready-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("setting-temperature").fill("0");
  await page.getByTestId("setting-max-tokens").fill("16");
  await page.getByTestId("suggested-message").click();
  await replyEnded(page.getByTestId("message-assistant").first());
  // The message read only its own words: the rest came from the cache.
  const step = await lastStepDone(page);
  await step.click();
  const prefill = (await page.getByTestId("step-prefill").textContent()) ?? "";
  const [, prefilled, reused] = /([\d,]+) tokens? prefilled · ([\d,]+) reused/.exec(prefill) ?? [];
  expect(Number(reused?.replaceAll(",", ""))).toBeGreaterThanOrEqual(cachedTokens - 4);
  expect(Number(prefilled?.replaceAll(",", ""))).toBeLessThan(40);

  // A long message: the chat says how much of the prompt is read while it reads it (llama.cpp's
  // reports, one per batch of 128 tokens), before the first token.
  const long = Array.from({ length: 40 }, (_, i) => `Line ${i + 1}: the quick brown fox jumps over the lazy dog.`).join("\n");
  await send(page, `${long}\nHow many lines did I write?`);
  const reading = page.getByTestId("message-assistant").last().getByTestId("reading-prompt");
  await expect(reading).toContainText(/Reading the prompt/, { timeout: 60_000 });
  await expect.poll(async () => Number(await reading.getAttribute("data-processed")), { timeout: 120_000 }).toBeGreaterThan(0);
  await expect(reading).toContainText(/Reading the prompt: [\d,]+ of [\d,]+ tokens/);
  await page.getByTestId("message-assistant").last().screenshot({ path: `${SHOTS}/cpu-reading-prompt.png` });
  await replyEnded(page.getByTestId("message-assistant").last());
  await expect(page.getByTestId("message-assistant").last().getByTestId("reading-prompt")).toHaveCount(0);
});

test("a model missing from the cache says to run npm run models", async ({ page }) => {
  await page.route("**/models/smollm2-135m-instruct-q4_1.gguf", (route) =>
    route.fulfill({ status: 404, contentType: "text/plain", body: "The model SmolLM2 135M Instruct (Q4_1) is not downloaded on this machine. Run `npm run models` to fetch it, then load it again." }),
  );
  await page.goto("/");
  await page.getByTestId("cpu-offer-button").click();
  const error = page.getByTestId("chat-empty").getByTestId("engine-error");
  await expect(error).toBeVisible({ timeout: 60_000 });
  await expect(error).toContainText("npm run models");
});
