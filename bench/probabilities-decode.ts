// What recording top-5 token probabilities costs on llama-server (goal ≤ 10% of decode time):
// the same greedy completion with n_probs 0 and 5, alternated, llama.cpp's own decode timing
// (timings.predicted_per_second). Starts llama-server with SmolLM2 on 127.0.0.1 and stops it.
import { startLlamaServer } from "../scripts/real-models/llama-server-process.ts";

const PROMPT = "<|im_start|>user\nWrite a short story about a lighthouse keeper.<|im_end|>\n<|im_start|>assistant\n";

async function decodeRate(url: string, nProbs: number): Promise<number> {
  const response = await fetch(`${url}/completion`, { method: "POST", body: JSON.stringify({ prompt: PROMPT, n_predict: 96, temperature: 0, n_probs: nProbs, cache_prompt: true, ignore_eos: true }) });
  const body = (await response.json()) as { timings: { predicted_per_second: number } };
  return body.timings.predicted_per_second;
}

export async function runProbabilitiesDecodeBenchmark(rounds = 4): Promise<void> {
  const server = await startLlamaServer({ modelId: "smollm2-135m-instruct-q4_1", port: Number(process.env.BENCH_LLAMA_PORT ?? 8583), contextSize: 2048 });
  try {
    await decodeRate(server.url, 0);
    const rates: Record<number, number[]> = { 0: [], 5: [] };
    for (let i = 0; i < rounds; i++) for (const n of [0, 5]) rates[n]!.push(await decodeRate(server.url, n));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const without = median(rates[0]!);
    const withTop = median(rates[5]!);
    console.log(`\nllama-server decode, SmolLM2 135M, 96 tokens, median of ${rounds}: ${without.toFixed(1)} tok/s without probabilities, ${withTop.toFixed(1)} tok/s with top 5 (${(((without - withTop) / without) * 100).toFixed(1)}% slower; goal ≤ 10%)`);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runProbabilitiesDecodeBenchmark();
