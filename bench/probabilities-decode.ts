// What recording top-5 token probabilities costs on llama-server (issue #31's goal: ≤ 10% of
// decode time): the same greedy completion with n_probs 0 and 5, alternated so that a change in
// the machine's load falls on both alike. Two measures: llama.cpp's own decode rate
// (timings.predicted_per_second, wall time: on a shared, busy machine it mostly measures the
// load) and the server process's CPU time per generated token (/proc/<pid>/stat, user + system:
// the work itself, which waiting for a core does not inflate). Medians of the rounds.
// Then the exported size of a real reply recorded with top 5 against the same without.
// Starts llama-server with SmolLM2 on 127.0.0.1 and stops it.
// BENCH_ROUNDS (default 9; 0: the size only), BENCH_THREADS (default 1), BENCH_LLAMA_PORT (default 8583).
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { recordedToken } from "toolcall-middleware/probabilities/recorded-precision.ts";
import type { LoopEvent, TokenProbability } from "toolcall-middleware/types.ts";
import { startLlamaServer } from "../scripts/real-models/llama-server-process.ts";
import type { ServerAddress } from "../scripts/real-models/llama-server-api.ts";
import { tokensFromLogprobs } from "../src/engine/logprobs.ts";
import { encodeEventLog } from "../src/log-encoding/shared-text.ts";

const PROMPT = "<|im_start|>user\nWrite a short story about a lighthouse keeper.<|im_end|>\n<|im_start|>assistant\n";
const PREDICT = 96;

interface Completion {
  timings: { predicted_per_second: number; predicted_n: number };
  completion_probabilities?: unknown[];
}

async function complete(server: ServerAddress, nProbs: number, predict = PREDICT): Promise<Completion> {
  const response = await fetch(`${typeof server === "string" ? server : server.url}/completion`, { method: "POST", headers: typeof server === "string" ? {} : { Authorization: `Bearer ${server.apiKey}` }, body: JSON.stringify({ prompt: PROMPT, n_predict: predict, temperature: 0, n_probs: nProbs, cache_prompt: true, ignore_eos: true }) });
  if (!response.ok) throw new Error(`llama-server answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Completion;
}

/** The llama-server process listening on `port` (the watchdog shell's child), found by its command line. */
function serverPid(port: number): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (args[0]!.endsWith("llama-server") && args.includes("--port") && args[args.indexOf("--port") + 1] === String(port)) return Number(entry);
    } catch {
      // A process that ended while we looked.
    }
  }
  throw new Error(`no llama-server process on port ${port}`);
}

/** A process's CPU time so far (user + system), in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat (1-based), 11 and 12 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A step's deltas as the loop records them, one token each, with or without the tokens' probabilities. */
function replyLog(tokens: TokenProbability[], withProbabilities: boolean): LoopEvent[] {
  const events: LoopEvent[] = [
    { type: "run-start", runId: "r", at: 0, protocol: "hermes", messages: [], tools: [], limits: { maxSteps: 1, toolTimeoutMs: 1 } },
    { type: "step-start", runId: "r", at: 0, stepId: "s", index: 0, protocol: "hermes", messages: [], templateMessages: [], prompt: PROMPT, template: "chatml", settings: {}, probabilities: { topK: withProbabilities ? 5 : 0 } },
  ];
  let offset = 0;
  for (const [i, token] of tokens.entries()) {
    events.push({ type: "output-delta", runId: "r", at: i * 30, stepId: "s", text: token.text, offset, ...(withProbabilities ? { tokens: [recordedToken(token)] } : {}) });
    offset += token.text.length;
  }
  return events;
}

export async function runProbabilitiesDecodeBenchmark(rounds = Number(process.env.BENCH_ROUNDS ?? 9)): Promise<void> {
  const threads = Number(process.env.BENCH_THREADS ?? 1);
  const port = Number(process.env.BENCH_LLAMA_PORT ?? 8583);
  const server = await startLlamaServer({ modelId: "smollm2-135m-instruct-q4_1", port, contextSize: 2048, threads });
  try {
    if (rounds > 0) await decodeCost(server, port, rounds, threads);
    await realReplySize(server);
  } finally {
    await server.stop();
  }
}

/** Decode rate and CPU per token, n_probs 0 against 5. */
async function decodeCost(url: ServerAddress, port: number, rounds: number, threads: number): Promise<void> {
    const pid = serverPid(port);
    await complete(url, 0);
    await complete(url, 5);
    const rates: Record<number, number[]> = { 0: [], 5: [] };
    const cpuPerToken: Record<number, number[]> = { 0: [], 5: [] };
    const loadBefore = loadavg()[0]!;
    for (let i = 0; i < rounds; i++) {
      for (const n of [0, 5]) {
        const before = cpuMs(pid);
        const result = await complete(url, n);
        cpuPerToken[n]!.push((cpuMs(pid) - before) / result.timings.predicted_n);
        rates[n]!.push(result.timings.predicted_per_second);
      }
      console.log(`  round ${i + 1}: ${rates[0]!.at(-1)!.toFixed(1)} / ${rates[5]!.at(-1)!.toFixed(1)} tok/s, ${cpuPerToken[0]!.at(-1)!.toFixed(2)} / ${cpuPerToken[5]!.at(-1)!.toFixed(2)} CPU ms per token (without / with top 5)`);
    }
    const slower = (a: number, b: number) => `${(((a - b) / a) * 100).toFixed(1)}%`;
    const [rate0, rate5] = [median(rates[0]!), median(rates[5]!)];
    const [cpu0, cpu5] = [median(cpuPerToken[0]!), median(cpuPerToken[5]!)];
    console.log(`\nllama-server decode, SmolLM2 135M, ${threads} thread(s), ${PREDICT} tokens, median of ${rounds}, load average ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)} (goal: top 5 costs ≤ 10%)`);
    console.log(`  decode rate (wall): ${rate0.toFixed(1)} tok/s without probabilities, ${rate5.toFixed(1)} with top 5 (${slower(rate0, rate5)} slower)`);
    console.log(`  CPU per token:      ${cpu0.toFixed(2)} ms without, ${cpu5.toFixed(2)} ms with top 5 (${slower(cpu5, cpu0).replace(/^-/, "")} ${cpu5 >= cpu0 ? "more" : "less"})`);
}

/** A real reply's exported size, top 5 recorded against none (issue #31's goal: ≤ 3x). */
async function realReplySize(url: ServerAddress): Promise<void> {
    const reply = await complete(url, 5, 400);
    const tokens = tokensFromLogprobs({ content: reply.completion_probabilities }) ?? [];
    const size = (events: LoopEvent[]) => JSON.stringify(encodeEventLog(events)).length;
    const withTop = size(replyLog(tokens, true));
    const without = size(replyLog(tokens, false));
    console.log(
      `Exported size of a real ${tokens.length}-token SmolLM2 reply (one token per delta, as llama-server streams; prompt included): ${without.toLocaleString("en-US")} chars without, ${withTop.toLocaleString("en-US")} with top 5 (${(withTop / without).toFixed(2)}x; goal ≤ 3x)`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) await runProbabilitiesDecodeBenchmark();
