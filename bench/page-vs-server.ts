// `npm run --silent bench:page-vs-server`: the same prompts through the page's CPU engine (llama.cpp
// in WebAssembly, in Chromium, driven as a person would) and through llama.cpp's llama-server
// (`/completion`, raw prompt), temperature 0, the same max tokens, in one run. For each model:
// - the page renders each prompt itself (a plain chat, or a chat with the calculator tool on); the
//   exact prompt it sent is read back from the step's "Edit and re-run" panel and sent as is to
//   llama-server (BOS handled the way the lab's server engine sends it);
// - how many outputs agree exactly, and on how many first tokens (both outputs tokenized by
//   llama-server's /tokenize);
// - prefill and decode tokens/s side by side: the page at 1 and 2 threads (`?cpuThreads=`), the
//   server at 1 and 2 threads (`cache_prompt` false: every prompt prefilled in full).
// The page keeps its prompt cache on (as the lab runs); the prompts alternate tool / plain so that
// little of each is reused from the one before, and the tokens it reused are printed.
// Needs `npm run models` and the llama-server build. Figures only: nothing here is a test.
// BENCH_AGREE_MODELS=id,id picks models; BENCH_AGREE_TOKENS sets max tokens (default 32).
import { loadavg } from "node:os";
import type { Browser, Page } from "@playwright/test";
import { cachedModels } from "../scripts/real-models/cache-dir.mjs";
import { completion, tokenize, type ServerAddress } from "../scripts/real-models/llama-server-api.ts";
import { startLlamaServer } from "../scripts/real-models/llama-server-process.ts";
import { probeLlamaCpp, promptToSend } from "../src/engine/openai/llama-cpp-probe.ts";
import { withAppBuilt } from "./ui-perf.ts";

const MAX_TOKENS = Number(process.env.BENCH_AGREE_TOKENS) || 32;
/** Ports this benchmark's llama-servers use (kept clear of other work on the machine). */
const SERVER_PORTS = [8551, 8552];
const QUESTIONS: Array<{ text: string; tools: boolean }> = [
  { text: "What is 17 times 23?", tools: true },
  { text: "Write one sentence about the sea.", tools: false },
  { text: "What is the square root of 1764?", tools: true },
  { text: "Name three colours.", tools: false },
];

export interface Sample {
  prompt: string;
  output: string;
  prefilled: number;
  reused: number;
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
}

const numberIn = (text: string, pattern: RegExp): number => {
  const match = pattern.exec(text);
  return match ? Number(match[1]!.replaceAll(",", "")) : Number.NaN;
};

async function replyEnded(page: Page, index: number): Promise<void> {
  const message = page.getByTestId("message-assistant").nth(index);
  await message.waitFor({ timeout: 600_000 });
  for (;;) {
    const status = await message.getAttribute("data-status");
    if (status && !/^(running|streaming)$/.test(status)) return;
    await page.waitForTimeout(250);
  }
}

async function setUpConversation(page: Page, tools: boolean): Promise<void> {
  await page.getByTestId("setting-temperature").fill("0");
  await page.getByTestId("setting-max-tokens").fill(String(MAX_TOKENS));
  for (const toggle of await page.locator('[data-testid^="tool-toggle-"]').all()) {
    const wanted = tools && (await toggle.getAttribute("data-testid")) === "tool-toggle-calculator";
    if ((await toggle.isChecked()) !== wanted) await toggle.setChecked(wanted);
  }
}

/** One question in a new conversation; the first step's exact prompt, raw output and llama.cpp's figures. */
async function askInPage(page: Page, question: { text: string; tools: boolean }, first: boolean): Promise<Sample> {
  if (!first) await page.getByTestId("new-conversation").click();
  await setUpConversation(page, question.tools);
  await page.getByTestId("chat-input").fill(question.text);
  await page.getByTestId("chat-input").press("Enter");
  await replyEnded(page, 0);
  await page.getByTestId("step-item").first().click();
  const prefillText = (await page.getByTestId("step-prefill").textContent({ timeout: 60_000 })) ?? "";
  const speedText = (await page.getByTestId("step-speed").textContent()) ?? "";
  const emptyOutput = await page.getByTestId("raw-output-view").locator(".dbg-empty").count();
  const output = emptyOutput ? "" : ((await page.getByTestId("raw-output-view").textContent()) ?? "");
  await page.getByTestId("step-rerun").click();
  const prompt = await page.getByTestId("rerun-prompt").inputValue();
  await page.getByTestId("step-rerun").click();
  return {
    prompt,
    output,
    prefilled: numberIn(prefillText, /([\d,]+) tokens? prefilled/),
    reused: numberIn(prefillText, /([\d,]+) reused/) || 0,
    prefillTokensPerSecond: numberIn(speedText, /prefill ([\d,]+) tok\/s/),
    decodeTokensPerSecond: numberIn(speedText, /decode ([\d.]+) tok\/s/),
  };
}

/** The page's figures for the prompts: at a fixed thread count (`?cpuThreads=`), or at the count the page chooses by measuring ("measured"). */
export async function pageRun(browser: Browser, base: string, modelId: string, threads: number | "measured"): Promise<{ samples: Sample[]; ran: string; status: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(threads === "measured" ? `${base}/` : `${base}/?cpuThreads=${threads}`);
    await page.getByTestId("engine-select").selectOption("cpu");
    await page.getByTestId("cpu-model-select").selectOption(modelId);
    await page.getByTestId("cpu-load-button").click();
    await page.getByTestId("engine-status").and(page.locator('[data-state="ready"]')).first().waitFor({ timeout: 600_000 });
    const status = (await page.getByTestId("cpu-section").getByTestId("engine-status").textContent()) ?? "";
    const ran = /(\d+) threads?/.exec(status)?.[0] ?? "?";
    const samples: Sample[] = [];
    for (const [index, question] of QUESTIONS.entries()) samples.push(await askInPage(page, question, index === 0));
    return { samples, ran, status };
  } finally {
    await context.close();
  }
}

