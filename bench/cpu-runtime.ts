// `npm run --silent bench:cpu-runtime`: where the in-page CPU engine's time goes. The runtime
// (wllama: llama.cpp in WebAssembly) runs in Chromium with nothing of the lab around it
// (bench/runtime-harness/), beside llama-server on the same prompt and threads, and prints:
// - llama.cpp's own timings (prefill and decode tokens/s) of each, and the page's CPU time per
//   token (all of Chromium's processes, from /proc: what a token costs, whatever else runs);
// - the same with n_probs 5 (the lab records each token's top 5) and with n_batch 2048 (wllama's
//   default; the lab uses 128 so that it can report progress per 128 prompt tokens);
// - a CPU profile of the runtime's worker while it decodes: the functions the time is spent in.
// Each for three runtimes: wllama's shipped wllama.wasm and the lab's two (the same file with the
// lab's dot-product kernels in SIMD, and in relaxed SIMD: scripts/runtime-kernels), whose outputs
// must be the same token for token.
// Figures only; nothing here is a test. BENCH_RUNTIME_MODEL (default smollm2-135m-instruct-q4_1),
// BENCH_RUNTIME_THREADS (default 1), BENCH_RUNTIME_TOKENS (decode length, default 48),
// BENCH_RUNTIME_RULES (the prompt's rule lines, default 20: about 480 tokens), BENCH_RUNTIME_QUICK=1
// (the runtimes side by side only: no n_probs/n_batch variants, profiles or llama-server; for
// a busy machine, where CPU ms per token is the figure to read).
import { loadavg } from "node:os";
import type { Browser, CDPSession, Page } from "@playwright/test";
import { launchHarnessBrowser, openHarnessPage, startHarnessServer } from "./runtime-harness/harness-server.ts";
import { chromiumCpuMs } from "./chromium-cpu.ts";
import { simdInKernels } from "./wasm-kernels.ts";
import { patchedRuntimeFile, shippedRuntimePath } from "../scripts/runtime-kernels/vite-plugin.ts";
import { readFileSync } from "node:fs";
import { completion } from "../scripts/real-models/llama-server-api.ts";
import { startLlamaServer } from "../scripts/real-models/llama-server-process.ts";

const MODEL = process.env.BENCH_RUNTIME_MODEL ?? "smollm2-135m-instruct-q4_1";
const THREADS = Number(process.env.BENCH_RUNTIME_THREADS) || 1;
const DECODE = Number(process.env.BENCH_RUNTIME_TOKENS) || 48;
const RULES = Number(process.env.BENCH_RUNTIME_RULES) || 20;
const QUICK = process.env.BENCH_RUNTIME_QUICK === "1";

// About 480 tokens of system text and a question that makes the model write on.
const rules = Array.from({ length: RULES }, (_, i) => `Rule ${i + 1}: when the user asks about item ${i + 1}, answer with care and cite the source.`).join("\n");
const PROMPT = `<|im_start|>system\n${rules}<|im_end|>\n<|im_start|>user\nWrite a long story about the sea.<|im_end|>\n<|im_start|>assistant\n`;

interface Timings { prompt_n: number; cache_n: number; prompt_per_second: number; predicted_n: number; predicted_per_second: number }
interface HarnessResult { wallMs: number; text: string; timings?: Timings }
type Runtime = "shipped" | "simd" | "relaxed-simd";
interface HarnessApi {
  load: (options: { url: string; threads: number; runtime: Runtime; nBatch?: number; nUbatch?: number }) => Promise<{ threads: number; nBatch: number; nUbatch: number }>;
  run: (options: { prompt: string; nPredict: number; nProbs?: number }) => Promise<HarnessResult>;
}

/** CPU seconds used so far by this process's Chromium (Linux /proc). */
const chromiumCpuSeconds = () => chromiumCpuMs() / 1000;

const harness = (page: Page, call: "load" | "run", options: object): Promise<unknown> =>
  page.evaluate(([c, o]) => (globalThis as unknown as { harness: HarnessApi }).harness[c as "load"](o as never) as Promise<unknown>, [call, options] as const);

async function openHarness(browser: Browser, base: string, runtime: Runtime, nBatch?: number) {
  const page = await openHarnessPage(browser, base);
  const loaded = await harness(page, "load", { url: `${base}/models/${MODEL}.gguf`, threads: THREADS, runtime, ...(nBatch ? { nBatch, nUbatch: Math.min(nBatch, 512) } : {}) });
  await harness(page, "run", { prompt: PROMPT, nPredict: 4 }); // the code is compiled and warm
  return { page, loaded: loaded as { nBatch: number; nUbatch: number } };
}

/** Prefill alone (one token), then prefill and decode: CPU ms per prefilled and per decoded token. */
async function measure(page: Page, nProbs: number) {
  const c0 = chromiumCpuSeconds();
  const prefill = (await harness(page, "run", { prompt: PROMPT, nPredict: 1, nProbs })) as HarnessResult;
  const c1 = chromiumCpuSeconds();
  const both = (await harness(page, "run", { prompt: PROMPT, nPredict: DECODE, nProbs })) as HarnessResult;
  const c2 = chromiumCpuSeconds();
  const p = prefill.timings!;
  const b = both.timings!;
  return {
    text: both.text,
    prefillPerSecond: p.prompt_per_second,
    decodePerSecond: b.predicted_per_second,
    prefillCpuMs: ((c1 - c0) * 1000) / p.prompt_n,
    decodeCpuMs: (((c2 - c1) - (c1 - c0)) * 1000) / Math.max(1, b.predicted_n - 1),
    promptTokens: p.prompt_n,
    decodedTokens: b.predicted_n,
  };
}

