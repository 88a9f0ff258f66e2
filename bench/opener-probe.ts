// What the opener probe and the protocol table cost (goals: the probe ≤ 5% of the step's time;
// the table for four protocols ≤ 5 s on SmolLM2 once the cache is warm), on both llama.cpp
// engines. SmolLM2 135M, temperature 0, hermes, one get_weather tool, a message that gets an
// answer without a call.
// - llama-server (started here on 127.0.0.1, stopped after), through the lab's server engine and
//   loop. Each round: a step of up to BENCH_TOKENS tokens whose prompt the server has seen before
//   (cache warm), the probe timed apart (Engine.probeText on the same prompt, as the loop runs it
//   after the step), then the table (hermes, xml, pythonic, llama3-json) twice in a row (the
//   second reuses what the first left).
// - The in-page CPU engine (wllama in Chromium, the lab's relaxed-SIMD runtime, BENCH_CPU_THREADS
//   threads, default 1): the lab's own CpuEngine and loop over the runtime
//   (bench/runtime-harness/), the same step and probe; the marker's token ids are llama-server's
//   /tokenize of the same GGUF. The first round reads the prompt; it is printed and left out of
//   the medians.
// The probe is one request per marker (a grammar of the marker's token ids, n_predict = their
// count, each token's probability before the grammar), so its cost is one forward pass per
// marker token after the cached prompt; the step's is one per token it writes. Each engine's
// part ends with the probe's request timed beside the same passes without a grammar (and, on
// llama-server, with a logit bias on the marker's tokens added): what the grammar costs.
// Wall times on a shared machine: read them with the load average printed beside them.
// Printed, never asserted. BENCH_ROUNDS (default 3), BENCH_TOKENS (default 48), BENCH_CPU=0 skips
// the CPU engine.
import { loadavg } from "node:os";
import type { Page } from "@playwright/test";
import { familyById, familyChatTemplate } from "toolcall-middleware/families/registry.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import { openingMarkers } from "toolcall-middleware/probabilities/opening-markers.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ExecutableTool, LoopEvent } from "toolcall-middleware/types.ts";
import { launchHarnessBrowser, openHarnessPage, startHarnessServer } from "./runtime-harness/harness-server.ts";
import { chromiumCpuMs } from "./chromium-cpu.ts";
import { startLlamaServer } from "../scripts/real-models/llama-server-process.ts";
import { completion, type ServerAddress } from "../scripts/real-models/llama-server-api.ts";
import { llamaCppTokenize, probeLlamaCpp } from "../src/engine/openai/llama-cpp-probe.ts";
import { onlyTokensGrammar } from "../src/engine/text-probe.ts";
import { OpenAiEngine } from "../src/engine/openai/openai-engine.ts";
import { LEAN_PROTOCOLS, protocolLean } from "../src/experiments/protocol-lean.ts";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const maxTokens = Number(process.env.BENCH_TOKENS ?? 48);
const cpuThreads = Number(process.env.BENCH_CPU_THREADS) || 1;
const GRAMMAR_REPEATS = 15;
const MODEL = "smollm2-135m-instruct-q4_1";
const MESSAGE = "Tell me about lighthouses.";
const weatherSpec = {
  name: "get_weather",
  description: "Get the current weather in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const weather: ExecutableTool = { ...weatherSpec, execute: async () => "sunny" };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);
const share = (probe: number, step: number) => `${((probe / step) * 100).toFixed(1)}%`;

interface CpuStep { wallMs: number; opened: boolean; tokens: number; prompt: string }
interface CpuProbe { wallMs: number; probes: Array<{ text: string; p: number; tokens: number; read?: { prefilledTokens: number; reusedTokens: number } }> }

/** The same step and probe on the in-page CPU engine (bench/runtime-harness/harness.ts: loopStep, probe), with Chromium's CPU time of each. */
async function cpuEngineRounds(markers: Array<{ text: string; ids: number[] }>): Promise<void> {
  const harnessServer = await startHarnessServer();
  const { base } = harnessServer;
  const browser = await launchHarnessBrowser();
  try {
    const page: Page = await openHarnessPage(browser, base);
    const call = (name: string, options: object): Promise<unknown> =>
      page.evaluate(([n, o]) => (globalThis as unknown as { harness: Record<string, (o: unknown) => Promise<unknown>> }).harness[n]!(o), [name, options] as const);
    await call("load", { url: `${base}/models/${MODEL}.gguf`, threads: cpuThreads, runtime: "relaxed-simd" });
    console.log(`\nSmolLM2 135M on the CPU engine in Chromium (wllama, relaxed SIMD, ${cpuThreads} thread(s)), hermes, step ≤ ${maxTokens} tokens, load average ${load()} at the start`);
    const steps: number[] = [];
    const probes: number[] = [];
    const stepCpus: number[] = [];
    const probeCpus: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      const cpu0 = chromiumCpuMs();
      const step = (await call("loopStep", { family: "smollm2", protocol: "hermes", message: MESSAGE, tools: [weatherSpec], maxTokens, markers })) as CpuStep;
      const cpu1 = chromiumCpuMs();
      const probe = (await call("probe", { prompt: step.prompt, markers: markers.map((m) => m.text) })) as CpuProbe;
      const cpu2 = chromiumCpuMs();
      const reads = probe.probes.map((p) => `${p.text} p ${p.p.toPrecision(3)} in ${p.tokens} tokens, prompt ${p.read?.prefilledTokens ?? "?"} read / ${p.read?.reusedTokens ?? "?"} reused`).join("; ");
      console.log(`${round === 0 ? "warm-up" : `round ${round}`}: step ${step.wallMs.toFixed(0)} ms (${step.tokens} tokens${step.opened ? ", opened a call" : ""}; CPU ${(cpu1 - cpu0).toFixed(0)} ms), probe ${probe.wallMs.toFixed(0)} ms (${share(probe.wallMs, step.wallMs)}; CPU ${(cpu2 - cpu1).toFixed(0)} ms, ${share(cpu2 - cpu1, cpu1 - cpu0)}): ${reads}; load ${load()}`);
      if (round === 0) continue;
      steps.push(step.wallMs);
      probes.push(probe.wallMs);
      stepCpus.push(cpu1 - cpu0);
      probeCpus.push(cpu2 - cpu1);
    }
    const lastPrompt = ((await call("loopStep", { family: "smollm2", protocol: "hermes", message: MESSAGE, tools: [weatherSpec], maxTokens: 1, markers })) as CpuStep).prompt;
    const ids = markers[0]!.ids;
    const kinds: Record<string, object> = { "the probe's request (grammar of the ids)": { grammar: onlyTokensGrammar(ids) }, "no grammar (the model's own tokens)": {} };
    const cpuOf = new Map<string, number[]>(Object.keys(kinds).map((k) => [k, []]));
    for (let i = 0; i < GRAMMAR_REPEATS; i++) {
      for (const [kind, extra] of Object.entries(kinds)) {
        const before = chromiumCpuMs();
        await call("run", { prompt: lastPrompt, nPredict: ids.length, nProbs: 1, cachePrompt: true, ...extra });
        cpuOf.get(kind)!.push(chromiumCpuMs() - before);
      }
    }
    console.log(`what the grammar costs in the page (Chromium's CPU time of ${ids.length} passes on the cached prompt, medians of ${GRAMMAR_REPEATS}, load ${load()}): ${[...cpuOf].map(([kind, list]) => `${kind} ${median(list).toFixed(0)} ms`).join("; ")}`);
    console.log(`CPU engine medians: step ${median(steps).toFixed(0)} ms, probe ${median(probes).toFixed(0)} ms = ${share(median(probes), median(steps))} of the step; Chromium CPU time: step ${median(stepCpus).toFixed(0)} ms, probe ${median(probeCpus).toFixed(0)} ms = ${share(median(probeCpus), median(stepCpus))}`);
  } finally {
    await browser.close();
    await harnessServer.close();
  }
}

