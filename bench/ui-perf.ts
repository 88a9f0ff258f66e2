// The UI performance benchmark (figures printed, never asserted): builds the app, serves it,
// and in Chromium measures
//   1. main-thread long tasks while the replay engine streams into an open debugger,
//   2. interaction latency in a 1,000-step session (imported as an event-log file),
//   3. the initial JavaScript size, gzip, without the WebLLM chunks;
//   4. the token view of a 4k-token prompt (token-view.ts);
//   5. an MCP server offering 3,000 tools: connect, count their tokens, reload (many-tools.ts);
//   6. typing in the parser playground with a megabyte pasted (playground-typing.ts);
//   7. the Markdown flood: 50,000 short Markdown lines streamed into the chat (markdown-flood.ts).
// Run alone with `npx tsx bench/ui-perf.ts`, or with the others by `npm run bench`.
// `UI_BENCH_ONLY=markdown-flood` (a comma list of stream, session, tokens, many-tools,
// playground, markdown-flood) runs only those parts.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser, type Page } from "@playwright/test";
import { baseChromiumArgs, systemChromiumPath } from "../e2e/browser.ts";
import { longSession } from "../src/ui/debugger/event-fixtures.ts";
import { HOSTILE_PARTS, hostileScenario, printHostileFigures } from "./hostile-inputs.ts";
import { manyToolsScenario, printManyToolsFigures } from "./many-tools.ts";
import { markdownFloodScenario, printMarkdownFloodFigures } from "./markdown-flood.ts";
import { playgroundScenario, printPlaygroundFigures } from "./playground-typing.ts";
import { printTokenViewFigures, tokenViewScenario } from "./token-view.ts";

