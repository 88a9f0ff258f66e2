// `npm run --silent bench:eval-ceiling [-- --slots 1,2,4,8,16] [--threads 2] [--model id]`: how many
// eval cases a second this machine's llama-server can do at best, whatever the eval's own setup —
// the ceiling issue #31's goal (SmolLM2, ≥ 2 cases/s on 2 cores) is measured against.
//
// A case costs the server its prompt's prefill and its reply's decode; nothing else on the machine
// is faster than the server's own rates. So, from llama.cpp's own figures:
// - the average case: prompt tokens prefilled (not taken from the cache) and reply tokens, read
//   from the committed results files of that model (eval-results/, each case's log);
// - prefill tokens/s: a real BFCL prompt of the built-in suite rendered by the lab, nothing cached,
//   one at a time (median of 3);
// - decode tokens/s summed over N replies decoded at once (N slots of one server, N requests in
//   flight, 200 tokens each, end of text ignored, top 5 probabilities asked as the eval asks them);
// and the ceiling at N slots: 1 / (prefilled ÷ prefill rate + reply ÷ summed decode rate), which
// assumes prefill and decode never wait for each other or for the client.
// Needs `npm run models` and `npm run llama-server`. Figures only: nothing here is a test.
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { renderModelPrompt } from "toolcall-middleware/families/model-prompt.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { loadBuiltinSuite } from "../src/eval/builtin-suite.ts";
import { timedResults } from "../src/eval/case-timing.ts";
import { readResultsFile } from "../src/eval/results-file.ts";
import { categoryOf } from "../src/eval/suite.ts";
import { probeLlamaCpp, promptToSend } from "../src/engine/openai/llama-cpp-probe.ts";
import { listModels } from "../src/engine/openai/openai-engine.ts";
import { completion, tokenize } from "../scripts/real-models/llama-server-api.ts";
import { startLlamaServer } from "../scripts/real-models/llama-server-process.ts";

const ROOT = join(import.meta.dirname, "..");
const { values } = parseArgs({ options: { slots: { type: "string" }, threads: { type: "string" }, model: { type: "string" } } });
const modelId = values.model ?? "smollm2-135m-instruct-q4_1";
const slotCounts = (values.slots ?? "1,2,4,8,16").split(",").map(Number);
const threads = Number(values.threads ?? 2);
const REPLY_TOKENS = 200;
const GOAL_CASES_PER_SECOND = 2;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// The average case of the committed matrix for this model.
const resultsDir = join(ROOT, "eval-results");
let cases = 0;
let prefilled = 0;
let reply = 0;
for (const name of readdirSync(resultsDir).filter((n) => n.startsWith(`${modelId}.`) && n.endsWith(".json"))) {
  for (const { timing } of timedResults(readResultsFile(readFileSync(join(resultsDir, name), "utf8"), categoryOf))) {
    if (timing.prefilledTokens === undefined || timing.completionTokens === undefined) continue;
    cases += 1;
    prefilled += timing.prefilledTokens;
    reply += timing.completionTokens;
  }
}
if (cases === 0) throw new Error(`no timed cases of ${modelId} in eval-results/`);
const meanPrefilled = prefilled / cases;
const meanReply = reply / cases;

const [bfclCase] = await loadBuiltinSuite(["multiple"], (path) => Promise.resolve(readFileSync(join(ROOT, "public", path), "utf8")));
const server = await startLlamaServer({ modelId, threads, parallel: Math.max(...slotCounts) });
const { prefillRate, promptTokens, rows } = await (async () => {
  try {
    return await measure();
  } finally {
    await server.stop();
  }
})();

async function measure(): Promise<{ prefillRate: number; promptTokens: number; rows: Array<{ slots: number; decode: number; ceiling: number }> }> {
  const [served] = await listModels({ baseUrl: server.baseUrl, apiKey: server.apiKey });
  if (!served) throw new Error("llama-server lists no model");
  const facts = await probeLlamaCpp(server.baseUrl, server.apiKey);
  const prompt = promptToSend(renderModelPrompt({ modelId: served.id, protocol: getProtocol("xml")!, tools: bfclCase!.tools, messages: bfclCase!.messages, systemPrompt: "" }).prompt, facts);
  const promptTokens = (await tokenize(server, prompt, { addSpecial: true })).length;
  const prefills: number[] = [];
  for (let i = 0; i < 3; i++) prefills.push((await completion(server, { prompt, n_predict: 1, cache_prompt: false, temperature: 0 })).timings.prompt_per_second);
  const prefillRate = median(prefills);
  const rows = [];
  for (const slots of slotCounts) {
    const started = performance.now();
    // Short distinct prompts, so the time is the replies' decode.
    await Promise.all(Array.from({ length: slots }, (_, i) => completion(server, { prompt: `Story ${i + 1}. Once upon a time`, n_predict: REPLY_TOKENS, ignore_eos: true, cache_prompt: false, temperature: 0, n_probs: 5 })));
    const decode = (slots * REPLY_TOKENS) / ((performance.now() - started) / 1000);
    rows.push({ slots, decode, ceiling: 1 / (meanPrefilled / prefillRate + meanReply / decode) });
  }
  return { prefillRate, promptTokens, rows };
}

console.log(`llama-server (llama.cpp ${server.build.commit.slice(0, 12)}) with ${modelId}, ${threads} thread${threads === 1 ? "" : "s"}, OMP_WAIT_POLICY=${server.waitPolicy}; load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} at the end`);
console.log(`the average case of eval-results/ (${cases} cases): ${meanPrefilled.toFixed(0)} prompt tokens prefilled, ${meanReply.toFixed(0)} reply tokens`);
console.log(`prefill: ${prefillRate.toFixed(0)} tok/s (a ${promptTokens}-token BFCL prompt, nothing cached, median of 3): ${(meanPrefilled / prefillRate).toFixed(2)} s of the machine a case`);
for (const row of rows) console.log(`${String(row.slots).padStart(2)} slot${row.slots === 1 ? " " : "s"}: decode ${row.decode.toFixed(0).padStart(4)} tok/s summed → at most ${row.ceiling.toFixed(2)} cases/s`);
const best = rows.reduce((a, b) => (b.ceiling > a.ceiling ? b : a));
// What the goal would take at the best decode rate: replies short enough, prefill unchanged.
const replyForGoal = (1 / GOAL_CASES_PER_SECOND - meanPrefilled / prefillRate) * best.decode;
console.log(`goal ${GOAL_CASES_PER_SECOND} cases/s: ${best.ceiling >= GOAL_CASES_PER_SECOND ? "within the ceiling" : `out of reach (ceiling ${best.ceiling.toFixed(2)}); ${replyForGoal > 0 ? `replies of ≤ ${replyForGoal.toFixed(0)} tokens would be needed at ${best.slots} slots` : `the prefill alone takes ${(meanPrefilled / prefillRate).toFixed(2)} s a case, more than ${1 / GOAL_CASES_PER_SECOND} s`}`}`);