/** The same requests as the probe (the marker's n passes on the cached prompt, n_probs 1) with its grammar, without it, and with the grammar and a logit bias on the marker's tokens: what the grammar costs (llama-server's own timings). */
async function grammarCost(url: ServerAddress, prompt: string, ids: number[]): Promise<void> {
  const kinds: Record<string, Record<string, unknown>> = {
    "the probe (grammar of the ids)": { grammar: onlyTokensGrammar(ids) },
    "the same with a logit bias +1000 on the ids": { grammar: onlyTokensGrammar(ids), logit_bias: ids.map((id) => [id, 1000]) },
    "no grammar (the model's own tokens)": {},
  };
  const times = new Map<string, number[]>(Object.keys(kinds).map((k) => [k, []]));
  const firstP = new Map<string, number[]>();
  for (let i = 0; i < GRAMMAR_REPEATS; i++) {
    for (const [kind, extra] of Object.entries(kinds)) {
      const reply = (await completion(url, { prompt, n_predict: ids.length, n_probs: 1, temperature: 0, cache_prompt: true, ...extra })) as unknown as { timings: { prompt_ms: number; predicted_ms: number }; completion_probabilities?: Array<{ logprob: number }> };
      times.get(kind)!.push(reply.timings.prompt_ms + reply.timings.predicted_ms);
      firstP.set(kind, (reply.completion_probabilities ?? []).map((c) => Math.exp(c.logprob)));
    }
  }
  console.log(`what the grammar costs (llama-server's timings of ${ids.length} passes on the cached prompt, medians of ${GRAMMAR_REPEATS}, load ${load()}):`);
  for (const [kind, list] of times) console.log(`  ${kind}: ${median(list).toFixed(1)} ms; tokens' p ${firstP.get(kind)!.map((p) => p.toPrecision(3)).join(", ")}`);
}

