// Unfinished calls (issue 29 item 14): replies made of cut-off calls, `<tool_call>{` over and
// over (one call per 12 characters), as a server sent them to Evaluate, through the hermes
// parser in pieces of 4,096 characters (as Evaluate hands them on). Prints CPU ns per character
// at 50 KB, 500 KB and 5 MB, the 5 MB÷50 KB ratio (≈1: linear work) and the longest piece.
// Before the strict-parse shortcut (json-repair.ts mayBeStrictJson) each cut-off call threw a
// SyntaxError in JSON.parse: ≈720–780 ns per character for `<tool_call>{` at every size
// (linear, but ≈8 times the cost now), ≈90 ns after.
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { processCpuMs } from "./peer-parser.ts";

const SIZES = [
  { label: "50 KB", chars: 50_000 },
  { label: "500 KB", chars: 500_000 },
  { label: "5 MB", chars: 5_000_000 },
];
const PIECE = 4_096;
const SHAPES: Record<string, string> = {
  "<tool_call>{": "<tool_call>{",
  "<tool_call>{\\n": "<tool_call>{\n",
  'cut-off arguments (<tool_call>{"name": …"1)': '<tool_call>{"name": "calculator", "arguments": {"expression": "1',
};
const tools: ToolSpec[] = [{ name: "calculator", description: "Evaluates", parameters: { type: "object", properties: { expression: { type: "string" } } } }];

/** CPU ns per character of one pass, the cheaper of two, and the longest piece's wall time. */
function measure(raw: string): { nsPerChar: number; longestPieceMs: number } {
  let best = Infinity;
  let longestPieceMs = 0;
  for (let run = 0; run < 2; run++) {
    const start = processCpuMs();
    const parser = getProtocol("hermes")!.createParser(tools);
    for (let at = 0; at < raw.length; at += PIECE) {
      const before = performance.now();
      parser.push(raw.slice(at, at + PIECE));
      longestPieceMs = Math.max(longestPieceMs, performance.now() - before);
    }
    parser.end();
    best = Math.min(best, processCpuMs() - start);
  }
  return { nsPerChar: (best * 1e6) / raw.length, longestPieceMs };
}

export function runParserUnfinished(): void {
  console.log(`\nUnfinished calls through the hermes parser (CPU ns per character at ${SIZES.map((s) => s.label).join(" / ")}; 5 MB÷50 KB, ≈1 = linear; longest ${PIECE}-character piece)`);
  // Warm-up: V8 optimizes the parser within the first few hundred milliseconds.
  measure(SHAPES["<tool_call>{"]!.repeat(20_000));
  for (const [label, unit] of Object.entries(SHAPES)) {
    const results = SIZES.map(({ chars }) => measure(unit.repeat(Math.ceil(chars / unit.length))));
    const ratio = results[2]!.nsPerChar / results[0]!.nsPerChar;
    const longest = Math.max(...results.map((r) => r.longestPieceMs));
    console.log(`  ${label.padEnd(46)} ${results.map((r) => r.nsPerChar.toFixed(0).padStart(6)).join(" ")}   ${ratio.toFixed(2)}   ${longest.toFixed(1)} ms`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) runParserUnfinished();
