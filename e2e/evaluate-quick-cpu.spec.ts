// The quick run on the CPU, as a person with no server and no GPU starts it: one click in
// Evaluate loads SmolLM2 135M (GGUF, from `npm run models`) on llama.cpp in WebAssembly and runs
// the preset's cases on it to the end; the running case's reply shows beside the matrix while it
// streams, the progress figures come from the engine's timings, and every case then opens in the
// debugger with its log. Temperature 0; asserted on states, events and what the page shows,
// never on the words the model writes (so not on which verdicts it gets). Only the model file is
// needed (no llama-server): the check is the CPU engine spec's.
import { expect, test } from "@playwright/test";
import { cachedSmolLm2 } from "./real-model-cache.ts";
import { QUICK_CPU_PRESET } from "../src/eval/quick-preset.ts";

cachedSmolLm2("the quick CPU run's real-model test must run in CI");

const SHOTS = "test-results/screens";

test("the quick CPU preset: one click loads SmolLM2 and runs its cases to the end; each case opens with its log", async ({ page }) => {
  test.setTimeout(900_000);
  page.on("pageerror", (error) => console.log(`evaluate-quick-cpu.spec: page error ${error.message}`));
  // One thread: on this shared 2-core machine llama.cpp's threads wait on each other (docs/cpu-engine.md).
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/?cpuThreads=1#evaluate");
  const quick = page.getByTestId("eval-quick");
  await expect(quick).toBeVisible();
  // Before anything ran on the CPU the estimate says it is not known yet, and why.
  await expect(page.getByTestId("eval-quick-estimate")).toHaveAttribute("data-measured", "no");
  await page.screenshot({ path: `${SHOTS}/evaluate-quick-before-1440.png` });
  await page.getByTestId("eval-quick-run").click();

  // The preset's settings were applied: the CPU engine and its cases.
  await expect(page.getByTestId("eval-engine")).toHaveValue("cpu", { timeout: 180_000 });
  await expect(page.getByTestId("eval-preset-cases")).toContainText(QUICK_CPU_PRESET.cases.map((c) => c.id).join(", "));
  const total = QUICK_CPU_PRESET.cases.length;
  await expect(page.getByTestId("eval-progress-text")).toContainText(`/ ${total}`, { timeout: 180_000 });

  // The running case, beside the matrix: its id, then its reply as it streams.
  const running = page.getByTestId("eval-live-running");
  await expect(running).toBeVisible({ timeout: 180_000 });
  await expect(running).toHaveAttribute("data-case", QUICK_CPU_PRESET.cases[0]!.id);
  // Once the first case ended: its verdict with its reason or pass, its decision point, and
  // figures from the engine's own timings while the others run.
  const finished = page.getByTestId("eval-live-finished");
  await expect(finished).toBeVisible({ timeout: 600_000 });
  await expect(finished.getByTestId("eval-live-verdict")).toHaveText(/^(pass|pass, not strict|fail)$/);
  await expect(finished.getByTestId("eval-live-decision")).toContainText("Decision point:");
  await expect(page.getByTestId("eval-time-left")).toContainText(/about .+ left \(prefill .+, decode .+\)/);
  await expect(page.getByTestId("eval-decode-rate")).toContainText(/decode \d+(\.\d)? tokens\/s/);
  await page.screenshot({ path: `${SHOTS}/evaluate-quick-running-1440.png` });
  // The streamed output of a later case shows while it runs (some characters, whatever they are).
  await expect(running).toHaveAttribute("data-chars", /^[1-9]\d*$/, { timeout: 600_000 });
  await expect(page.getByTestId("eval-live-output")).toBeVisible();

  await expect(page.getByTestId("eval-progress-text")).toContainText(`${total} / ${total}`, { timeout: 800_000 });
  await expect(page.getByTestId("eval-progress-text")).toContainText("done");
  await expect(page.getByTestId("eval-error")).toHaveCount(0);
  // Measured now: the estimate before the next run says what it will take, from these rates.
  await expect(page.getByTestId("eval-quick-estimate")).toHaveAttribute("data-measured", "yes");
  await expect(page.getByTestId("eval-quick-estimate")).toContainText(/What it will take: at most .+ tokens\/s/);

  // Every case opens in the debugger with its log: its step, its prompt, its verdict.
  const verdicts = page.getByTestId("eval-verdict");
  await expect(verdicts).toHaveCount(total);
  for (const testCase of QUICK_CPU_PRESET.cases) {
    const verdict = page.locator(`[data-testid="eval-case-row"][data-case="${testCase.id}"] [data-testid="eval-verdict"]`);
    await expect(verdict).toBeEnabled();
    await verdict.click();
    const opened = page.getByTestId("eval-case-debugger");
    await expect(opened).toBeVisible();
    await expect(opened.getByTestId("eval-opened-verdict")).toHaveText(/^(pass|pass, not strict|fail)/);
    await expect(opened.getByTestId("step-item").first()).toBeVisible();
    await expect(opened.getByTestId("prompt-view")).toContainText("<|im_start|>system");
    await expect(opened.getByTestId("decision-point")).toBeVisible();
  }
  // A case cut at its budget reads as cut off, never as failed to run.
  await expect(page.getByTestId("eval-case-table")).not.toContainText("failed to run");
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/evaluate-quick-done-${width}.png`, fullPage: width !== 1440 });
  }
});

test("with the model loaded first, the quick run's first case finds its prompt start in the cache: the engine reports it reused, not prefilled", async ({ page }) => {
  test.setTimeout(1_200_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/?cpuThreads=1");
  await page.getByTestId("cpu-offer-button").click();
  await expect(page.getByTestId("engine-label")).toContainText("CPU: SmolLM2 135M", { timeout: 300_000 });
  await page.getByTestId("view-evaluate").click();
  // The panel reads the first case's prompt start ahead and says how many tokens the engine read.
  const warm = page.getByTestId("eval-quick-warm");
  await expect(warm).toHaveAttribute("data-state", "ready", { timeout: 600_000 });
  const warmed = Number(await warm.getAttribute("data-tokens"));
  expect(warmed).toBeGreaterThan(100);
  await page.getByTestId("eval-quick-run").click();
  const first = QUICK_CPU_PRESET.cases[0]!;
  await expect(page.getByTestId("eval-live-finished")).toHaveAttribute("data-case", first.id, { timeout: 600_000 });
  await page.getByTestId("eval-stop").click();
  await page.locator(`[data-testid="eval-case-row"][data-case="${first.id}"] [data-testid="eval-verdict"]`).click();
  const prefill = page.getByTestId("eval-case-debugger").getByTestId("step-prefill");
  // llama.cpp's own counts for the case's step: the read-ahead start came from the cache
  // (its last token may be read again where the message's first token joins it).
  const reused = Number(await prefill.getAttribute("data-reused"));
  const prefilled = Number(await prefill.getAttribute("data-prefilled"));
  expect(reused).toBeGreaterThanOrEqual(warmed - 1);
  expect(prefilled).toBeLessThan(first.promptTokens - warmed + 2);
});
