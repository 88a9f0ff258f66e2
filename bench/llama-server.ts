// `npm run --silent bench:llama-server [-- --json] [--models id,id] [--threads N]`: llama.cpp's
// llama-server on this machine with the real models (SmolLM2 135M, Gemma 3 270M), 2 threads by
// default. Prints, per model, from llama.cpp's own timings:
// - prefill tokens/s (a ~600-token lab prompt, nothing cached) and decode tokens/s (128 tokens,
//   end of text ignored), the median of 3 runs;
// - prefix reuse on later loop steps: the lab's prompts for a tool loop (question → call → result
//   → answer → second question), each step sent after the one before; cache_n reused vs prompt_n
//   prefilled (the issue's goal: ≤ 10% of a later step's prompt prefilled);
// - the cost of a grammar: decode tokens/s with llama.cpp's own JSON-schema grammar of a tool call
//   (`json_schema`) against the same request without it (goal: ≤ 10% slower decode). The lab's
//   protocol grammars (GBNF) are not measured here.
// Needs `npm run models` and `npm run llama-server`. Figures only: nothing here is a test.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ChatMessage, ToolSpec } from "toolcall-middleware/types.ts";
import { createToolbox } from "../src/tools/index.ts";
import { probeLlamaCpp, promptToSend } from "../src/engine/openai/llama-cpp-probe.ts";
import { completion, tokenize, type Timings } from "../scripts/real-models/llama-server-api.ts";
import { startLlamaServer, type LlamaServer } from "../scripts/real-models/llama-server-process.ts";

const { values } = parseArgs({ options: { json: { type: "boolean" }, models: { type: "string" }, threads: { type: "string" } } });
const MODELS: Array<{ id: string; protocol: string }> = [
  { id: "smollm2-135m-instruct-q4_1", protocol: "xml" },
  { id: "gemma-3-270m-q4_k_m", protocol: "pythonic" },
].filter((m) => !values.models || values.models.split(",").includes(m.id));
const threads = Number(values.threads ?? 2);
const RUNS = 3;
const tools: ToolSpec[] = createToolbox().map(({ name, description, parameters }) => ({ name, description, parameters }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface ModelFigures {
  model: string;
  threads: number;
  promptTokens: number;
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
  loop: Array<{ step: number; promptTokens: number; reused: number; prefilled: number; prefilledShare: number }>;
  grammar: { freeDecodeTokensPerSecond: number; constrainedDecodeTokensPerSecond: number; slowdown: number };
}

/** The lab's prompt of a step: the served model's family template, the protocol, the built-in tools. */
function labPrompt(model: string, protocol: string, messages: ChatMessage[]): string {
  return renderModelPrompt({ modelId: model, protocol: getProtocol(protocol)!, tools, messages, systemPrompt: "" }).prompt;
}

async function measure(server: LlamaServer, protocol: string): Promise<ModelFigures> {
  const served = ((await (await fetch(`${server.baseUrl}/models`, { headers: server.headers })).json()) as { data: Array<{ id: string }> }).data[0]!.id;
  // llama-server adds a BOS itself where the model says so (Gemma): sent as the lab's engine sends it.
  const facts = await probeLlamaCpp(server.baseUrl, server.apiKey);
  const question: ChatMessage[] = [{ role: "user", content: "What is 1234 * 5678? And what time is it in Seoul?" }];
  const prompt = promptToSend(labPrompt(served, protocol, question), facts);
  const promptTokens = (await tokenize(server, prompt, { addSpecial: true })).length;

  const prefill: number[] = [];
  const decode: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const p = await completion(server, { prompt, n_predict: 1, cache_prompt: false, temperature: 0 });
    prefill.push(p.timings.prompt_per_second);
    const d = await completion(server, { prompt, n_predict: 128, ignore_eos: true, cache_prompt: true, temperature: 0 });
    decode.push(d.timings.predicted_per_second);
  }

  // A tool loop: each step's prompt extends the one before by the model's turn and what came back.
  const call = { id: "c1", name: "calculator", arguments: { expression: "1234 * 5678" } };
  const steps: ChatMessage[][] = [
    question,
    [...question, { role: "assistant", content: "", toolCalls: [call], protocol }, { role: "tool", toolCallId: "c1", name: "calculator", content: "7006652" }],
    [
      ...question,
      { role: "assistant", content: "", toolCalls: [call], protocol },
      { role: "tool", toolCallId: "c1", name: "calculator", content: "7006652" },
      { role: "assistant", content: "1234 * 5678 = 7,006,652.", protocol },
      { role: "user", content: "Thanks. And 2 ** 10?" },
    ],
  ];
  const loop: ModelFigures["loop"] = [];
  // A fresh cache first: an unrelated prompt.
  await completion(server, { prompt: "Hello", n_predict: 1, cache_prompt: true });
  for (const [index, messages] of steps.entries()) {
    const stepPrompt = promptToSend(labPrompt(served, protocol, messages), facts);
    const timings: Timings = (await completion(server, { prompt: stepPrompt, n_predict: 16, cache_prompt: true, temperature: 0 })).timings;
    const total = timings.cache_n + timings.prompt_n;
    loop.push({ step: index + 1, promptTokens: total, reused: timings.cache_n, prefilled: timings.prompt_n, prefilledShare: timings.prompt_n / total });
  }

  // A grammar's cost: the same decode, free and held to a tool call's JSON shape by llama.cpp's own
  // JSON-schema grammar: tokens per second of each (the free one decodes 64 tokens, end of text
  // ignored; the constrained one until its JSON is complete, at most 64).
  const schema = {
    type: "object",
    properties: { name: { enum: tools.map((t) => t.name) }, arguments: { type: "object", additionalProperties: { type: "string" } } },
    required: ["name", "arguments"],
  };
  const free: number[] = [];
  const constrained: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    free.push((await completion(server, { prompt, n_predict: 64, ignore_eos: true, cache_prompt: true, temperature: 0 })).timings.predicted_per_second);
    // Not ignore_eos here: once the grammar's JSON is complete, llama.cpp accepts no further token.
    constrained.push((await completion(server, { prompt, n_predict: 64, cache_prompt: true, temperature: 0, json_schema: schema })).timings.predicted_per_second);
  }
  const freeRate = median(free);
  const constrainedRate = median(constrained);
  return {
    model: server.model.id,
    threads,
    promptTokens,
    prefillTokensPerSecond: median(prefill),
    decodeTokensPerSecond: median(decode),
    loop,
    grammar: { freeDecodeTokensPerSecond: freeRate, constrainedDecodeTokensPerSecond: constrainedRate, slowdown: 1 - constrainedRate / freeRate },
  };
}

