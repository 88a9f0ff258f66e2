// Deriving a protocol from a chat template, timed: `npm run --silent bench:derive-protocol`.
// For each template of llama.cpp's models/templates/ (the fixtures of
// src/engine/templates/llama-cpp-templates/) whose protocol can be derived, the time of one
// derivation (the probe renders through the bounded Jinja renderer, the analysis, the protocol),
// the best and the median of RUNS, against the page's goal of 50 ms. Then the derived parsers'
// cost: a stream of the template's own two-call turns (about 1 MB and 100 KB, chunks of 1–4
// characters), CPU ms per MB, so that the per-byte cost across sizes shows the work stays linear.
// Wall time on a shared machine: other work shows in the figures; the best is the least disturbed.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chunksOf1To4, ROUND_TRIP_TOOLS } from "toolcall-middleware/derive/round-trip.ts";
import { templateAssistantOutput } from "toolcall-middleware/derive/template-output.ts";
import { parseChunks } from "toolcall-middleware/parser/collect.ts";
import { deriveFromTemplate } from "../src/engine/templates/derived-from-template.ts";
import { processCpuMs } from "./peer-parser.ts";

const DIR = "src/engine/templates/llama-cpp-templates";
const RUNS = 7;
const GOAL_MS = 50;
/** Bounds wide enough that a loaded machine does not refuse a render: the time is what is measured. */
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function main(): void {
  const rows: string[] = ["| template | best ms | median ms | parse CPU ms per MB at 100 KB | at 1 MB |", "| --- | --- | --- | --- | --- |"];
  let underGoal = 0;
  let derived = 0;
  const medians: number[] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith(".jinja")).sort()) {
    const source = readFileSync(join(DIR, file), "utf8");
    const times: number[] = [];
    let last: ReturnType<typeof deriveFromTemplate> | undefined;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      last = deriveFromTemplate(source, file, BUDGET);
      times.push(performance.now() - started);
    }
    if (!last?.ok) continue;
    derived++;
    const best = Math.min(...times);
    const mid = median(times);
    medians.push(mid);
    if (mid <= GOAL_MS) underGoal++;
    const tools = ROUND_TRIP_TOOLS.map((t) => ({ type: "function", function: t }));
    const calls = [
      { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } },
      { name: "add_numbers", arguments: { a: 2, b: 3.5, flags: [true, false], meta: { x: null } } },
    ];
    const turn = `${templateAssistantOutput(last.render, "Checking.", last.format.oneCallPerTurn ? calls.slice(0, 1) : calls, tools)}\n`;
    const perMb = (bytes: number) => {
      const text = turn.repeat(Math.max(1, Math.round(bytes / turn.length)));
      const chunks = chunksOf1To4(text);
      let bestCpu = Infinity;
      for (let i = 0; i < 3; i++) {
        const cpu = processCpuMs();
        parseChunks(last.ok ? last.protocol : (undefined as never), ROUND_TRIP_TOOLS, chunks);
        bestCpu = Math.min(bestCpu, processCpuMs() - cpu);
      }
      return (bestCpu / text.length) * 1_000_000;
    };
    rows.push(`| ${file} | ${best.toFixed(1)} | ${mid.toFixed(1)} | ${perMb(100_000).toFixed(0)} | ${perMb(1_000_000).toFixed(0)} |`);
  }
  process.stdout.write(`${rows.join("\n")}\n\n`);
  process.stdout.write(`${derived} templates derived; median derivation ${median(medians).toFixed(1)} ms over templates; ${underGoal} of ${derived} within the ${GOAL_MS} ms goal (median of ${RUNS} runs each).\n`);
}

main();
