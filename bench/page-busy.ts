// `npm run --silent bench:page-busy`: the page's CPU engine on a quiet machine and with two busy
// processes beside it (two `node` loops that each hold a core, started and stopped here), at the
// thread count the page chooses by measuring the cores (src/engine/cpu/thread-probe.ts) and at
// two fixed threads (every core of a 2-core machine, the page's old default). The goal:
// with two busy processes the page keeps at least half of its quiet speed. The same four prompts
// as bench:page-vs-server (SmolLM2 by default; BENCH_AGREE_MODELS picks). Figures only.
import { spawn, type ChildProcess } from "node:child_process";
import { loadavg } from "node:os";
import { cachedModels } from "../scripts/real-models/cache-dir.mjs";
import { pageRun, rate, type Sample } from "./page-vs-server.ts";
import { withAppBuilt } from "./ui-perf.ts";

const load = () => loadavg().map((x) => x.toFixed(1)).join(" ");

function busyProcesses(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
}

function line(label: string, run: { samples: Sample[]; ran: string; status: string }): { prefill: number; decode: number } {
  const prefill = Number(rate(run.samples.map((x) => x.prefillTokensPerSecond), 1));
  const decode = Number(rate(run.samples.map((x) => x.decodeTokensPerSecond), 2));
  const choice = /(\d+ threads?, chosen by measuring the cores \([^)]*\))/.exec(run.status)?.[1] ?? `${run.ran} (fixed)`;
  console.log(`  ${label}: prefill ${prefill} tok/s, decode ${decode} tok/s — ${choice}; load ${load()}`);
  return { prefill, decode };
}

console.log("== The page's CPU engine, quiet and beside two busy processes ==");
console.log(`load average ${load()} at the start; tok/s are means over four prompts (llama.cpp's own timings)`);
const models = cachedModels(process.env.BENCH_AGREE_MODELS?.split(",") ?? ["smollm2-135m-instruct-q4_1"]);
await withAppBuilt(async (browser, base) => {
  for (const model of models) {
    console.log(`\n${model.id}`);
    const quiet = line("quiet, threads measured", await pageRun(browser, base, model.id, "measured"));
    const quietTwo = line("quiet, 2 threads fixed", await pageRun(browser, base, model.id, 2));
    const busy = busyProcesses(2);
    try {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const busyMeasured = line("two busy processes, threads measured", await pageRun(browser, base, model.id, "measured"));
      const busyTwo = line("two busy processes, 2 threads fixed", await pageRun(browser, base, model.id, 2));
      const keep = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(0)}%` : "?");
      console.log(`  kept of the quiet speed (decode): threads measured ${keep(busyMeasured.decode, quiet.decode)}, 2 threads fixed ${keep(busyTwo.decode, quietTwo.decode)} (goal: at least 50%)`);
      console.log(`  kept of the quiet speed (prefill): threads measured ${keep(busyMeasured.prefill, quiet.prefill)}, 2 threads fixed ${keep(busyTwo.prefill, quietTwo.prefill)}`);
    } finally {
      for (const child of busy) child.kill();
    }
  }
});
console.log(`\nload average ${load()} at the end`);
