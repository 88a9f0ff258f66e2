// Deriving a protocol from a chat template, timed: `npm run --silent bench:derive-protocol`.
// For each template of llama.cpp's models/templates/ (the fixtures of
// src/engine/templates/llama-cpp-templates/) whose protocol can be derived, the time of one
// derivation (the probe renders through the bounded Jinja renderer, the analysis, the protocol),
// the best and the median of RUNS, against the page's goal of 50 ms: in the page (Chromium, the
// page's own module through Vite's dev server, as the lab's derivation worker runs it) and in
// Node (the command line's `derive-protocol` and `conformance`). The two engines differ: Node 20's
// V8 builds @huggingface/jinja's runtime values (class fields) several times slower than the
// Chromium the page runs in. Then the derived parsers' cost: a stream of the template's own
// two-call turns (about 1 MB and 100 KB, chunks of 1–4 characters), CPU ms per MB, so that the
// per-byte cost across sizes shows the work stays linear.
// Each engine derives every template once untimed first (the first template's runs were otherwise
// the interpreter's warm-up: Apertus, first by name, measured 90–185 ms at the median that way); the
// very first derivation, cold, as a fresh worker's is, is printed on its own.
// Wall time on a shared machine: other work shows in the figures; the best is the least disturbed.
// Then the page's figure as a person meets it: through the page's own DerivationWorker (the kept
// worker of src/engine/templates/derivation-worker.ts, with the page's render bounds), for each
// template a fresh worker warmed up (as a GGUF's load warms it) and then the template derived:
// the time in the worker and the wait on the page; beside it, a fresh worker not warmed (the
// cold first derivation). `-- --worker` prints only this part. The load (`uptime`) is printed.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chunksOf1To4, ROUND_TRIP_TOOLS } from "toolcall-middleware/derive/round-trip.ts";
import { templateAssistantOutput } from "toolcall-middleware/derive/template-output.ts";
import { parseChunks } from "toolcall-middleware/parser/collect.ts";
import { deriveFromTemplate } from "../src/engine/templates/derived-from-template.ts";
import { processCpuMs } from "./peer-parser.ts";
import { launchHarnessBrowser, startHarnessServer } from "./runtime-harness/harness-server.ts";

const DIR = "src/engine/templates/llama-cpp-templates";
const RUNS = 7;
const GOAL_MS = 50;
/** Bounds wide enough that a loaded machine does not refuse a render: the time is what is measured. */
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Timing {
  best: number;
  median: number;
}

