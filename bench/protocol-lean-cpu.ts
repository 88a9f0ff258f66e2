// The protocol table ("Which protocol does this model lean to?") on the page's CPU engine, timed:
// the built page in Chromium, the playground, SmolLM2 135M loaded on the CPU (llama.cpp in
// WebAssembly), one pasted calculator tool, a message, then the table for four protocols
// (hermes, xml, pythonic, llama3-json) BENCH_TABLES times in a row (default 3). For each table:
// its wall time (click to "Measured on"), and each row's p and its prompt tokens as the runtime
// reported them (read now, reused from its prompt cache); the first table reads every prompt,
// the later ones find them in the cache. Beside the wall time, the CPU time Chromium spent on the
// table (all its processes, from /proc): with one thread it is near what the table takes on a
// quiet machine, where the wall time is that of a busy one. The load average is printed beside
// the figures. Figures only; nothing here is a test.
//
//   npm run --silent bench:protocol-lean-cpu      (BENCH_REUSE_BUILD=1 to skip the build;
//                                                  BENCH_CPU_THREADS=N, default 1;
//                                                  BENCH_TABLES=N, default 3)
import { loadavg } from "node:os";
import type { Page } from "@playwright/test";
import { chromiumCpuMs } from "./chromium-cpu.ts";
import { withAppBuilt } from "./ui-perf.ts";

const THREADS = Number(process.env.BENCH_CPU_THREADS) || 1;
const TABLES = Number(process.env.BENCH_TABLES) || 3;
const MESSAGE = "What is 6 times 7?";
const calculator = { name: "calculator", description: "Evaluate an arithmetic expression", parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] } };
const load = () => loadavg().map((x) => x.toFixed(1)).join(" ");

interface Row {
  protocol: string;
  p: string | null;
  prefilled: string | null;
  reused: string | null;
}

async function rows(page: Page): Promise<Row[]> {
  return page.getByTestId("protocol-lean-row").evaluateAll((trs) =>
    trs.map((tr) => ({ protocol: tr.getAttribute("data-protocol") ?? "?", p: tr.getAttribute("data-p"), prefilled: tr.getAttribute("data-prefilled"), reused: tr.getAttribute("data-reused") })),
  );
}

export async function runProtocolLeanCpuBenchmark(): Promise<void> {
  console.log(`== The protocol table on the CPU engine (playground): SmolLM2 135M Q4_1, ${THREADS} thread(s), one tool, ${TABLES} tables in a row ==`);
  console.log(`load average ${load()} at the start`);
  await withAppBuilt(async (browser, base) => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    try {
      await page.goto(`${base}/?view=playground&cpuThreads=${THREADS}`);
      await page.getByTestId("playground-protocol").selectOption("hermes");
      await page.getByTestId("playground-tool-source").selectOption("pasted");
      await page.getByTestId("playground-tools").fill(JSON.stringify([calculator]));
      await page.getByTestId("playground-lean").locator("summary").click();
      const loading = performance.now();
      await page.getByTestId("playground-lean-load").click();
      await page.locator('[data-testid="playground-lean-engine"][data-ready="true"]').waitFor({ timeout: 300_000 });
      console.log(`model loaded in ${((performance.now() - loading) / 1000).toFixed(1)} s`);
      await page.getByTestId("playground-lean-message").fill(MESSAGE);
      const walls: number[] = [];
      const cpus: number[] = [];
      for (let table = 1; table <= TABLES; table++) {
        const started = performance.now();
        const cpuBefore = chromiumCpuMs();
        await page.getByTestId("protocol-lean-run").click();
        await page.getByTestId("protocol-lean-note").filter({ hasText: /Measured on|Stopped|failed|No engine/ }).waitFor({ timeout: 1_800_000 });
        const seconds = (performance.now() - started) / 1000;
        const cpuSeconds = (chromiumCpuMs() - cpuBefore) / 1000;
        walls.push(seconds);
        cpus.push(cpuSeconds);
        const measured = await rows(page);
        const prefilled = measured.reduce((n, r) => n + Number(r.prefilled ?? 0), 0);
        const reused = measured.reduce((n, r) => n + Number(r.reused ?? 0), 0);
        console.log(`table ${table}: ${seconds.toFixed(1)} s wall (click to "Measured on"), ${cpuSeconds.toFixed(1)} s of Chromium's CPU time, ${prefilled} prompt tokens read, ${reused} reused; load average ${load()}`);
        for (const r of measured) console.log(`  ${r.protocol.padEnd(12)} p ${r.p ?? "—"}  read ${r.prefilled ?? "?"}, reused ${r.reused ?? "?"}`);
      }
      if (walls.length > 1) console.log(`the table once its prompts are cached: ${walls.slice(1).map((s, i) => `${s.toFixed(1)} s wall / ${cpus[i + 1]!.toFixed(1)} s CPU`).join(", ")} (goal: ≤ 5 s on a quiet 2-core machine); the first: ${walls[0]!.toFixed(1)} s wall / ${cpus[0]!.toFixed(1)} s CPU`);
    } finally {
      await page.close();
    }
  });
  console.log(`load average ${load()} at the end`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runProtocolLeanCpuBenchmark();