const server = await startLlamaServer({ modelId: MODEL });
const markers: Array<{ text: string; ids: number[] }> = [];
try {
  const facts = await probeLlamaCpp(server.baseUrl, server.apiKey);
  const engine = new OpenAiEngine({ baseUrl: server.baseUrl, apiKey: server.apiKey, model: server.model.id, mode: "prompt", ...(facts ? { llamaCpp: facts } : {}) });
  const template = familyChatTemplate(familyById(server.model.family)!);
  const protocol = getProtocol("hermes")!;
  const messages = [{ role: "user" as const, content: MESSAGE }];
  for (const text of openingMarkers(protocol, [weather])) markers.push({ text, ids: await llamaCppTokenize(server.url, text, new AbortController().signal, server.headers) });
  const steps: number[] = [];
  const probes: number[] = [];
  const tables: number[] = [];
  const warmTables: number[] = [];
  const stepCpus: number[] = [];
  const probeCpus: number[] = [];
  const prompts: string[] = [];
  console.log(`SmolLM2 135M on llama-server (${server.threads} threads), hermes, step ≤ ${maxTokens} tokens, markers ${markers.map((m) => `${m.text} (${m.ids.length} tokens)`).join(", ")}, load average ${load()} at the start`);
  for (let round = 0; round < rounds; round++) {
    let prompt = "";
    let stepTokens = 0;
    let opened = false;
    const stepCpu = server.cpuSeconds() ?? Number.NaN;
    const stepStarted = performance.now();
    for await (const event of runToolLoop({ engine, protocol, tools: [weather], messages, template, generation: { temperature: 0, maxTokens }, maxSteps: 1, probeOpeners: false }) as AsyncIterable<LoopEvent>) {
      if (event.type === "step-start") prompt = event.prompt;
      if (event.type === "output-delta") stepTokens += event.tokens?.length ?? 0;
      if (event.type === "tool-start") opened = true;
    }
    steps.push(performance.now() - stepStarted);
    prompts.push(prompt);
    const probeCpu = server.cpuSeconds() ?? Number.NaN;
    const probeStarted = performance.now();
    for (const marker of markers) await engine.probeText!(prompt, marker.text, new AbortController().signal);
    probes.push(performance.now() - probeStarted);
    const probeCpuEnd = server.cpuSeconds() ?? Number.NaN;
    stepCpus.push((probeCpu - stepCpu) * 1000);
    probeCpus.push((probeCpuEnd - probeCpu) * 1000);
    const protocols = LEAN_PROTOCOLS.map((name) => getProtocol(name)!);
    for (const list of [tables, warmTables]) {
      const started = performance.now();
      await protocolLean({ engine, template, messages, tools: [weather], protocols }, new AbortController().signal);
      list.push(performance.now() - started);
    }
    console.log(`round ${round + 1}: step ${steps.at(-1)!.toFixed(0)} ms (${stepTokens} tokens${opened ? ", opened a call" : ""}), probe ${probes.at(-1)!.toFixed(0)} ms (${share(probes.at(-1)!, steps.at(-1)!)}; server CPU: step ${stepCpus.at(-1)!.toFixed(0)} ms, probe ${probeCpus.at(-1)!.toFixed(0)} ms, ${share(probeCpus.at(-1)!, stepCpus.at(-1)!)}), table ${tables.at(-1)!.toFixed(0)} ms, again ${warmTables.at(-1)!.toFixed(0)} ms, load ${load()}`);
  }
  await grammarCost(server, prompts.at(-1)!, markers[0]!.ids);
  console.log(`llama-server medians: step ${median(steps).toFixed(0)} ms, probe ${median(probes).toFixed(0)} ms = ${share(median(probes), median(steps))} of the step (server CPU time: ${share(median(probeCpus), median(stepCpus))}); protocol table (4 protocols) ${median(tables).toFixed(0)} ms, again ${median(warmTables).toFixed(0)} ms`);
} finally {
  server.stop();
}
if (process.env.BENCH_CPU !== "0") await cpuEngineRounds(markers);
