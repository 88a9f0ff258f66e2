// "Which format is this output?" over 100 KB: every registered protocol's parser reads the whole
// output (goal: ≤ 20 ms for all protocols together). Outputs: prose, many calls in one format
// (Hermes, Llama 3 JSON) and a mix of every format's calls. Also the cost of recording top-5
// token probabilities in a saved log (its exported size with and without them).
import { loadavg } from "node:os";
import { detectFormats } from "toolcall-middleware/probabilities/detect-format.ts";
import { protocolsWithSamples } from "toolcall-middleware/protocols/testing/protocol-samples.ts";
import type { LoopEvent } from "toolcall-middleware/types.ts";
import { encodeEventLog } from "../src/log-encoding/shared-text.ts";
import { syntheticTokenLog } from "../src/log-encoding/synthetic-token-log.test-helper.ts";

const TARGET = 100_000;
const tools = [{ name: "get_weather", description: "d", parameters: { type: "object", properties: { city: { type: "string" } } } }];

function fill(piece: (i: number) => string): string {
  let out = "";
  for (let i = 0; out.length < TARGET; i++) out += piece(i);
  return out.slice(0, TARGET);
}

interface Timing {
  wall: number;
  cpu: number;
}

/**
 * Best of `passes` for each of `runs`, their passes interleaved (so neither gains from running
 * after the other has warmed the JIT): wall time, and this process's CPU time (user + system),
 * which a busy shared machine inflates far less (time spent waiting for a core is not counted).
 */
function best(runs: (() => void)[], passes = 9): Timing[] {
  for (const run of runs) run();
  const timings = runs.map(() => ({ wall: Infinity, cpu: Infinity }));
  for (let i = 0; i < passes; i++) {
    runs.forEach((run, r) => {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      run();
      const used = process.cpuUsage(cpuStart);
      timings[r]!.wall = Math.min(timings[r]!.wall, performance.now() - start);
      timings[r]!.cpu = Math.min(timings[r]!.cpu, (used.user + used.system) / 1000);
    });
  }
  return timings;
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
  console.log(`\nAuto-detect ("which format is this output?"): all ${all.length} protocols over 100 KB (best of 9; goal ≤ 20 ms; load average ${loadavg()[0]!.toFixed(2)})`);
  for (const [name, output] of Object.entries(outputs)) {
    let found = 0;
    const [fast, every] = best([
      () => {
        found = detectFormats(output, tools).length;
      },
      () => detectFormats(output, tools, { prescan: false }),
    ]);
    const ms = (t: Timing) => `${t.wall.toFixed(1).padStart(6)} ms (CPU ${t.cpu.toFixed(1).padStart(5)})`;
    console.log(`  ${name.padEnd(24)} ${ms(fast!)}   every parser run: ${ms(every!)}   formats with calls: ${found}`);
  }

  // A 2,000-token reply recorded with and without its tokens' top-5 alternatives (issue #31: ≤ 3x).
  const size = (log: LoopEvent[]) => JSON.stringify(encodeEventLog(log)).length;
  const without = size(syntheticTokenLog(null));
  for (const kind of ["simple", "server-like", "server-exact"] as const) {
    const log = syntheticTokenLog(kind);
    const withTokens = size(log);
    const asRecorded = JSON.stringify(log).length;
    console.log(
      `Exported size of a 2,000-token reply (${kind} probabilities): ${without.toLocaleString("en-US")} chars without, ${withTokens.toLocaleString("en-US")} with top 5 (${(withTokens / without).toFixed(2)}x; goal ≤ 3x; the events as recorded: ${asRecorded.toLocaleString("en-US")})`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runDetectFormatBenchmark();