/** Each template's derivation timed in Chromium: the module the page's worker runs, served by Vite. */
async function timesInThePage(templates: ReadonlyArray<readonly [string, string]>): Promise<{ cold: number; times: Map<string, Timing> }> {
  const server = await startHarnessServer();
  const browser = await launchHarnessBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.base}/bench/runtime-harness/index.html`);
    const rows = await page.evaluate(
      async ({ templates, runs, budget }) => {
        const module = "/src/engine/templates/derived-from-template.ts";
        const { deriveFromTemplate: derive } = (await import(/* @vite-ignore */ module)) as typeof import("../src/engine/templates/derived-from-template.ts");
        const out: Array<[string, number[]]> = [];
        // The first derivation in a fresh page is cold (nothing compiled yet), as the worker's first is: timed on its own.
        const coldStart = performance.now();
        derive(templates[0]![1], templates[0]![0], budget);
        const cold = performance.now() - coldStart;
        // Then one round untimed, so that the first template's runs are not the engine's warm-up.
        for (const [file, source] of templates) derive(source, file, budget);
        for (const [file, source] of templates) {
          const times: number[] = [];
          for (let i = 0; i < runs; i++) {
            const started = performance.now();
            const derived = derive(source, file, budget);
            times.push(performance.now() - started);
            if (!derived.ok) break;
          }
          if (times.length === runs) out.push([file, times]);
        }
        return { out, cold };
      },
      { templates: templates.map(([file, source]) => [file, source] as [string, string]), runs: RUNS, budget: BUDGET },
    );
    return { cold: rows.cold, times: new Map(rows.out.map(([file, times]) => [file, { best: Math.min(...times), median: median(times) }])) };
  } finally {
    await browser.close();
    await server.close();
  }
}

interface WorkerRow {
  file: string;
  warmUpMs: number;
  warm: { ok: boolean; ms: number; waitMs: number };
  cold: { ok: boolean; ms: number; waitMs: number };
}

/** Each template through the page's DerivationWorker in Chromium: after a warm-up, and cold. */
async function timesThroughThePageWorker(templates: ReadonlyArray<readonly [string, string]>): Promise<WorkerRow[]> {
  const server = await startHarnessServer();
  const browser = await launchHarnessBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.base}/bench/runtime-harness/index.html`);
    return await page.evaluate(async (templates) => {
      const module = "/src/engine/templates/derivation-worker.ts";
      const { DerivationWorker } = (await import(/* @vite-ignore */ module)) as typeof import("../src/engine/templates/derivation-worker.ts");
      const rows: WorkerRow[] = [];
      // No named functions in here: tsx's transform would wrap them in a helper the page does not have.
      for (const [file, source] of templates) {
        const kept = new DerivationWorker();
        const warmStarted = performance.now();
        await kept.warmUp();
        const warmUpMs = performance.now() - warmStarted;
        let started = performance.now();
        const afterWarmUp = await kept.derive(source, file);
        const warm = { ok: afterWarmUp.ok, ms: afterWarmUp.ms, waitMs: performance.now() - started };
        kept.dispose();
        const fresh = new DerivationWorker();
        started = performance.now();
        const first = await fresh.derive(source, file);
        const cold = { ok: first.ok, ms: first.ms, waitMs: performance.now() - started };
        fresh.dispose();
        rows.push({ file, warmUpMs, warm, cold });
      }
      return rows;
    }, templates.map(([file, source]) => [file, source] as [string, string]));
  } finally {
    await browser.close();
    await server.close();
  }
}

const load = () => execFileSync("uptime", { encoding: "utf8" }).trim();

