// What the opener probe and the protocol table cost (issue #38's goals: the probe ≤ 5% of the
// step's time; the table for four protocols ≤ 5 s on SmolLM2 once the cache is warm). SmolLM2
// 135M on llama-server (started here on 127.0.0.1, stopped after), through the lab's server
// engine and loop, temperature 0, one get_weather tool. Each round: a step of up to BENCH_TOKENS
// tokens whose prompt the server has seen before (cache warm), the probe timed apart
// (Engine.probeText on the same prompt, as the loop runs it after the step), then the table
// (hermes, xml, pythonic, llama3-json) twice in a row (the second reuses what the first left).
// Wall times on a shared machine: read them with the load average printed beside them.
// Printed, never asserted. BENCH_ROUNDS (default 3), BENCH_TOKENS (default 48).
import { loadavg } from "node:os";
import { familyById, familyChatTemplate } from "toolcall-middleware/families/registry.ts";
import { runToolLoop } from "toolcall-middleware/loop/run-tool-loop.ts";
import { openingMarkers } from "toolcall-middleware/probabilities/opening-markers.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ExecutableTool, LoopEvent } from "toolcall-middleware/types.ts";
import { startLlamaServer } from "../scripts/real-models/llama-server-process.ts";
import { probeLlamaCpp } from "../src/engine/openai/llama-cpp-probe.ts";
import { OpenAiEngine } from "../src/engine/openai/openai-engine.ts";
import { LEAN_PROTOCOLS, protocolLean } from "../src/experiments/protocol-lean.ts";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const maxTokens = Number(process.env.BENCH_TOKENS ?? 48);
const weather: ExecutableTool = {
  name: "get_weather",
  description: "Get the current weather in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: async () => "sunny",
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const server = await startLlamaServer({ modelId: "smollm2-135m-instruct-q4_1" });
try {
  const facts = await probeLlamaCpp(server.baseUrl);
  const engine = new OpenAiEngine({ baseUrl: server.baseUrl, model: server.model.id, mode: "prompt", ...(facts ? { llamaCpp: facts } : {}) });
  const template = familyChatTemplate(familyById(server.model.family)!);
  const protocol = getProtocol("hermes")!;
  const messages = [{ role: "user" as const, content: "Tell me about lighthouses." }];
  const steps: number[] = [];
  const probes: number[] = [];
  const tables: number[] = [];
  const warmTables: number[] = [];
  console.log(`SmolLM2 135M on llama-server (${server.threads} threads), hermes, step ≤ ${maxTokens} tokens, load average ${loadavg()[0]!.toFixed(1)} at the start`);
  for (let round = 0; round < rounds; round++) {
    let prompt = "";
    const stepStarted = performance.now();
    for await (const event of runToolLoop({ engine, protocol, tools: [weather], messages, template, generation: { temperature: 0, maxTokens }, maxSteps: 1, probeOpeners: false }) as AsyncIterable<LoopEvent>) {
      if (event.type === "step-start") prompt = event.prompt;
    }
    steps.push(performance.now() - stepStarted);
    const probeStarted = performance.now();
    for (const marker of openingMarkers(protocol, [weather])) await engine.probeText!(prompt, marker, new AbortController().signal);
    probes.push(performance.now() - probeStarted);
    const protocols = LEAN_PROTOCOLS.map((name) => getProtocol(name)!);
    for (const list of [tables, warmTables]) {
      const started = performance.now();
      await protocolLean({ engine, template, messages, tools: [weather], protocols }, new AbortController().signal);
      list.push(performance.now() - started);
    }
    console.log(`round ${round + 1}: step ${steps.at(-1)!.toFixed(0)} ms, probe ${probes.at(-1)!.toFixed(0)} ms (${((probes.at(-1)! / steps.at(-1)!) * 100).toFixed(1)}%), table ${tables.at(-1)!.toFixed(0)} ms, again ${warmTables.at(-1)!.toFixed(0)} ms, load ${loadavg()[0]!.toFixed(1)}`);
  }
  console.log(`medians: step ${median(steps).toFixed(0)} ms, probe ${median(probes).toFixed(0)} ms = ${((median(probes) / median(steps)) * 100).toFixed(1)}% of the step; protocol table (4 protocols) ${median(tables).toFixed(0)} ms, again ${median(warmTables).toFixed(0)} ms`);
} finally {
  server.stop();
}
