// The quick run on the CPU, timed: the built page in Chromium, Evaluate's one click ("Load
// SmolLM2 135M and run the 3 cases"), to the run's "done". Prints the preset's wall time (model
// load included, and apart), its cases/s, and the page engine's own prefill and decode rates over
// the cases (from their logs, via the view's export), beside the load average. Figures only:
// nothing here is a test. Compare the cases/s with `npm run --silent bench:eval-ceiling`
// (llama-server's ceiling on this machine for the committed matrix's average case).
//
//   npm run --silent bench:eval-quick-cpu        (BENCH_REUSE_BUILD=1 to skip the build;
//                                                 BENCH_CPU_THREADS=N, default 1;
//                                                 BENCH_QUICK_WARM=1: model loaded and the first
//                                                 case's prompt start cached before the click)
import { loadavg } from "node:os";
import { readCaseLog } from "../src/eval/case-log.ts";
import { caseTiming } from "../src/eval/case-timing.ts";
import type { ResultsFile } from "../src/eval/results-file.ts";
import { QUICK_CPU_PRESET } from "../src/eval/quick-preset.ts";
import { withAppBuilt } from "./ui-perf.ts";

const THREADS = Number(process.env.BENCH_CPU_THREADS) || 1;
/** BENCH_QUICK_WARM=1: load the model first and click once the first case's prompt start is cached (else the one click from nothing loaded). */
const WARM = process.env.BENCH_QUICK_WARM === "1";

export async function runQuickCpuBenchmark(): Promise<void> {
  const cases = QUICK_CPU_PRESET.cases.length;
  console.log(`== Evaluate's quick run on the CPU: ${cases} cases, ${QUICK_CPU_PRESET.protocol}, max tokens ${QUICK_CPU_PRESET.maxTokens}, ${THREADS} thread(s), ${WARM ? "model loaded and warmed before the click" : "one click from nothing loaded"} ==`);
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} at the start`);
  await withAppBuilt(async (browser, base) => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    try {
      if (WARM) {
        // The model loaded first (the Lab's offer), then Evaluate: the panel reads the first case's
        // prompt start into the cache while it waits for the click.
        const loading = performance.now();
        await page.goto(`${base}/?cpuThreads=${THREADS}`);
        await page.getByTestId("cpu-offer-button").click();
        await page.getByTestId("engine-label").filter({ hasText: "CPU: SmolLM2 135M" }).waitFor({ timeout: 300_000 });
        await page.getByTestId("view-evaluate").click();
        const warm = page.locator('[data-testid="eval-quick-warm"][data-state="ready"]');
        await warm.waitFor({ timeout: 600_000 });
        console.log(`before the click: model load and warm-up ${((performance.now() - loading) / 1000).toFixed(1)} s; ${await warm.textContent()}`);
      } else await page.goto(`${base}/?cpuThreads=${THREADS}#evaluate`);
      await page.getByTestId("eval-quick-run").waitFor();
      const clicked = performance.now();
      await page.getByTestId("eval-quick-run").click();
      await page.getByTestId("eval-progress-text").filter({ hasText: `/ ${cases}` }).waitFor({ timeout: 300_000 });
      const started = performance.now();
      await page.getByTestId("eval-progress-text").filter({ hasText: "done" }).waitFor({ timeout: 1_800_000 });
      const done = performance.now();
      const runSeconds = (done - started) / 1000;
      const wallSeconds = (done - clicked) / 1000;
      console.log(`wall time, click to done: ${wallSeconds.toFixed(1)} s (model load and suite ${((started - clicked) / 1000).toFixed(1)} s, the ${cases} cases ${runSeconds.toFixed(1)} s)`);
      console.log(`cases/s: ${(cases / runSeconds).toFixed(3)} (the cases alone), ${(cases / wallSeconds).toFixed(3)} (with the load); goal: the preset within 3 minutes`);
      // The engine's own timings, from each case's log as the view exports it.
      const download = page.waitForEvent("download");
      await page.getByTestId("eval-export-json").click();
      const file = JSON.parse(await (await (await download).createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"))) as ResultsFile;
      let prefilled = 0, prefillMs = 0, decoded = 0, decodeMs = 0, reused = 0;
      for (const result of file.results) {
        if (!result.log) continue;
        const t = caseTiming(readCaseLog(result.log));
        prefilled += t.prefilledTokens ?? 0;
        reused += t.reusedTokens ?? 0;
        prefillMs += t.prefillMs ?? 0;
        decoded += t.completionTokens ?? 0;
        decodeMs += t.decodeMs ?? 0;
        console.log(`  ${result.id}: ${t.prefilledTokens ?? "?"} prompt tokens prefilled (${t.reusedTokens ?? 0} reused), ${t.completionTokens ?? "?"} reply tokens, ended ${t.end}; ${result.pass ? "pass" : "fail"}${result.reason ? `: ${result.reason}` : ""}`);
      }
      console.log(`engine's own rates over the cases: prefill ${(prefilled / (prefillMs / 1000)).toFixed(1)} tokens/s (${prefilled} tokens in ${(prefillMs / 1000).toFixed(1)} s; ${reused} reused from the cache), decode ${(decoded / (decodeMs / 1000)).toFixed(1)} tokens/s (${decoded} tokens in ${(decodeMs / 1000).toFixed(1)} s)`);
    } finally {
      await page.close();
    }
  });
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} at the end`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runQuickCpuBenchmark();
