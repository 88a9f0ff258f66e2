// The page's long tasks under the hostile inputs of docs/security.md, in Chromium on the built app:
// for each scenario, a PerformanceObserver for 'longtask' (installed before the page loads) and
// the longest task and the count over 200 ms from the moment the input is handed over until the
// page says what it made of it. Printed, never asserted.
//   server-prompt   an imported native step whose server prompt is 16 M characters of bidi controls
//   token-import    an imported step of 2,000,000 tokens with probabilities
//   probabilities   a step of 250,000 tokens (the bound) imported, its Probabilities view opened
//   results-file    a 31 MB results file opened in Evaluate (the lab's own, repeated)
//   gguf-template   the real SmolLM2 with a template that loops (2 s budget in its worker), one message
// LONG_TASKS_ONLY=server-prompt,token-import,… picks scenarios; BENCH_REUSE_BUILD=1 skips the build;
// LONG_TASKS_PROFILE=1 also takes a CPU profile of each measured phase and prints the functions
// with the most self time inside its long tasks (what to split next); LONG_TASKS_TRACE=1 instead
// takes a Chromium trace and sums the main thread's events by name inside each long task (the
// native work, style, layout, paint, a profile shows only as "(program)").
//   npm run --silent bench:long-tasks
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import { dropGguf, rewriteGgufString } from "../e2e/gguf-rewrite.ts";
import { describeLongTasks, dropFile, longTasksSince, nativeServerPromptSession, recordLongTasks, tokenFloodSession, type LongTasks } from "../e2e/hostile-inputs.ts";
import { modelPath, readManifest } from "../scripts/real-models/cache-dir.mjs";
import { RESULTS_FILE_MAX_CHARS } from "../src/eval/results-file.ts";
import { STEP_OUTPUT_LIMITS } from "toolcall-middleware/loop/stream-step.ts";
import { withAppBuilt } from "./ui-perf.ts";
import { profileLongTasks, traceLongTasks } from "./long-task-profile.ts";

const SCENARIOS = ["server-prompt", "token-import", "probabilities", "results-file", "gguf-template"] as const;
type Scenario = (typeof SCENARIOS)[number];

async function measure(page: Page, act: () => Promise<void>, label = "phase"): Promise<{ ms: number; tasks: LongTasks | null }> {
  const profiling = process.env.LONG_TASKS_TRACE ? await traceLongTasks(page) : process.env.LONG_TASKS_PROFILE ? await profileLongTasks(page) : null;
  const since = await page.evaluate(() => performance.now());
  await act();
  const ms = (await page.evaluate(() => performance.now())) - since;
  // Long tasks are reported a little after they end.
  await page.waitForTimeout(500);
  const tasks = await longTasksSince(page, since);
  if (profiling) console.log(await profiling.report(label, since));
  return { ms, tasks };
}

function resultsFileNearTheCap(): string {
  const file = JSON.parse(readFileSync(new URL("../eval-results/smollm2-135m-instruct-q4_1.llama3-json.constrained-off+on.json", import.meta.url), "utf8")) as { results: unknown[] };
  const one = file.results;
  let text = "";
  for (let count = 50; ; count += 50) {
    const next = JSON.stringify({ ...file, results: Array.from({ length: count }, (_, i) => one[i % one.length]) }, null, 1);
    if (next.length > RESULTS_FILE_MAX_CHARS - 1024 * 1024) return text;
    text = next;
  }
}

const HOSTILE_LOOP_TEMPLATE =
  "{%- for m in messages -%}{{ m['role'] + ': ' + m['content'] + '\\n' }}{%- endfor -%}{%- if 'HOSTILE_LOOP' in messages[messages|length - 1]['content'] -%}{%- for i in range(90000) -%}{%- for j in range(90000) -%}{%- endfor -%}{%- endfor -%}{%- endif -%}{%- if add_generation_prompt -%}{{ 'assistant:' }}{%- endif -%}";

