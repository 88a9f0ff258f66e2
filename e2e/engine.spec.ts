// The engine layer end to end: loading a WebLLM model with the network blocked fails clearly
// and leaves the app usable; cancelling a stuck download; the replay engine chosen by URL and
// by default when there is no WebGPU; a transcript given by URL playing through the full loop.
import { chromium, expect, test, type BrowserContext, type Page } from "@playwright/test";
import { baseChromiumArgs, systemChromiumPath } from "./browser.ts";

// Outside test-results, which other runs may clear.
const SHOTS = process.env.ENGINE_SHOTS ?? "test-results/screens";

/** Blocks every request that leaves this machine, recording where the app tried to go. */
async function blockNetwork(context: BrowserContext, mode: "abort" | "hang" = "abort"): Promise<string[]> {
  const blocked: string[] = [];
  await context.route(
    (url) => !["127.0.0.1", "localhost"].includes(url.hostname),
    async (route) => {
      blocked.push(route.request().url());
      if (mode === "abort") await route.abort("internetdisconnected");
      // "hang": never answer, like a download that stalls.
    },
  );
  return blocked;
}

async function modelPanel(page: Page) {
  const panel = page.getByTestId("model-panel");
  await expect(panel).toBeVisible();
  return panel;
}

async function sendMessage(page: Page, text: string) {
  await page.getByTestId("chat-input").fill(text);
  await page.getByTestId("send-button").click();
}

test("loading a model with the network blocked shows a clear download error, and the app stays usable", async ({ page, context }) => {
  const blocked = await blockNetwork(context);
  // Every script the page and its workers fetch, with its size. Each is fetched here and then
  // handed to the page, so its body is read whatever becomes of the worker that asked for it:
  // read after the fact, a failed load's worker could be gone first and its script read as empty.
  const scripts = new Map<string, number>();
  const testCode: string[] = [];
  await context.route(
    (url) => ["127.0.0.1", "localhost"].includes(url.hostname) && /\.js$/.test(url.pathname),
    async (route) => {
      const response = await route.fetch();
      const body = await response.body();
      scripts.set(route.request().url(), body.length);
      // The scripted GPU stand-in and the harness's access to WebLLM's internals are for tests only.
      if (/Scripted model|__LLMChatPipeline/.test(body.toString("utf8"))) testCode.push(route.request().url());
      await route.fulfill({ response, body });
    },
  );
  const large = () => [...scripts].filter(([, size]) => size > 1_000_000).map(([url]) => url);
  await page.goto("/?engine=webllm");
  const panel = await modelPanel(page);
  await expect(page.getByTestId("engine-select")).toHaveValue("webllm");
  await expect(page.getByTestId("webgpu-badge")).toHaveAttribute("data-state", "available");
  // SwiftShader has no shader-f16: only f32 variants are offered, and the default became q4f32.
  await expect(page.getByTestId("model-select")).toHaveValue("Qwen3-1.7B-q4f32_1-MLC");
  await expect(page.locator('[data-testid="model-select"] option[value="Qwen3-1.7B-q4f16_1-MLC"]')).toHaveCount(0);
  await panel.screenshot({ path: `${SHOTS}/model-panel-webllm-idle.png` });
  // WebLLM's library (megabytes) is not fetched until the model list is used.
  expect(large()).toEqual([]);
  // Models whose context window cannot hold the tool prompt are listed but not offered.
  const tooSmall = page.locator('[data-testid="model-select"] option[value="gemma-2-2b-it-q4f32_1-MLC-1k"]');
  await expect(tooSmall).toBeDisabled();
  await expect(tooSmall).toContainText("too small for tools");

  await page.getByTestId("model-select").selectOption("Qwen3-0.6B-q4f32_1-MLC");
  await page.getByTestId("load-model-button").click();
  const error = page.getByTestId("engine-error");
  await expect(error).toBeVisible({ timeout: 60_000 });
  await expect(error).toHaveAttribute("data-kind", "download-failed");
  await expect(error).toContainText(/Could not download "Qwen3-0\.6B-q4f32_1-MLC"/);
  await expect(error).toContainText(/huggingface\.co/);
  // The real loader ran: it asked the model host for the model's files.
  expect(blocked.some((url) => url.includes("huggingface.co"))).toBe(true);
  await panel.screenshot({ path: `${SHOTS}/model-panel-download-error.png` });
  // WebLLM was downloaded once: one large script (the model worker's), none on the page.
  await expect.poll(() => large().length).toBe(1);
  expect(large()[0]).toMatch(/\/worker-[^/]*\.js/);
  expect(testCode).toEqual([]);

  // Still usable: fall back to the replay engine and run a whole turn with a tool call.
  await page.getByTestId("use-replay-button").click();
  await expect(page.getByTestId("engine-select")).toHaveValue("replay");
  await page.getByTestId("transcript-select").selectOption("hermes-calculator");
  await expect(page.getByTestId("engine-status")).toHaveAttribute("data-state", "ready");
  await expect(page.getByTestId("engine-label")).toContainText("Replay");
  await sendMessage(page, "What is 1234 × 5678?");
  await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", "final");
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="calculator"]')).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("message-assistant").last()).toContainText("7,006,652");
});