async function printWorkerFigures(templates: ReadonlyArray<readonly [string, string]>): Promise<void> {
  process.stdout.write(`Load at the start: ${load()}\n\n`);
  const rows = await timesThroughThePageWorker(templates);
  const lines = [
    "| template | warm-up ms (wait) | after warm-up: in worker ms | wait ms | cold: in worker ms | wait ms |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  const fmt = (r: { ok: boolean; ms: number; waitMs: number }) => (r.ok ? `${r.ms.toFixed(1)} | ${r.waitMs.toFixed(1)}` : `not derived | ${r.waitMs.toFixed(1)}`);
  for (const row of rows) if (row.warm.ok || row.cold.ok) lines.push(`| ${row.file} | ${row.warmUpMs.toFixed(1)} | ${fmt(row.warm)} | ${fmt(row.cold)} |`);
  const derived = rows.filter((r) => r.warm.ok);
  const warmMs = derived.map((r) => r.warm.ms);
  const warmWaits = derived.map((r) => r.warm.waitMs);
  const coldMs = rows.filter((r) => r.cold.ok).map((r) => r.cold.ms);
  process.stdout.write(`${lines.join("\n")}\n\n`);
  process.stdout.write(
    `Through the page's derivation worker (Chromium, the page's render bounds), one derivation per template in a fresh worker: ` +
      `after its warm-up, ${derived.length} derived, median ${median(warmMs).toFixed(1)} ms in the worker (wait on the page ${median(warmWaits).toFixed(1)} ms), ` +
      `${warmMs.filter((m) => m <= GOAL_MS).length} of ${warmMs.length} within the ${GOAL_MS} ms goal, slowest ${Math.max(...warmMs).toFixed(1)} ms; ` +
      `the warm-up (hidden in a GGUF's load) median ${median(rows.map((r) => r.warmUpMs)).toFixed(1)} ms. ` +
      `Cold (no warm-up): ${coldMs.length} derived, median ${median(coldMs).toFixed(1)} ms in the worker (wait on the page, the worker's start included, ${median(rows.map((r) => r.cold.waitMs)).toFixed(1)} ms), ${coldMs.filter((m) => m <= GOAL_MS).length} within the goal, slowest ${Math.max(...coldMs).toFixed(1)} ms.\n`,
  );
  process.stdout.write(`Load at the end: ${load()}\n`);
}

async function main(): Promise<void> {
  const templates = readdirSync(DIR)
    .filter((f) => f.endsWith(".jinja"))
    .sort()
    .map((file) => [file, readFileSync(join(DIR, file), "utf8")] as const);
  if (process.argv.includes("--worker")) {
    await printWorkerFigures(templates);
    return;
  }
  const { cold: pageCold, times: inPage } = await timesInThePage(templates);
  const coldStart = performance.now();
  deriveFromTemplate(templates[0]![1], templates[0]![0], BUDGET);
  const nodeCold = performance.now() - coldStart;
  for (const [file, source] of templates) deriveFromTemplate(source, file, BUDGET);
  const rows: string[] = [
    "| template | page best ms | page median ms | Node best ms | Node median ms | parse CPU ms per MB at 100 KB | at 1 MB |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  let derived = 0;
  const pageMedians: number[] = [];
  const nodeMedians: number[] = [];
  for (const [file, source] of templates) {
    const times: number[] = [];
    let last: ReturnType<typeof deriveFromTemplate> | undefined;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      last = deriveFromTemplate(source, file, BUDGET);
      times.push(performance.now() - started);
    }
    if (!last?.ok) continue;
    derived++;
    const page = inPage.get(file);
    if (page) pageMedians.push(page.median);
    nodeMedians.push(median(times));
    const tools = ROUND_TRIP_TOOLS.map((t) => ({ type: "function", function: t }));
    const calls = [
      { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } },
      { name: "add_numbers", arguments: { a: 2, b: 3.5, flags: [true, false], meta: { x: null } } },
    ];
    const turn = `${templateAssistantOutput(last.render, "Checking.", last.format.oneCallPerTurn ? calls.slice(0, 1) : calls, tools)}\n`;
    const perMb = (bytes: number) => {
      const text = turn.repeat(Math.max(1, Math.round(bytes / turn.length)));
      const chunks = chunksOf1To4(text);
      let bestCpu = Infinity;
      for (let i = 0; i < 3; i++) {
        const cpu = processCpuMs();
        parseChunks(last.ok ? last.protocol : (undefined as never), ROUND_TRIP_TOOLS, chunks);
        bestCpu = Math.min(bestCpu, processCpuMs() - cpu);
      }
      return (bestCpu / text.length) * 1_000_000;
    };
    const pageCells = page ? `${page.best.toFixed(1)} | ${page.median.toFixed(1)}` : "not derived | –";
    rows.push(`| ${file} | ${pageCells} | ${Math.min(...times).toFixed(1)} | ${median(times).toFixed(1)} | ${perMb(100_000).toFixed(0)} | ${perMb(1_000_000).toFixed(0)} |`);
  }
  const within = (medians: number[]) => medians.filter((m) => m <= GOAL_MS).length;
  process.stdout.write(`${rows.join("\n")}\n\n`);
  process.stdout.write(
    `${derived} templates derived. In the page: median derivation ${median(pageMedians).toFixed(1)} ms over templates, ${within(pageMedians)} of ${pageMedians.length} within the ${GOAL_MS} ms goal, slowest ${Math.max(...pageMedians).toFixed(1)} ms. ` +
      `In Node: median ${median(nodeMedians).toFixed(1)} ms, ${within(nodeMedians)} of ${nodeMedians.length} within the goal, slowest ${Math.max(...nodeMedians).toFixed(1)} ms (median of ${RUNS} runs each, after one untimed round).\n` +
      `The first derivation, cold (${templates[0]![0]}, nothing compiled yet): ${pageCold.toFixed(1)} ms in the page, ${nodeCold.toFixed(1)} ms in Node.\n\n`,
  );
  await printWorkerFigures(templates);
}

await main();
