// What recording top-5 token probabilities costs in the page's CPU engine (llama.cpp in
// WebAssembly, wllama; issue #31's goal: ≤ 10% of decode time). Two pages of the built app in
// Chromium, each with SmolLM2 loaded on one thread, one asking for no probabilities
// (`?topProbabilities=0`) and one for 5; the same prompt at temperature 0 in a new conversation,
// alternately in each, so both write the same greedy reply. Two measures per reply: the CPU time
// of every Chromium process (from /proc: user + system, which waiting for a core on a busy
// machine does not inflate) and llama.cpp's own decode rate as the step shows it (wall time).
// Medians of the rounds. BENCH_ROUNDS (default 5), BENCH_REUSE_BUILD=1 skips the build.
import { loadavg } from "node:os";
import type { Browser, Page } from "@playwright/test";
import { readdirSync, readFileSync } from "node:fs";
import { chromiumCpuMs } from "./chromium-cpu.ts";
import { withAppBuilt } from "./ui-perf.ts";

const MODEL = "smollm2-135m-instruct-q4_1";
const PROMPT = "Write a short story about a lighthouse keeper.";

/** Chromium processes under this one. */
function chromiumPids(): number[] {
  const parent = new Map<number, number>();
  const chromium: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      if (/chrom/i.test(readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0")[0] ?? "")) chromium.push(Number(entry));
    } catch {
      // A process that ended while we looked.
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  return chromium.filter(mine);
}

/** CPU time (ms) of Chromium's threads by name (the page's main thread, its workers, …). */
function cpuByThread(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const pid of chromiumPids()) {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        byName.set(name, (byName.get(name) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      }
    } catch {
      // A process or thread that ended while we looked.
    }
  }
  return byName;
}

async function loaded(browser: Browser, base: string, topProbabilities: number): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${base}/?cpuThreads=1&topProbabilities=${topProbabilities}`);
  await page.getByTestId("engine-select").selectOption("cpu");
  await page.getByTestId("cpu-model-select").selectOption(MODEL);
  await page.getByTestId("cpu-load-button").click();
  await page.getByTestId("engine-status").and(page.locator('[data-state="ready"]')).first().waitFor({ timeout: 600_000 });
  await page.getByTestId("setting-temperature").fill("0");
  await page.getByTestId("setting-max-tokens").fill("64");
  for (const toggle of await page.locator('[data-testid^="tool-toggle-"]').all()) if (await toggle.isChecked()) await toggle.setChecked(false);
  return page;
}

/** Sends the prompt in a new conversation; the CPU time it took and the step's decode figure. */
async function reply(page: Page): Promise<{ cpuMs: number; decode: number; probabilities: boolean; threads: Map<string, number> }> {
  await page.getByTestId("new-conversation").click();
  const before = chromiumCpuMs();
  const threadsBefore = cpuByThread();
  await page.getByTestId("chat-input").fill(PROMPT);
  await page.getByTestId("chat-input").press("Enter");
  const message = page.getByTestId("message-assistant").first();
  await message.waitFor({ timeout: 600_000 });
  for (;;) {
    const status = await message.getAttribute("data-status");
    if (status && !/^(running|streaming)$/.test(status)) break;
    await page.waitForTimeout(100);
  }
  const cpuMs = chromiumCpuMs() - before;
  const threads = new Map([...cpuByThread()].map(([name, ms]) => [name, ms - (threadsBefore.get(name) ?? 0)]));
  await page.getByTestId("step-item").last().click();
  const speed = (await page.getByTestId("step-speed").textContent({ timeout: 60_000 })) ?? "";
  const probabilities = (await page.getByTestId("probabilities-toggle").count()) > 0;
  return { cpuMs, decode: Number(/decode ([\d.]+) tok\/s/.exec(speed)?.[1] ?? NaN), probabilities, threads };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function runProbabilitiesPageBenchmark(rounds = Number(process.env.BENCH_ROUNDS ?? 5)): Promise<void> {
  await withAppBuilt(async (browser, base) => {
    const pages = { 0: await loaded(browser, base, 0), 5: await loaded(browser, base, 5) };
    const figures: Record<0 | 5, { cpuMs: number[]; decode: number[] }> = { 0: { cpuMs: [], decode: [] }, 5: { cpuMs: [], decode: [] } };
    const threadTotals: Record<0 | 5, Map<string, number>> = { 0: new Map(), 5: new Map() };
    await reply(pages[0]);
    await reply(pages[5]);
    const load = loadavg()[0]!;
    for (let i = 0; i < rounds; i++) {
      for (const n of [0, 5] as const) {
        const r = await reply(pages[n]);
        if (r.probabilities !== (n === 5)) throw new Error(`the page asked for ${n} alternatives, but its step ${r.probabilities ? "has" : "has no"} probabilities`);
        figures[n].cpuMs.push(r.cpuMs);
        figures[n].decode.push(r.decode);
        for (const [name, ms] of r.threads) threadTotals[n].set(name, (threadTotals[n].get(name) ?? 0) + ms);
      }
      console.log(`  round ${i + 1}: ${figures[0].cpuMs.at(-1)!.toFixed(0)} / ${figures[5].cpuMs.at(-1)!.toFixed(0)} CPU ms per reply, decode ${figures[0].decode.at(-1)} / ${figures[5].decode.at(-1)} tok/s (without / with top 5)`);
    }
    const [cpu0, cpu5] = [median(figures[0].cpuMs), median(figures[5].cpuMs)];
    const [rate0, rate5] = [median(figures[0].decode), median(figures[5].decode)];
    console.log(`\nIn the page (CPU engine, wllama), SmolLM2 135M, 1 thread, the same greedy reply (≤ 64 tokens), median of ${rounds}, load average ${load.toFixed(2)} → ${loadavg()[0]!.toFixed(2)} (goal: top 5 costs ≤ 10%)`);
    console.log(`  Chromium CPU per reply: ${cpu0.toFixed(0)} ms without probabilities, ${cpu5.toFixed(0)} ms with top 5 (${(((cpu5 - cpu0) / cpu0) * 100).toFixed(1)}% more)`);
    console.log(`  llama.cpp's decode rate (wall): ${rate0.toFixed(1)} tok/s without, ${rate5.toFixed(1)} with top 5 (${(((rate0 - rate5) / rate0) * 100).toFixed(1)}% slower)`);
    // Where the difference goes: CPU per reply of Chromium's threads by name, the largest first.
    const names = [...new Set([...threadTotals[0].keys(), ...threadTotals[5].keys()])].sort((a, b) => (threadTotals[5].get(b) ?? 0) - (threadTotals[5].get(a) ?? 0));
    for (const name of names.slice(0, 6)) {
      const [a, b] = [(threadTotals[0].get(name) ?? 0) / rounds, (threadTotals[5].get(name) ?? 0) / rounds];
      console.log(`    thread ${name.padEnd(18)} ${a.toFixed(0).padStart(6)} ms without, ${b.toFixed(0).padStart(6)} ms with top 5 per reply`);
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await runProbabilitiesPageBenchmark();