const ROOT = resolve(import.meta.dirname, "..");
// Its own output folder: `dist/` belongs to the end-to-end tests' server, which may be running,
// and `node_modules/` may be shared by several checkouts (git worktrees), so not there either.
export const OUT_DIR = join(ROOT, ".bench-cache", "ui-bench");
const LONG_TASK_TARGET_MS = 50;
// The goal of issue #30 (it was < 250 KB before): the first screen without the experiments, the playground and Evaluate.
const INITIAL_JS_TARGET_KB = 180;
/** Chunks that load only when a WebLLM model is chosen (the engine, its worker). */
const WEBLLM_CHUNK = /web-?llm|worker/i;

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`the preview server did not answer at ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function build(): void {
  rmSync(OUT_DIR, { recursive: true, force: true });
  // A profile wants the functions' own names: LONG_TASKS_PROFILE builds without minifying.
  const minify = process.env.LONG_TASKS_PROFILE ? ["--minify", "false"] : [];
  execFileSync("npx", ["vite", "build", "--logLevel", "warn", "--outDir", OUT_DIR, "--emptyOutDir", ...minify], { cwd: ROOT, stdio: "inherit" });
}

export function preview(port: number): ChildProcess {
  return spawn("npx", ["vite", "preview", "--outDir", OUT_DIR, "--strictPort", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    stdio: "ignore",
    detached: true,
  });
}

// ---------------------------------------------------------------- initial JavaScript size

interface SizeReport {
  files: { file: string; gzipKb: number }[];
  initialGzipKb: number;
  excluded: { file: string; gzipKb: number }[];
}

const gzipKb = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length / 1024;

/** The scripts index.html loads at once (its module entry and modulepreloads), gzip-sized. */
export function initialJavaScriptSize(distDir: string): SizeReport {
  const html = readFileSync(join(distDir, "index.html"), "utf8");
  const referenced = new Set<string>();
  for (const match of html.matchAll(/<script[^>]+src="([^"]+\.js)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"|<link[^>]+href="([^"]+\.js)"[^>]+rel="modulepreload"/g)) {
    const src = match[1] ?? match[2] ?? match[3];
    if (src) referenced.add(src.replace(/^\//, ""));
  }
  const files: SizeReport["files"] = [];
  const excluded: SizeReport["excluded"] = [];
  for (const file of referenced) {
    const path = join(distDir, file);
    if (!existsSync(path)) continue;
    const entry = { file, gzipKb: gzipKb(path) };
    (WEBLLM_CHUNK.test(file) ? excluded : files).push(entry);
  }
  // Chunks not loaded at start but worth knowing about (the WebLLM engine and worker).
  const assets = join(distDir, "assets");
  if (existsSync(assets)) {
    for (const file of readdirSync(assets)) {
      const rel = `assets/${file}`;
      if (file.endsWith(".js") && WEBLLM_CHUNK.test(file) && !excluded.some((e) => e.file === rel) && statSync(join(assets, file)).isFile()) {
        excluded.push({ file: rel, gzipKb: gzipKb(join(assets, file)) });
      }
    }
  }
  return { files, initialGzipKb: files.reduce((sum, f) => sum + f.gzipKb, 0), excluded };
}

// ---------------------------------------------------------------- long tasks while streaming

interface LongTaskWindow {
  __benchLongTasks?: { start: number; duration: number }[];
}

/** Installed before the app loads: every long task the page has, with its start time. */
export function recordLongTasks() {
  const store: { start: number; duration: number }[] = [];
  (window as LongTaskWindow).__benchLongTasks = store;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) store.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {
    // No Long Tasks API: the figures say "unavailable".
  }
}

export async function longTasksSince(page: Page, since: number): Promise<{ count: number; longestMs: number; over50: number } | null> {
  return page.evaluate(
    ({ since, limit }) => {
      const tasks = (window as LongTaskWindow).__benchLongTasks;
      if (!tasks || !PerformanceObserver.supportedEntryTypes?.includes("longtask")) return null;
      const after = tasks.filter((t) => t.start >= since);
      return { count: after.length, longestMs: Math.max(0, ...after.map((t) => t.duration)), over50: after.filter((t) => t.duration > limit).length };
    },
    { since, limit: LONG_TASK_TARGET_MS },
  );
}

/** A long model output: reasoning, prose, and a tool call, about `chars` characters. */
function longOutput(chars: number): string {
  const sentence = "The quick brown fox checks the figures twice before it answers. ";
  const thinking = `<think>\n${sentence.repeat(Math.ceil(chars * 0.3 / sentence.length))}\n</think>\n\n`;
  const prose = sentence.repeat(Math.ceil(chars * 0.6 / sentence.length));
  const call = `<tool_call>\n${JSON.stringify({ name: "calculator", arguments: { expression: "6 * 7" } })}\n</tool_call>`;
  return `${thinking}${prose}\n${call}`;
}

interface StreamFigures {
  label: string;
  chunks: number;
  seconds: number;
  chunksPerSecond: number;
  longTasks: { count: number; longestMs: number; over50: number } | null;
}

export async function streamScenario(browser: Browser, base: string, label: string, delayMs: number): Promise<StreamFigures> {
  const chunkChars = 4;
  const output = longOutput(12_000);
  const transcript = { title: `bench stream (${label})`, protocol: "hermes", turns: [output, "It is 42."], chunkChars, delayMs };
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.addInitScript(recordLongTasks);
  await page.route((url) => url.pathname === "/__bench/stream.json", (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(transcript) }));
  await page.goto(`${base}/?engine=replay&transcript=${encodeURIComponent("/__bench/stream.json")}`);
  await page.getByTestId("chat-input").waitFor();
  await page.waitForTimeout(500);
  await page.getByTestId("chat-input").fill("What is 6 × 7? Think it through.");
  const since = await page.evaluate(() => performance.now());
  await page.getByTestId("send-button").click();
  // Streaming ends when the answer step (the second) has finished.
  await page.locator('[data-testid=step-item][data-status="final"]').first().waitFor({ timeout: 120_000 });
  const until = await page.evaluate(() => performance.now());
  await page.waitForTimeout(300);
  const longTasks = await longTasksSince(page, since);
  await page.close();
  const chunks = Math.ceil(output.length / chunkChars) + Math.ceil("It is 42.".length / chunkChars);
  const seconds = (until - since) / 1000;
  return { label, chunks, seconds, chunksPerSecond: chunks / seconds, longTasks };
}

// ---------------------------------------------------------------- a 1,000-step session

interface SessionFigures {
  steps: number;
  importToListedMs: number;
  importLongTasks: { count: number; longestMs: number; over50: number } | null;
  selectStepMs: number[];
  scrollMs: number[];
  selectParseStepMs: number[];
  longTasks: { count: number; longestMs: number; over50: number } | null;
}

/** Time from running `action` in the page to the second animation frame after it (a painted result). */
async function timeToPaint(page: Page, action: string): Promise<number> {
  return page.evaluate(async (code) => {
    const t0 = performance.now();
    new Function(code)();
    await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
    return performance.now() - t0;
  }, action);
}

export async function sessionScenario(browser: Browser, base: string, steps: number): Promise<SessionFigures> {
  const file = { format: "toolcall-lab/conversation", version: 1, title: `Bench: ${steps} steps`, createdAt: Date.now(), events: longSession(steps) };
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.addInitScript(recordLongTasks);
  await page.goto(`${base}/?engine=replay`);
  await page.getByTestId("import-file").waitFor({ state: "attached" });
  // The file reaches the page's own file input from a same-origin URL: Playwright's
  // setInputFiles would decode megabytes of base64 on the page's main thread and blur the figures.
  // It is fetched as a Blob, as a picked file is bytes: made from a string, the File would be
  // encoded to UTF-8 on the main thread (≈ 60 ms for 7 MB), work the app does not do.
  const body = JSON.stringify(file);
  await page.route((url) => url.pathname === "/__bench/session.json", (route) => route.fulfill({ contentType: "application/json", body }));
  const since = await page.evaluate(() => performance.now());
  await page.evaluate(async () => {
    const bytes = await (await fetch("/__bench/session.json")).blob();
    const input = document.querySelector<HTMLInputElement>("[data-testid=import-file]");
    if (!input) throw new Error("the page has no import-file input");
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], "session.json", { type: "application/json" }));
    input.files = transfer.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await page.locator("[data-testid=step-item]").first().waitFor({ timeout: 60_000 });
  const importToListedMs = (await page.evaluate(() => performance.now())) - since;
  await page.waitForTimeout(500);
  const importLongTasks = await longTasksSince(page, since);
  const interactionsSince = await page.evaluate(() => performance.now());

  const selectStepMs: number[] = [];
  const scrollMs: number[] = [];
  const selectParseStepMs: number[] = [];
  const timeline = '[data-testid="step-timeline"]';
  for (let round = 0; round < 5; round++) {
    // Scroll the timeline a long way (a fresh window of rows must render), then select a row in it.
    const fraction = [0.1, 0.9, 0.5, 0.3, 0.7][round] as number;
    scrollMs.push(await timeToPaint(page, `const el = document.querySelector('${timeline}'); el.scrollTop = el.scrollHeight * ${fraction}; el.dispatchEvent(new Event('scroll'));`));
    selectStepMs.push(
      await timeToPaint(page, `const rows = document.querySelectorAll('[data-testid=step-item]:not([aria-current])'); rows[Math.floor(rows.length / 2)].click();`),
    );
    selectParseStepMs.push(await timeToPaint(page, `const rows = document.querySelectorAll('[data-testid=parse-step]'); rows[rows.length - 1].click();`));
  }
  const longTasks = await longTasksSince(page, interactionsSince);
  await page.close();
  return { steps, importToListedMs, importLongTasks, selectStepMs, scrollMs, selectParseStepMs, longTasks };
}

// ---------------------------------------------------------------- report

const ms = (n: number) => `${n.toFixed(1)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const describeLongTasks = (t: StreamFigures["longTasks"]) =>
  t === null ? "unavailable (no Long Tasks API)" : `${t.count} long tasks, longest ${ms(t.longestMs)}, ${t.over50} over ${LONG_TASK_TARGET_MS} ms (target: 0)`;

async function step<T>(label: string, run: () => Promise<T>): Promise<T | Error> {
  try {
    return await run();
  } catch (error) {
    console.log(`  ${label}: could not measure — ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Serves the built app with `vite preview` on a free port (or BENCH_PORT), launches Chromium with
 * the project's flags, runs `use`, then closes the browser and stops the preview server whatever
 * happens. The UI and evaluation benchmarks share it.
 */
export async function withBuiltApp<T>(use: (browser: Browser, base: string) => Promise<T>): Promise<T> {
  // BENCH_PORT fixes the preview server's port (e.g. to keep clear of other servers); else a free one.
  const port = Number(process.env.BENCH_PORT) || (await freePort());
  const server = preview(port);
  const base = `http://127.0.0.1:${port}`;
  const executablePath = systemChromiumPath();
  let browser: Browser | undefined;
  try {
    await waitForHttp(base, 60_000);
    browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: baseChromiumArgs });
    return await use(browser, base);
  } finally {
    await browser?.close();
    if (server.pid) {
      try {
        process.kill(-server.pid);
      } catch {
        server.kill();
      }
    }
  }
}

/** Builds the app, unless BENCH_REUSE_BUILD says the build in place will do, and runs `use` on it (withBuiltApp). */
export async function withAppBuilt<T>(use: (browser: Browser, base: string) => Promise<T>): Promise<T> {
  if (!process.env.BENCH_REUSE_BUILD) build();
  return withBuiltApp(use);
}

export async function runUiPerfBenchmark(): Promise<void> {
  console.log("\n== UI performance (Chromium, built app) ==");
  build();
  const size = initialJavaScriptSize(OUT_DIR);
  console.log(`Initial JavaScript (gzip, without WebLLM chunks): ${size.initialGzipKb.toFixed(1)} KB (target < ${INITIAL_JS_TARGET_KB} KB)`);
  for (const f of size.files) console.log(`  ${f.file}: ${f.gzipKb.toFixed(1)} KB`);
  for (const f of size.excluded) console.log(`  not counted (a worker or WebLLM chunk, loaded on demand): ${f.file}: ${f.gzipKb.toFixed(1)} KB`);

  await withBuiltApp(async (live, base) => {
    const only = process.env.UI_BENCH_ONLY?.split(",").map((part) => part.trim());
    const runs = (part: string) => !only || only.includes(part);
    for (const [label, delayMs] of !runs("stream") ? [] : [
      // The replay engine paces chunks by a clock (chunk n is due 2 ms × (n + 1) after the
      // start), so delayMs 2 asks for 500 chunks/s even where timers fire late. The rate printed
      // is measured from Send to the final step (the tool run and the short second step included).
      ["paced: delayMs 2 (500 chunks/s asked)", 2],
      ["unthrottled: delayMs 0", 0],
    ] as const) {
      const figures = await step(`streaming (${label})`, () => streamScenario(live, base, label, delayMs));
      if (figures instanceof Error) continue;
      console.log(
        `Streaming into the open debugger, ${label}: ${figures.chunks} chunks in ${figures.seconds.toFixed(2)} s ` +
          `(${figures.chunksPerSecond.toFixed(0)} chunks/s) — ${describeLongTasks(figures.longTasks)}`,
      );
    }
    const session = runs("session") ? await step("1,000-step session", () => sessionScenario(live, base, 1000)) : new Error("skipped");
    if (!(session instanceof Error)) {
      console.log(`1,000-step session (imported event log, ${session.steps} steps): listed in ${ms(session.importToListedMs)}`);
      console.log(`  during the import: ${describeLongTasks(session.importLongTasks)}`);
      console.log(`  scroll the timeline (to paint): median ${ms(median(session.scrollMs))}, max ${ms(Math.max(...session.scrollMs))}`);
      console.log(`  select a step (to paint):       median ${ms(median(session.selectStepMs))}, max ${ms(Math.max(...session.selectStepMs))}`);
      console.log(`  select a parse step (to paint): median ${ms(median(session.selectParseStepMs))}, max ${ms(Math.max(...session.selectParseStepMs))}`);
      console.log(`  during the 15 interactions: ${describeLongTasks(session.longTasks)}`);
    }
    const tokens = runs("tokens") ? await step("token view", () => tokenViewScenario(live, base, recordLongTasks, longTasksSince)) : new Error("skipped");
    if (!(tokens instanceof Error)) printTokenViewFigures(tokens, describeLongTasks);
    const manyTools = runs("many-tools") ? await step("many MCP tools", () => manyToolsScenario(live, base, 3000, recordLongTasks)) : new Error("skipped");
    if (!(manyTools instanceof Error)) printManyToolsFigures(manyTools);
    const playground = runs("playground") ? await step("parser playground", () => playgroundScenario(live, base, recordLongTasks, longTasksSince)) : new Error("skipped");
    if (!(playground instanceof Error)) printPlaygroundFigures(playground, describeLongTasks);
    const flood = runs("markdown-flood") ? await step("Markdown flood", () => markdownFloodScenario(live, base, recordLongTasks)) : new Error("skipped");
    if (!(flood instanceof Error)) printMarkdownFloodFigures(flood);
    // Hardening round 3: the inputs that froze the page (bench/hostile-inputs.ts).
    for (const part of HOSTILE_PARTS) {
      if (!runs(part)) continue;
      const figures = await step(`hostile input: ${part}`, () => hostileScenario(live, base, part));
      if (!(figures instanceof Error)) printHostileFigures(figures);
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await runUiPerfBenchmark();
