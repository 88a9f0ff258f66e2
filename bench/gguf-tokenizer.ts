// The GGUF tokenizer's benchmark (figures printed, never asserted): for each real model in the
// cache, reading its metadata and building the tokenizer, then tokens per second on mixed texts
// of growing size (the time per KB should stay flat: linear work) and on shapes that could make a
// tokenizer quadratic (one very long word, no spaces at all, thousands of "<" near special tokens).
import { readGgufMetadata } from "../src/gguf/gguf-metadata.ts";
import { missingModel, realModel, withFileReader } from "../scripts/real-models/model-files.ts";
import { GgufTokenizer } from "../src/tokens/gguf/gguf-tokenizer.ts";

const MIXED =
  "The quick brown fox jumps over the lazy dog; it's 42.195 km (26.2 miles). 日本語のテキスト、한국어, Ελληνικά. " +
  "```js\nfunction area(r) { return Math.PI * r ** 2; } // 3.14159\n```\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n\n";

function mixedText(bytes: number): string {
  return MIXED.repeat(Math.ceil(bytes / MIXED.length)).slice(0, bytes);
}

function time(run: () => number): { ms: number; tokens: number } {
  const start = performance.now();
  const tokens = run();
  return { ms: performance.now() - start, tokens };
}

export async function runGgufTokenizerBenchmark(): Promise<void> {
  console.log("\n== GGUF tokenizer (Node, the lab's own, from each model's GGUF vocabulary) ==");
  for (const id of ["smollm2-135m-instruct-q4_1", "gemma-3-270m-q4_k_m"]) {
    const model = realModel(id);
    const missing = missingModel(model);
    if (missing) {
      console.log(`${id}: not measured — ${missing}`);
      continue;
    }
    const loadStart = performance.now();
    const metadata = await withFileReader(model.path, (read) => readGgufMetadata(read));
    const read = performance.now() - loadStart;
    const tokenizer = GgufTokenizer.fromMetadata(metadata);
    const built = performance.now() - loadStart - read;
    console.log(`${id}: metadata read ${read.toFixed(0)} ms (${(metadata.metadataBytes / 1e6).toFixed(1)} MB), tokenizer built ${built.toFixed(0)} ms`);
    tokenizer.encode(mixedText(4096)); // warm-up
    for (const kb of [16, 64, 256]) {
      const text = mixedText(kb * 1024);
      const fresh = GgufTokenizer.fromMetadata(metadata); // no word cache carried over
      const { ms, tokens } = time(() => fresh.encode(text).length);
      console.log(`  mixed ${String(kb).padStart(3)} KB: ${tokens} tokens in ${ms.toFixed(0)} ms — ${Math.round(tokens / (ms / 1000)).toLocaleString("en")} tokens/s, ${(ms / kb).toFixed(2)} ms per KB`);
    }
    const shapes: Record<string, string> = {
      "one 64 KB word (aaaa…)": "a".repeat(64 * 1024),
      "64 KB without spaces (mixed letters)": "abcdefghij".repeat(6554),
      "64 KB of '<|' and '<start'": "<|<start_of<".repeat(5462),
      "64 KB of spaces": " ".repeat(64 * 1024),
    };
    for (const [name, text] of Object.entries(shapes)) {
      const fresh = GgufTokenizer.fromMetadata(metadata);
      const { ms, tokens } = time(() => fresh.encode(text).length);
      console.log(`  ${name}: ${tokens} tokens in ${ms.toFixed(0)} ms`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runGgufTokenizerBenchmark();
