// Which tokenizer reads a step's prompt: the loaded model's own (WebLLM's pipeline in its
// worker, or one built from a GGUF model's vocabulary in the lab's tokenizer worker) when the
// step's template is that model's family; else the lab's
// Qwen3 tokenizer for Qwen3's template (the replay engine's); else none — and the view says so.
import type { TokenizedText } from "./token-spans.ts";

export interface TokenizerSource {
  /** Identifies the tokenizer (a cache key). */
  id: string;
  /** For the person: whose tokenizer counted. */
  label: string;
  tokenize: (text: string, controlTokens: readonly string[]) => Promise<TokenizedText>;
}

export type TokenizerChoice = { kind: "available"; source: TokenizerSource } | { kind: "unavailable"; reason: string };

export interface LoadedModelTokenizer {
  modelId: string;
  /** The loaded model's conversation template name (e.g. "qwen3"). */
  templateName: string | undefined;
  tokenize: (text: string, controlTokens: readonly string[]) => Promise<TokenizedText>;
  /** Whose tokenizer it is, for the person (default: the WebLLM model's own). */
  label?: string;
  /** A cache key for the tokenizer (default: the WebLLM model id). */
  sourceId?: string;
}

/** The template's name without the thinking note ("qwen3 (thinking off)" is Qwen3's). */
export function templateFamily(template: string): string {
  return template.replace(/ \(thinking off\)$/, "");
}

export function chooseTokenizer(template: string, loaded: LoadedModelTokenizer | null, qwen3: TokenizerSource): TokenizerChoice {
  const family = templateFamily(template);
  if (loaded && loaded.templateName === family) {
    return {
      kind: "available",
      source: { id: loaded.sourceId ?? `webllm:${loaded.modelId}`, label: loaded.label ?? `${loaded.modelId}'s own tokenizer (WebLLM)`, tokenize: loaded.tokenize },
    };
  }
  if (family === "qwen3") return { kind: "available", source: qwen3 };
  return {
    kind: "unavailable",
    reason: `No tokenizer for the "${template}" template is available: the lab has Qwen3's; load a WebLLM model of this family to count with its own. Nothing is estimated.`,
  };
}

/** Remembers recent tokenizations (the token view, the counts and the budget share one). */
export class TokenizationCache {
  private readonly entries = new Map<string, Promise<TokenizedText>>();
  constructor(private readonly capacity = 48) {}

  get(source: TokenizerSource, text: string, controlTokens: readonly string[]): Promise<TokenizedText> {
    const key = `${source.id}\u0000${controlTokens.join("\u0001")}\u0000${text}`;
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    const started = source.tokenize(text, controlTokens);
    // A failure is not remembered: the next view asks again.
    started.catch(() => this.entries.delete(key));
    this.entries.set(key, started);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return started;
  }
}
