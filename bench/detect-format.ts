// "Which format is this output?" over 100 KB: every registered protocol's parser reads the whole
// output (goal: ≤ 20 ms for all protocols together). Outputs: prose, many calls in one format
// (Hermes, Llama 3 JSON) and a mix of every format's calls. Also the cost of recording top-5
// token probabilities in a saved log (its exported size with and without them).
import { detectFormats } from "toolcall-middleware/probabilities/detect-format.ts";
import { protocolsWithSamples } from "toolcall-middleware/protocols/testing/protocol-samples.ts";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { encodeEventLog } from "../src/persistence/shared-text.ts";
import { syntheticTokenLog } from "../src/persistence/synthetic-token-log.test-helper.ts";

const TARGET = 100_000;
const tools = [{ name: "get_weather", description: "d", parameters: { type: "object", properties: { city: { type: "string" } } } }];

function fill(piece: (i: number) => string): string {
  let out = "";
  for (let i = 0; out.length < TARGET; i++) out += piece(i);
  return out.slice(0, TARGET);
}

function best(run: () => void, passes = 7): number {
  run();
  let fastest = Infinity;
  for (let i = 0; i < passes; i++) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

export async function runDetectFormatBenchmark(): Promise<void> {
  const all = await protocolsWithSamples();
  const sample = (name: string) => all.find((x) => x.protocol.name === name)!.samples.benchOutput;
  const call = (i: number) => ({ id: `c${i}`, name: "get_weather", arguments: { city: `City number ${i}` } });
  const outputs: Record<string, string> = {
    prose: fill((i) => `Sentence ${i} of plain prose about the weather, with [brackets], {braces} and <angle> marks.\n`),
    "hermes calls": fill((i) => sample("hermes")(call(i)) + "\n"),
    "llama3-json calls": fill((i) => sample("llama3-json")(call(i)) + "\n"),
    "every format's calls": fill((i) => all[i % all.length]!.samples.benchOutput(call(i)) + "\n"),
  };
  console.log(`\nAuto-detect ("which format is this output?"): all ${all.length} protocols' parsers over 100 KB (best of 7; goal ≤ 20 ms)`);
  for (const [name, output] of Object.entries(outputs)) {
    let found = 0;
    const ms = best(() => {
      found = detectFormats(output, tools).length;
    });
    console.log(`  ${name.padEnd(24)} ${ms.toFixed(1).padStart(7)} ms   formats with calls: ${found}`);
  }

  // A 2,000-token reply recorded with and without its tokens' top-5 alternatives (issue #31: ≤ 3x).
  const size = (log: LoopEvent[]) => JSON.stringify(encodeEventLog(log)).length;
  const without = size(syntheticTokenLog(null));
  for (const kind of ["simple", "server-like"] as const) {
    const log = syntheticTokenLog(kind);
    const withTokens = size(log);
    const asRecorded = JSON.stringify(log).length;
    console.log(
      `Exported size of a 2,000-token reply (${kind} probabilities): ${without.toLocaleString("en-US")} chars without, ${withTokens.toLocaleString("en-US")} with top 5 (${(withTokens / without).toFixed(2)}x; goal ≤ 3x; the events as recorded: ${asRecorded.toLocaleString("en-US")})`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runDetectFormatBenchmark();