const results: ModelFigures[] = [];
for (const { id, protocol } of MODELS) {
  const server = await startLlamaServer({ modelId: id, threads });
  try {
    results.push(await measure(server, protocol));
  } finally {
    await server.stop();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
if (values.json) {
  for (const r of results) console.log(JSON.stringify(r));
} else {
  console.log(`llama-server (llama.cpp), ${threads} thread${threads === 1 ? "" : "s"}, OMP_WAIT_POLICY=${process.env.OMP_WAIT_POLICY ?? "passive"}, load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} at the end; llama.cpp's own timings, median of ${RUNS}\n`);
  for (const r of results) {
    console.log(`${r.model}`);
    console.log(`  prefill  ${r.prefillTokensPerSecond.toFixed(0)} tok/s  (a ${r.promptTokens}-token lab prompt, nothing cached)`);
    console.log(`  decode   ${r.decodeTokensPerSecond.toFixed(1)} tok/s  (128 tokens)`);
    for (const s of r.loop) console.log(`  loop step ${s.step}: ${s.promptTokens} prompt tokens, ${s.reused} reused, ${s.prefilled} prefilled (${pct(s.prefilledShare)})${s.step > 1 ? (s.prefilledShare <= 0.1 ? "  goal ≤ 10%: met" : "  goal ≤ 10%: MISSED") : ""}`);
    console.log(`  grammar  ${r.grammar.constrainedDecodeTokensPerSecond.toFixed(1)} tok/s constrained vs ${r.grammar.freeDecodeTokensPerSecond.toFixed(1)} free: ${r.grammar.slowdown >= 0 ? `${pct(r.grammar.slowdown)} slower` : `${pct(-r.grammar.slowdown)} faster (noise)`}${r.grammar.slowdown <= 0.1 ? "  goal ≤ 10%: met" : "  goal ≤ 10%: MISSED"}`);
    console.log("");
  }
}
