// `npx tsx bench/cpu-engine.ts`: the CPU engine (llama.cpp in WebAssembly) in Chromium, driven as
// a person would. For each model of the manifest and 1 and 2 threads (`?cpuThreads=`), from a cold
// browser (fresh profile: nothing cached): the time from "Load on the CPU" to the model ready and to
// the first token of a first reply; llama.cpp's own prefill and decode tokens/s; and on a second
// turn, how much of the prompt was prefilled vs reused from the step before (prefix reuse).
// First, the one-click path (the first screen's offer, the suggested message): time to the model
// ready and to the first token (BENCH_CPU_ONE_CLICK=only runs just that, =0 skips it).
// Prints figures; never passes or fails on speed. BENCH_CPU_MODELS=id,id picks models.
import type { Browser, Page } from "@playwright/test";
import { cachedModels } from "../scripts/real-models/cache-dir.mjs";
import { withAppBuilt } from "./ui-perf.ts";

interface StepFigures {
  prefill: string;
  speed: string;
}

async function figuresOfLastStep(page: Page): Promise<StepFigures> {
  const step = page.getByTestId("step-item").last();
  await step.click();
  return {
    prefill: (await page.getByTestId("step-prefill").textContent({ timeout: 600_000 })) ?? "",
    speed: (await page.getByTestId("step-speed").textContent()) ?? "",
  };
}

async function replyEnded(page: Page, index: number): Promise<void> {
  const message = page.getByTestId("message-assistant").nth(index);
  await message.waitFor();
  for (;;) {
    const status = await message.getAttribute("data-status");
    if (status && !/^(running|streaming)$/.test(status)) return;
    await page.waitForTimeout(250);
  }
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId("chat-input").fill(text);
  await page.getByTestId("chat-input").press("Enter");
}

async function benchOne(browser: Browser, base: string, modelId: string, threads: number): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${base}/?cpuThreads=${threads}`);
    await page.getByTestId("engine-select").selectOption("cpu");
    await page.getByTestId("cpu-model-select").selectOption(modelId);
    const started = Date.now();
    await page.getByTestId("cpu-load-button").click();
    await page.getByTestId("engine-status").and(page.locator('[data-state="ready"]')).first().waitFor({ timeout: 600_000 });
    const loadedMs = Date.now() - started;
    const status = (await page.getByTestId("cpu-section").getByTestId("engine-status").textContent()) ?? "";
    await page.getByTestId("setting-temperature").fill("0");
    await page.getByTestId("setting-max-tokens").fill("32");
    for (const toggle of await page.locator('[data-testid^="tool-toggle-"]').all()) {
      const wanted = (await toggle.getAttribute("data-testid")) === "tool-toggle-calculator";
      if ((await toggle.isChecked()) !== wanted) await toggle.setChecked(wanted);
    }
    await send(page, "What is 17 times 23?");
    const body = page.getByTestId("message-assistant").first().locator(".md").first();
    await body.waitFor({ timeout: 600_000 });
    const firstTokenMs = Date.now() - started;
    await replyEnded(page, 0);
    const first = await figuresOfLastStep(page);
    await send(page, "And what is 4 plus 5?");
    await replyEnded(page, 1);
    const second = await figuresOfLastStep(page);
    const multi = /(\d+) threads?/.exec(status)?.[0] ?? "?";
    const reused = /([\d,]+) tokens prefilled · ([\d,]+) reused/.exec(second.prefill);
    const share = reused ? (100 * Number(reused[1]!.replaceAll(",", ""))) / (Number(reused[1]!.replaceAll(",", "")) + Number(reused[2]!.replaceAll(",", ""))) : undefined;
    console.log(`  ${modelId}, ${threads} thread(s) asked (${multi} ran${/not cross-origin isolated/.test(status) ? ", single-threaded: not isolated" : ""})`);
    console.log(`    cold start: model ready after ${(loadedMs / 1000).toFixed(1)} s; first token of the first reply ${(firstTokenMs / 1000).toFixed(1)} s after "Load on the CPU"`);
    console.log(`    first turn:  ${first.prefill} · ${first.speed}`);
    console.log(`    second turn: ${second.prefill} · ${second.speed}${share !== undefined ? ` → ${share.toFixed(1)}% of its prompt prefilled` : ""}`);
  } catch (error) {
    console.log(`  ${modelId}, ${threads} thread(s): could not measure — ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  } finally {
    await context.close();
  }
}

/**
 * The one-click path as a person takes it: from the first screen's CPU offer, the suggested
 * message sent the moment it shows; the time to the model ready, to the prompt's start read ahead
 * (if it was before the message), and to the message's first token. The browser's cache is fresh
 * (a new context), so the model's file comes from the lab's server each time.
 */
async function benchOneClick(browser: Browser, base: string): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${base}/?cpuThreads=1`);
    const started = Date.now();
    await page.getByTestId("cpu-offer-button").click();
    await page.getByTestId("suggested-message").waitFor({ timeout: 600_000 });
    const readyMs = Date.now() - started;
    const cacheState = await page.getByTestId("prompt-cache-status").getAttribute("data-state").catch(() => null);
    await page.getByTestId("suggested-message").click();
    await page.getByTestId("message-assistant").first().locator(".md").first().waitFor({ timeout: 600_000 });
    const firstTokenMs = Date.now() - started;
    await replyEnded(page, 0);
    const figures = await figuresOfLastStep(page);
    console.log(`  one click → model ready ${(readyMs / 1000).toFixed(1)} s (prompt cache then: ${cacheState ?? "?"}) → first token of "What is 17 * 23?" ${(firstTokenMs / 1000).toFixed(1)} s after the click (goal: 10 s warm, 15 s cold) · ${figures.prefill}`);
    // A second message sent once the conversation so far is read ahead (the warm-up follows each
    // reply): what a person who reads the reply first gets.
    await page.waitForTimeout(1500);
    await page.getByTestId("prompt-cache-status").and(page.locator('[data-state="ready"]')).waitFor({ timeout: 600_000 });
    const sent = Date.now();
    await page.getByTestId("chat-input").fill("What is 12 * 12?");
    await page.getByTestId("chat-input").press("Enter");
    await page.getByTestId("message-assistant").first().locator(".md").first().waitFor({ timeout: 600_000 });
    console.log(`  with the prompt's start ready: first token ${((Date.now() - sent) / 1000).toFixed(1)} s after sending`);
  } catch (error) {
    console.log(`  one click: could not measure — ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  } finally {
    await context.close();
  }
}

export async function runCpuEngineBenchmark(): Promise<void> {
  console.log("\n== CPU engine: llama.cpp in WebAssembly (Chromium, built app, real models) ==");
  const models = cachedModels(process.env.BENCH_CPU_MODELS?.split(","));
  if (models.length === 0) {
    console.log("  no model in the cache: run `npm run models`");
    return;
  }
  await withAppBuilt(async (browser, base) => {
    if (process.env.BENCH_CPU_ONE_CLICK !== "0") await benchOneClick(browser, base);
    if (process.env.BENCH_CPU_ONE_CLICK === "only") return;
    for (const model of models) for (const threads of [1, 2]) await benchOne(browser, base, model.id, threads);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await runCpuEngineBenchmark();