/** The runtime worker's CPU profile during one decode: self time by function. */
async function profileDecode(browser: Browser, page: Page): Promise<Array<[string, number]>> {
  const cdp: CDPSession = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send("Target.getTargets")) as { targetInfos: Array<{ targetId: string; type: string }> };
  const pending = new Map<number, (value: { result?: { profile?: Profile } }) => void>();
  let nextId = 1;
  cdp.on("Target.receivedMessageFromTarget", (event: { message: string }) => {
    const message = JSON.parse(event.message) as { id?: number; result?: { profile?: Profile } };
    if (message.id !== undefined) pending.get(message.id)?.(message);
  });
  const send = async (sessionId: string, method: string, params: object = {}) => {
    const id = nextId++;
    const answer = new Promise<{ result?: { profile?: Profile } }>((resolve) => pending.set(id, resolve));
    await cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
    return answer;
  };
  const sessions: string[] = [];
  for (const target of targetInfos.filter((t) => t.type === "worker")) {
    const { sessionId } = (await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false })) as { sessionId: string };
    sessions.push(sessionId);
    await send(sessionId, "Profiler.enable");
    await send(sessionId, "Profiler.start");
  }
  await harness(page, "run", { prompt: PROMPT, nPredict: DECODE });
  const self = new Map<string, number>();
  let total = 0;
  for (const sessionId of sessions) {
    const profile = (await send(sessionId, "Profiler.stop")).result?.profile;
    if (!profile) continue;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((id, k) => {
      const name = byId.get(id)?.callFrame.functionName || "(other)";
      const dt = profile.timeDeltas[k + 1] ?? 0;
      self.set(name, (self.get(name) ?? 0) + dt);
      total += dt;
    });
  }
  await cdp.detach();
  return [...self.entries()].map(([name, us]): [string, number] => [name, us / total]).sort((a, b) => b[1] - a[1]).slice(0, 8);
}

interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string } }>;
  samples: number[];
  timeDeltas: number[];
}

const f = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "?");

async function main() {
  const harnessServer = await startHarnessServer();
  const { base } = harnessServer;
  const browser = await launchHarnessBrowser();
  const runtimes: Array<[Runtime, string, Uint8Array]> = [
    ["shipped", "wllama's shipped wllama.wasm", readFileSync(shippedRuntimePath())],
    ["simd", "the lab's runtime with SIMD kernels", patchedRuntimeFile("simd").bytes],
    ["relaxed-simd", "the lab's runtime with relaxed-SIMD kernels (what this Chromium loads)", patchedRuntimeFile("relaxed-simd").bytes],
  ];
  for (const [, label, bytes] of runtimes) {
    console.log(`${label}: dot-product kernels (bytes of each body, of them SIMD-prefix bytes; 0: no SIMD instruction):`);
    for (const kernel of simdInKernels(bytes)) console.log(`  ${kernel.name}: ${kernel.bytes} bytes, ${kernel.simdPrefixes} SIMD`);
  }
  console.log(`${MODEL}, ${THREADS} thread(s), decode ${DECODE} tokens; load average at start ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  try {
    const texts = new Map<Runtime, string>();
    for (const [runtime] of runtimes) {
      for (const nBatch of runtime === "relaxed-simd" && !QUICK ? [128, 2048] : [128]) {
        const { page, loaded } = await openHarness(browser, base, runtime, nBatch);
        for (const nProbs of nBatch === 128 && !QUICK ? [0, 5] : [0]) {
          const m = await measure(page, nProbs);
          if (nBatch === 128 && nProbs === 0) texts.set(runtime, m.text);
          console.log(
            `page (${runtime}), n_batch ${loaded.nBatch}/${loaded.nUbatch}, n_probs ${nProbs}: prefill ${f(m.prefillPerSecond)} tok/s (${m.promptTokens} tokens, ${f(m.prefillCpuMs)} CPU ms/token), ` +
              `decode ${f(m.decodePerSecond)} tok/s (${m.decodedTokens} tokens, ${f(m.decodeCpuMs)} CPU ms/token)`,
          );
        }
        if (nBatch === 128 && !QUICK) {
          console.log(`page (${runtime}), where a decode's time goes (the runtime worker's CPU profile, self time):`);
          for (const [name, share] of await profileDecode(browser, page)) console.log(`  ${f(share * 100).padStart(5)}%  ${name}`);
        }
        await page.close();
      }
    }
    const same = runtimes.every(([runtime]) => texts.get(runtime) === texts.get("shipped"));
    console.log(`greedy output of the ${runtimes.length} runtimes: ${same ? "the same" : "DIFFERENT"} (${DECODE} tokens)`);
    if (QUICK) return;
    const server = await startLlamaServer({ modelId: MODEL, threads: THREADS });
    try {
      const cpu0 = server.cpuSeconds() ?? Number.NaN;
      const prefill = await completion(server, { prompt: PROMPT, n_predict: 1, temperature: 0, cache_prompt: false });
      const cpu1 = server.cpuSeconds() ?? Number.NaN;
      const both = await completion(server, { prompt: PROMPT, n_predict: DECODE, temperature: 0, cache_prompt: false });
      const cpu2 = server.cpuSeconds() ?? Number.NaN;
      console.log(
        `llama-server: prefill ${f(prefill.timings.prompt_per_second)} tok/s (${f(((cpu1 - cpu0) * 1000) / prefill.timings.prompt_n)} CPU ms/token), ` +
          `decode ${f(both.timings.predicted_per_second)} tok/s (${f((((cpu2 - cpu1) - (cpu1 - cpu0)) * 1000) / Math.max(1, both.timings.predicted_n - 1))} CPU ms/token)`,
      );
    } finally {
      await server.stop();
    }
    console.log(`load average at end ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  } finally {
    await browser.close();
    await harnessServer.close();
  }
}

await main();
