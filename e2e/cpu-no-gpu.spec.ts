// The CPU engine in a browser with no WebGPU adapter at all (Chromium without
// --enable-unsafe-webgpu: navigator.gpu is there, requestAdapter gives nothing), as on a machine
// without a GPU. The console stays quiet: Chromium's own "No available adapters." once per page
// load (the lab's one WebGPU probe), not again when the model loads; a Stop leaves no AbortError;
// and the CPU engine a person chose is still chosen after a reload (not the replay demo that a
// browser without WebGPU otherwise starts with). The real SmolLM2 runs; nothing is asserted on its words.
import { expect, test, type ConsoleMessage, type Page } from "@playwright/test";
import { cachedSmolLm2 } from "./real-model-cache.ts";
import { baseChromiumArgs, systemChromiumPath } from "./browser.ts";
import { send } from "./lab-helpers.ts";

cachedSmolLm2("the CPU engine's no-GPU test must run in CI");
test.describe.configure({ timeout: 600_000 });
// No WebGPU flag: this Chromium offers no adapter.
const executablePath = systemChromiumPath();
test.use({ launchOptions: { ...(executablePath ? { executablePath } : {}), args: baseChromiumArgs } });

const LONG = 240_000;
const NO_ADAPTERS = "No available adapters.";

function consoleOf(page: Page): ConsoleMessage[] {
  const messages: ConsoleMessage[] = [];
  page.on("console", (message) => messages.push(message));
  return messages;
}

const said = (messages: ConsoleMessage[], pattern: RegExp) => messages.filter((m) => pattern.test(m.text())).map((m) => `${m.type()}: ${m.text()}`);

test("no adapter: 'No available adapters.' once per page load and not on a model load, Stop logs no AbortError, and a reload keeps the CPU engine", async ({ page }) => {
  const messages = consoleOf(page);
  const uncaught: string[] = [];
  page.on("pageerror", (error) => uncaught.push(error.message));
  await page.goto("/?cpuThreads=1");
  // The first screen knows there is no adapter (it offers the CPU model) once the probe has answered.
  await expect(page.getByTestId("cpu-offer-button")).toBeVisible();
  await expect(page.getByTestId("webgpu-message")).toContainText("no GPU adapter");
  await expect.poll(() => said(messages, /No available adapters/).length).toBe(1);

  await page.getByTestId("cpu-offer-button").click();
  await expect(page.getByTestId("engine-label")).toContainText("CPU: SmolLM2 135M", { timeout: LONG });
  // Loading llama.cpp asked for no adapter again.
  expect(said(messages, /No available adapters/)).toEqual([`warning: ${NO_ADAPTERS}`]);

  // Stop while tokens stream: the reply is kept as stopped, and nothing uncaught reaches the console.
  await page.getByTestId("setting-temperature").fill("0");
  await page.getByTestId("setting-max-tokens").fill("200");
  // No tools: a short prompt (this test is about the console, not the tool section).
  for (const toggle of await page.locator('[data-testid^="tool-toggle-"]').all()) if (await toggle.isChecked()) await toggle.setChecked(false);
  await send(page, "Write a long story about a lighthouse keeper.");
  const reply = page.getByTestId("message-assistant").last();
  await expect(reply.locator(".md").first()).toBeVisible({ timeout: LONG });
  await page.getByTestId("stop-button").click();
  await expect(reply).toHaveAttribute("data-status", "aborted");
  // The next request runs on the same runtime after the Stop (wllama's cancel is done before it starts).
  await page.getByTestId("setting-max-tokens").fill("16");
  await send(page, "Say hello.");
  await expect(page.getByTestId("message-assistant")).toHaveCount(2);
  await expect(page.getByTestId("message-assistant").last()).not.toHaveAttribute("data-status", /^(running|streaming)$/, { timeout: LONG });
  await expect(page.getByTestId("message-assistant").last()).not.toHaveAttribute("data-status", "engine-error");
  expect(said(messages, /AbortError|Uncaught|GLUE|Invalid typed array length/)).toEqual([]);
  expect(uncaught).toEqual([]);

  // A reload: the probe runs once more (one message for this load), and the CPU engine is still the one chosen.
  messages.length = 0;
  await page.reload();
  await expect(page.getByTestId("engine-label")).toHaveText("CPU: no model loaded");
  await expect(page.getByTestId("cpu-model-again-button")).toBeVisible();
  await expect.poll(() => said(messages, /No available adapters/).length).toBe(1);
  expect(uncaught).toEqual([]);
});