test("a download that stalls shows progress and can be cancelled; the model can be chosen again", async ({ page, context }) => {
  await blockNetwork(context, "hang");
  await page.goto("/?engine=webllm");
  await modelPanel(page);
  await page.getByTestId("model-select").selectOption("SmolLM2-360M-Instruct-q4f32_1-MLC");
  await page.getByTestId("load-model-button").click();
  const progress = page.getByTestId("load-progress");
  await expect(progress).toBeVisible();
  await expect(progress).toContainText("SmolLM2 360M");
  await expect(page.getByTestId("model-select")).toBeDisabled();
  await (await modelPanel(page)).screenshot({ path: `${SHOTS}/model-panel-loading.png` });
  await page.getByTestId("cancel-load-button").click();
  await expect(progress).toBeHidden();
  await expect(page.getByTestId("engine-status")).toContainText(/cancelled/i);
  await expect(page.getByTestId("model-select")).toBeEnabled();
  await expect(page.getByTestId("load-model-button")).toBeEnabled();
});

test("?engine=replay&transcript=<built-in name> selects the replay engine, the transcript and its protocol", async ({ page }) => {
  await page.goto("/?engine=replay&transcript=xml-convert-units");
  const panel = await modelPanel(page);
  await expect(page.getByTestId("engine-select")).toHaveValue("replay");
  await expect(page.getByTestId("transcript-select")).toHaveValue("xml-convert-units");
  await expect(page.getByTestId("transcript-info")).toContainText("Unit conversion (XML)");
  await expect(page.getByTestId("protocol-select")).toHaveValue("xml");
  await panel.screenshot({ path: `${SHOTS}/model-panel-replay.png` });
  await sendMessage(page, "How many pounds is 5 kg?");
  await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", "final");
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="convert_units"]')).toHaveAttribute("data-status", "ok");
});

test("a transcript given by URL plays through the full loop", async ({ page }) => {
  await page.goto(`/?engine=replay&transcript=${encodeURIComponent("/transcripts/memory-hermes.json")}`);
  await modelPanel(page);
  await expect(page.getByTestId("transcript-info")).toContainText("Remember and recall");
  await expect(page.getByTestId("transcript-url")).toHaveValue("/transcripts/memory-hermes.json");
  await sendMessage(page, "Remember that I parked on level 3, bay 42.");
  const answer = page.getByTestId("message-assistant").last();
  await expect(answer).toHaveAttribute("data-status", "final");
  await expect(answer).toContainText("level 3, bay 42");
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="remember"]')).toHaveAttribute("data-status", "ok");
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="recall"]')).toHaveAttribute("data-status", "ok");
});

test("a bad transcript URL is explained, and a built-in one still works", async ({ page }) => {
  await page.goto(`/?engine=replay&transcript=${encodeURIComponent("/transcripts/does-not-exist.json")}`);
  const error = page.getByTestId("engine-error");
  await expect(error).toBeVisible();
  // The preview server answers unknown paths with the app's index.html.
  await expect(error).toContainText(/does-not-exist\.json returned a web page \(HTML\), not a transcript JSON/);
  await (await modelPanel(page)).screenshot({ path: `${SHOTS}/model-panel-bad-transcript.png` });
  await page.getByTestId("transcript-select").selectOption("qwen3-coder-time");
  await expect(page.getByTestId("engine-status")).toHaveAttribute("data-state", "ready");
  await expect(page.getByTestId("protocol-select")).toHaveValue("qwen3-coder");
});

