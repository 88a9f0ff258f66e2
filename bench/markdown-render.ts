// Markdown parsing cost on hostile and ordinary model output: for each shape, the parser's work
// units and CPU time per character at 10k, 100k and 1M characters. Flat figures across sizes
// mean linear work; the work units are what markdown-bounds.test.ts checks.
// (Measured once against markdown-it 14's parse on the same shapes, 2026-11-22: 0.6–4.8 µs per
// character against 0.01–0.35 here, and past its nesting limit it drops the rest of the text —
// ">"×4000 + " deep" loses "deep" — so the lab keeps its own small parser.)
import { parseMarkdown } from "../src/ui/markdown/parse-markdown.ts";
import { processCpuMs } from "./peer-parser.ts";

const shapes: [name: string, make: (n: number) => string][] = [
  ["prose with Markdown", (n) => "Some **bold** and *italic* text with `code` and [a link](https://example.com).\n\n".repeat(Math.ceil(n / 80))],
  ["quote nested n deep", (n) => ">".repeat(n) + " deep"],
  ["list nested n deep", (n) => "- ".repeat(n / 2) + "x"],
  ["lone stars", (n) => "a " + "* ".repeat(n / 2)],
  ["unclosed strong", (n) => "**a ".repeat(n / 4)],
  ["nested emphasis", (n) => "*a ".repeat(n / 6) + "b" + " c*".repeat(n / 6)],
  ["open brackets", (n) => "[".repeat(n)],
  ["backtick runs", (n) => Array.from({ length: n / 21 }, (_, i) => "`".repeat(1 + (i % 40))).join(" ")],
];

export function runMarkdownBenchmark(): void {
  console.log("\nMarkdown parse (work units and CPU µs per character; flat = linear)");
  console.log(["shape".padEnd(22), ...[10_000, 100_000, 1_000_000].map((n) => `${n / 1000}k chars`.padStart(22))].join(""));
  for (const [name, make] of shapes) {
    const cells = [10_000, 100_000, 1_000_000].map((n) => {
      const text = make(n);
      const meter = { steps: 0 };
      parseMarkdown(text, meter);
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const start = processCpuMs();
        parseMarkdown(text);
        best = Math.min(best, processCpuMs() - start);
      }
      return `${(meter.steps / text.length).toFixed(1)} u · ${((best * 1000) / text.length).toFixed(2)} µs`.padStart(22);
    });
    console.log([name.padEnd(22), ...cells].join(""));
  }
}