async function scenario(browser: Browser, base: string, name: Scenario): Promise<string> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    await recordLongTasks(page);
    switch (name) {
      case "server-prompt": {
        await page.goto(`${base}/?engine=replay`);
        await page.getByTestId("import-file").waitFor({ state: "attached" });
        const body = JSON.stringify(nativeServerPromptSession("ab\u202ec\n".repeat(16_000_000 / 5)));
        const { ms, tasks } = await measure(page, async () => {
          await dropFile(page, "import-file", "server-prompt.json", body);
          await page.getByTestId("server-prompt-cut").waitFor({ timeout: 300_000 });
        }, "server prompt import");
        return describeLongTasks(`server prompt of 16,000,000 characters (${(body.length / 1e6).toFixed(0)} MB file), imported and drawn in ${(ms / 1000).toFixed(1)} s`, tasks);
      }
      case "token-import":
      case "probabilities": {
        await page.goto(`${base}/?engine=replay`);
        await page.getByTestId("import-file").waitFor({ state: "attached" });
        // 2,000,000 tokens are past the bound a step keeps (the import refuses them); the view is drawn for a step at the bound.
        const tokens = name === "token-import" ? 2_000_000 : STEP_OUTPUT_LIMITS.tokens;
        const body = JSON.stringify(tokenFloodSession(tokens, 10_000, name === "probabilities"));
        const imported = await measure(page, async () => {
          await dropFile(page, "import-file", "tokens.json", body);
          await page.getByTestId("import-message").waitFor({ timeout: 600_000 });
        }, `${name}: import`);
        const said = ((await page.getByTestId("import-message").textContent()) ?? "").slice(0, 160);
        if (name === "token-import") return describeLongTasks(`step of ${tokens.toLocaleString("en-US")} tokens (${(body.length / 1e6).toFixed(0)} MB file), "${said}" in ${(imported.ms / 1000).toFixed(1)} s`, imported.tasks);
        await page.getByTestId("step-item").first().click();
        const shown = await measure(page, async () => {
          await page.getByTestId("probabilities-toggle").click();
          await page.getByTestId("token-probabilities").getByTestId("tp-token").first().waitFor({ timeout: 300_000 });
        }, "probabilities view");
        return describeLongTasks(`a step of ${tokens.toLocaleString("en-US")} tokens with alternatives imported in ${(imported.ms / 1000).toFixed(1)} s (${imported.tasks?.over200 ?? "?"} over 200 ms, longest ${imported.tasks?.longestMs ?? "?"} ms); its Probabilities drawn in ${(shown.ms / 1000).toFixed(1)} s`, shown.tasks);
      }
      case "results-file": {
        const text = resultsFileNearTheCap();
        await page.goto(`${base}/#evaluate`);
        await page.getByTestId("eval-import-file").waitFor({ state: "attached" });
        const { ms, tasks } = await measure(page, async () => {
          await dropFile(page, "eval-import-file", "near-the-cap.json", text);
          await page.getByTestId("eval-imported").filter({ hasText: "near-the-cap.json" }).waitFor({ timeout: 300_000 });
        }, "results file");
        return describeLongTasks(`results file of ${(text.length / 1e6).toFixed(0)} MB opened in Evaluate in ${(ms / 1000).toFixed(1)} s`, tasks);
      }
      case "gguf-template": {
        const smollm2 = readManifest().models.find((m) => m.id === "smollm2-135m-instruct-q4_1")!;
        if (!existsSync(modelPath(smollm2))) return "GGUF template: not measured (SmolLM2 is not in the model cache: npm run models)";
        const folder = mkdtempSync(join(tmpdir(), "long-tasks-gguf-"));
        try {
          const file = join(folder, "hostile.gguf");
          rewriteGgufString(modelPath(smollm2), file, "tokenizer.chat_template", HOSTILE_LOOP_TEMPLATE);
          await page.goto(`${base}/?cpuThreads=1`);
          await dropGguf(page, file);
          await page.getByTestId("engine-label").filter({ hasText: "hostile.gguf" }).waitFor({ timeout: 300_000 });
          await page.waitForTimeout(3_000);
          const { ms, tasks } = await measure(page, async () => {
            await page.getByTestId("chat-input").fill("HOSTILE_LOOP");
            await page.getByTestId("chat-input").press("Enter");
            await page.getByTestId("message-assistant").last().filter({ hasText: "time budget" }).waitFor({ timeout: 120_000 });
          });
          return describeLongTasks(`GGUF template looping 90,000 × 90,000, refused at its 2 s budget in ${(ms / 1000).toFixed(1)} s`, tasks);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      }
    }
  } finally {
    await page.close();
  }
}

const only = process.env.LONG_TASKS_ONLY?.split(",").filter((s): s is Scenario => (SCENARIOS as readonly string[]).includes(s));
await withAppBuilt(async (browser, base) => {
  console.log("Main-thread long tasks while the page takes a hostile input (target: none over 200 ms)");
  for (const name of only?.length ? only : SCENARIOS) {
    try {
      console.log(`  ${await scenario(browser, base, name)}`);
    } catch (error) {
      console.log(`  ${name}: could not measure — ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    }
  }
});