test("a page without WebGPU offers the replay engine and uses it by default", async ({ baseURL }) => {
  const executablePath = systemChromiumPath();
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: [...baseChromiumArgs, "--disable-features=WebGPU,Vulkan", "--disable-unsafe-webgpu"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(baseURL ?? "/");
    expect(await page.evaluate(async () => Boolean(await navigator.gpu?.requestAdapter()))).toBe(false);
    const panel = await modelPanel(page);
    await expect(page.getByTestId("engine-select")).toHaveValue("replay");
    await expect(page.getByTestId("engine-status")).toHaveAttribute("data-state", "ready");
    await panel.screenshot({ path: `${SHOTS}/model-panel-no-webgpu-replay.png` });
    // Asking for WebLLM keeps the list browsable (sizes, families), says in words why nothing
    // loads, and offers the replay engine prominently; the browser's reason is shown once.
    await page.getByTestId("engine-select").selectOption("webllm");
    const offer = page.getByTestId("no-webgpu-offer");
    await expect(offer).toContainText(/WebGPU/);
    await expect(page.getByTestId("model-select")).toBeVisible();
    await expect(page.getByTestId("model-facts")).toContainText("Download");
    await expect(page.getByTestId("load-model-button")).toBeDisabled();
    await expect(page.getByTestId("load-needs-webgpu")).toBeVisible();
    const reason = await page.getByTestId("webgpu-message").innerText();
    expect((await page.locator("body").innerText()).split(reason.trim()).length - 1).toBe(1);
    await panel.screenshot({ path: `${SHOTS}/model-panel-no-webgpu-offer.png` });
    await offer.getByTestId("use-replay-button").click();
    await expect(page.getByTestId("engine-select")).toHaveValue("replay");
    await expect(page.getByTestId("engine-status")).toHaveAttribute("data-state", "ready");
  } finally {
    await browser.close();
  }
});

test("the built-in endless-loop transcript: run_javascript times out and the turn still ends with an answer", async ({ page }) => {
  await page.goto("/?engine=replay&transcript=javascript-endless-loop");
  await expect(page.getByTestId("engine-status")).toHaveAttribute("data-state", "ready");
  // A short tool timeout keeps the test quick; the loop is stopped by it, not by the test.
  await page.getByTestId("setting-tool-timeout").fill("2");
  await sendMessage(page, "Count forever.");
  const answer = page.getByTestId("message-assistant").last();
  await expect(answer).toHaveAttribute("data-status", "final", { timeout: 30_000 });
  await expect(answer).toContainText("never finishes");
  await expect(page.locator('[data-testid="tool-call-card"][data-tool="run_javascript"]')).toHaveAttribute("data-status", "timeout");
  await expect(page.getByTestId("chat-input")).toBeEditable();
});

test("the cache is read and cleared by WebLLM's own functions in the worker; deleting a model updates the models sharing its files", async ({ page, context }) => {
  await blockNetwork(context);
  await page.goto("/?engine=webllm");
  await modelPanel(page);
  // Put a tiny "downloaded" model where WebLLM's cache keeps weights: gemma-2-2b q4f32 and its -1k
  // twin share these files (WebLLM's records give both the same model URL).
  await page.evaluate(async () => {
    const base = "https://huggingface.co/mlc-ai/gemma-2-2b-it-q4f32_1-MLC/resolve/main/";
    const cache = await caches.open("webllm/model");
    await cache.put(new Request(`${base}tensor-cache.json`), new Response(JSON.stringify({ records: [{ dataPath: "params_shard_0.bin" }] })));
    await cache.put(new Request(`${base}params_shard_0.bin`), new Response(new Uint8Array(16)));
  });
  const select = page.getByTestId("model-select");
  await select.focus();
  const base = page.locator('[data-testid="model-select"] option[value="gemma-2-2b-it-q4f32_1-MLC"]');
  const twin = page.locator('[data-testid="model-select"] option[value="gemma-2-2b-it-q4f32_1-MLC-1k"]');
  await expect(base).toContainText("cached");
  await expect(twin).toContainText("cached");
  await expect(page.locator('[data-testid="model-select"] option[value="Qwen3-0.6B-q4f32_1-MLC"]')).not.toContainText("cached");
  await select.selectOption("gemma-2-2b-it-q4f32_1-MLC");
  await page.getByTestId("delete-cache-button").click();
  await expect(page.getByTestId("engine-status")).toContainText("Files it shared with gemma-2-2b-it-q4f32_1-MLC-1k were removed too");
  await expect(base).not.toContainText("cached");
  await expect(twin).not.toContainText("cached");
  // WebLLM's deletion removed the weights' shard.
  expect(await page.evaluate(async () => (await caches.open("webllm/model")).match("https://huggingface.co/mlc-ai/gemma-2-2b-it-q4f32_1-MLC/resolve/main/params_shard_0.bin").then(Boolean))).toBe(false);
});

test("a remembered -1k model says its window cannot hold the tool prompt", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("toolcall-lab:model", "gemma-2-2b-it-q4f32_1-MLC-1k"));
  await page.goto("/?engine=webllm");
  await modelPanel(page);
  await expect(page.getByTestId("model-select")).toHaveValue("gemma-2-2b-it-q4f32_1-MLC-1k");
  await expect(page.getByTestId("model-too-small")).toContainText(/1024-token context window cannot hold the tool prompt/);
  await page.getByTestId("model-select").selectOption("gemma-2-2b-it-q4f32_1-MLC");
  await expect(page.getByTestId("model-too-small")).toHaveCount(0);
});