async function serverRun(modelId: string, threads: number, prompts: string[]): Promise<Sample[]> {
  const server = await startLlamaServer({ modelId, threads, port: SERVER_PORTS[threads - 1]! });
  try {
    const facts = await probeLlamaCpp(server.baseUrl, server.apiKey);
    const samples: Sample[] = [];
    for (const prompt of prompts) {
      const result = await completion(server, { prompt: promptToSend(prompt, facts), n_predict: MAX_TOKENS, temperature: 0, cache_prompt: false });
      samples.push({
        prompt,
        output: result.content,
        prefilled: result.timings.prompt_n,
        reused: result.timings.cache_n,
        prefillTokensPerSecond: result.timings.prompt_per_second,
        decodeTokensPerSecond: result.timings.predicted_per_second,
      });
    }
    return samples;
  } finally {
    await server.stop();
  }
}

/** How many first tokens two outputs share (llama-server's tokenizer, control tokens as text). */
async function sharedTokens(serverUrl: ServerAddress, a: string, b: string): Promise<{ shared: number; ofPage: number; ofServer: number }> {
  const [x, y] = [await tokenize(serverUrl, a, { parseSpecial: false }), await tokenize(serverUrl, b, { parseSpecial: false })];
  let shared = 0;
  while (shared < x.length && shared < y.length && x[shared] === y[shared]) shared++;
  return { shared, ofPage: x.length, ofServer: y.length };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
export const rate = (xs: number[], digits: number) => (xs.some(Number.isNaN) ? "?" : mean(xs).toFixed(digits));

async function benchModel(browser: Browser, base: string, modelId: string): Promise<void> {
  console.log(`\n${modelId}: ${QUESTIONS.length} prompts (${QUESTIONS.filter((q) => q.tools).length} with the calculator tool), temperature 0, at most ${MAX_TOKENS} tokens`);
  const page: Record<number, { samples: Sample[]; ran: string; status: string }> = {};
  for (const threads of [1, 2]) page[threads] = await pageRun(browser, base, modelId, threads);
  const prompts = page[1]!.samples.map((s) => s.prompt);
  const promptsDiffer = page[2]!.samples.some((s, i) => s.prompt !== prompts[i]);
  const server: Record<number, Sample[]> = {};
  for (const threads of [1, 2]) server[threads] = await serverRun(modelId, threads, prompts);

  // Agreement: the page at 1 thread against the server at 1 thread (and the page's two runs against each other).
  const tokenizer = await startLlamaServer({ modelId, threads: 1, port: SERVER_PORTS[0]! });
  try {
    let exact = 0;
    for (const [i, pageSample] of page[1]!.samples.entries()) {
      const serverSample = server[1]![i]!;
      const same = pageSample.output === serverSample.output;
      if (same) exact++;
      const { shared, ofPage, ofServer } = await sharedTokens(tokenizer, pageSample.output, serverSample.output);
      const threadsAgree = page[2]!.samples[i]!.output === pageSample.output && server[2]![i]!.output === serverSample.output;
      console.log(
        `  prompt ${i + 1} (${QUESTIONS[i]!.tools ? "tool" : "plain"}, ${serverSample.prefilled} tokens): ${same ? "same output" : `differs after ${shared} tokens`} (page ${ofPage} tokens, server ${ofServer})${threadsAgree ? "" : "; 1 vs 2 threads differ"}`,
      );
      if (!same) console.log(`    page:   ${JSON.stringify(pageSample.output.slice(0, 160))}\n    server: ${JSON.stringify(serverSample.output.slice(0, 160))}`);
    }
    console.log(`  agree exactly: ${exact} of ${prompts.length}${promptsDiffer ? " (the page rendered different prompts at 2 threads!)" : ""}`);
  } finally {
    await tokenizer.stop();
  }
  for (const threads of [1, 2]) {
    const p = page[threads]!;
    const s = server[threads]!;
    const reused = p.samples.reduce((n, x) => n + x.reused, 0);
    const prefilled = p.samples.reduce((n, x) => n + x.prefilled, 0);
    console.log(
      `  ${threads} thread${threads === 1 ? " " : "s"}: page (${p.ran} ran) prefill ${rate(p.samples.map((x) => x.prefillTokensPerSecond), 0)} tok/s, decode ${rate(p.samples.map((x) => x.decodeTokensPerSecond), 1)} tok/s` +
        ` (${prefilled} tokens prefilled, ${reused} reused)  |  llama-server prefill ${rate(s.map((x) => x.prefillTokensPerSecond), 0)} tok/s, decode ${rate(s.map((x) => x.decodeTokensPerSecond), 1)} tok/s`,
    );
  }
}

export async function runPageVsServerBenchmark(): Promise<void> {
  console.log("== The page's CPU engine vs llama-server: the same prompts, temperature 0 ==");
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} at the start; tok/s are means over the prompts (llama.cpp's own timings)`);
  const models = cachedModels(process.env.BENCH_AGREE_MODELS?.split(","));
  if (models.length === 0) {
    console.log("  no model in the cache: run `npm run models`");
    return;
  }
  await withAppBuilt(async (browser, base) => {
    for (const model of models) {
      try {
        await benchModel(browser, base, model.id);
      } catch (error) {
        console.log(`  ${model.id}: could not measure — ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    }
  });
  console.log(`\nload average ${loadavg().map((x) => x.toFixed(1)).join(" ")} at the end`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runPageVsServerBenchmark();
