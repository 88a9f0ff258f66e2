// The tokens of a text for the debugger's token views and counts, from the tokenizer that
// fits the step (see src/tokens/tokenizer-choice.ts), tokenized off the main thread and shared
// between views. Nothing is tokenized (nor the tokenizer fetched) until a person asks for
// token counts or a token view once; from then on the lab counts every step it shows.
import { useEffect, useMemo, useState } from "react";
import { useStore } from "zustand";
import { useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";
import { templateNameForModel } from "toolcall-middleware/families/registry.ts";
import { qwen3TokenizerUrl, tokenizeInWorker } from "../../tokens/lab-tokenizer.ts";
import type { TokenizedText } from "../../tokens/token-spans.ts";
import { chooseTokenizer, type LoadedModelTokenizer, type TokenizerSource } from "../../tokens/tokenizer-choice.ts";
import type { TokensWanted } from "../../store/tokens-wanted.ts";

/** Whether the person asked for token counts (the page's store, see src/store/tokens-wanted.ts). */
export function useTokensWanted<T>(selector: (state: TokensWanted) => T): T {
  return useStore(useLabStores().tokensWanted, selector);
}

/** The action that turns token counts on, for a button's onClick. */
export function useWantTokens(): () => void {
  return useTokensWanted((s) => s.want);
}

const QWEN3_SOURCE: TokenizerSource = {
  id: "lab:qwen3",
  label: "Qwen3's tokenizer (the lab's copy)",
  tokenize: (text, controlTokens) => tokenizeInWorker(qwen3TokenizerUrl, text, controlTokens),
};

export type Tokenization =
  | { state: "off" }
  | { state: "unavailable"; reason: string }
  | { state: "loading"; label: string }
  | { state: "ready"; label: string; result: TokenizedText }
  | { state: "error"; label: string; message: string };

interface TokenizingEngine {
  tokenize: LoadedModelTokenizer["tokenize"];
}

function hasTokenize(engine: unknown): engine is TokenizingEngine {
  return typeof engine === "object" && engine !== null && typeof (engine as Partial<TokenizingEngine>).tokenize === "function";
}

/** An engine that runs a GGUF file offers its file's own tokenizer (src/tokens/gguf/gguf-model-tokenizer.ts). */
interface GgufTokenizingEngine {
  modelTokenizer: LoadedModelTokenizer;
}

function hasModelTokenizer(engine: unknown): engine is GgufTokenizingEngine {
  const offered = typeof engine === "object" && engine !== null ? (engine as Partial<GgufTokenizingEngine>).modelTokenizer : undefined;
  return typeof offered === "object" && offered !== null && typeof offered.tokenize === "function";
}

/** The active engine's model's own tokenizer: a GGUF engine's (read from its file), else the loaded WebLLM model's. */
function useLoadedModelTokenizer(): LoadedModelTokenizer | null {
  const modelId = useEngineState((s) => s.loadedModelId);
  const engine = useEngineState((s) => s.webllmEngine);
  const active = useEngineState((s) => s.engine);
  return useMemo(() => {
    if (hasModelTokenizer(active)) return active.modelTokenizer;
    if (!modelId || !hasTokenize(engine)) return null;
    return { modelId, templateName: templateNameForModel(modelId), tokenize: (text, controlTokens) => engine.tokenize(text, controlTokens) };
  }, [modelId, engine, active]);
}

/** Tokenizes `text` for a step rendered with `template`, once tokens are wanted (or `force`). */
export function useTokenization(text: string | null, template: string, controlTokens: readonly string[], force = false): Tokenization {
  const wanted = useTokensWanted((s) => s.wanted) || force;
  const cache = useLabStores().tokenizationCache;
  const loaded = useLoadedModelTokenizer();
  const choice = useMemo(() => chooseTokenizer(template, loaded, QWEN3_SOURCE), [template, loaded]);
  const source = choice.kind === "available" ? choice.source : null;
  const key = source && text !== null ? `${source.id}\u0000${controlTokens.join("\u0001")}\u0000${text}` : null;
  const [settled, setSettled] = useState<{ key: string; outcome: Tokenization } | null>(null);

  useEffect(() => {
    if (!wanted || !source || text === null || key === null) return;
    let current = true;
    cache.get(source, text, controlTokens).then(
      (result) => current && setSettled({ key, outcome: { state: "ready", label: source.label, result } }),
      (error: unknown) => current && setSettled({ key, outcome: { state: "error", label: source.label, message: error instanceof Error ? error.message : String(error) } }),
    );
    return () => {
      current = false;
    };
  }, [wanted, source, text, key, controlTokens, cache]);

  if (text === null) return { state: "off" };
  if (choice.kind === "unavailable") return { state: "unavailable", reason: choice.reason };
  if (!wanted) return { state: "off" };
  if (settled && settled.key === key) return settled.outcome;
  return { state: "loading", label: choice.source.label };
}

/** The token counts of several texts (e.g. tool sections), or why there are none. */
export type TokenCounts = { state: "off" } | { state: "unavailable"; reason: string } | { state: "loading" } | { state: "ready"; label: string; counts: number[] } | { state: "error"; message: string };

export function useTokenCounts(texts: readonly string[] | null, template: string, controlTokens: readonly string[]): TokenCounts {
  const wanted = useTokensWanted((s) => s.wanted);
  const cache = useLabStores().tokenizationCache;
  const loaded = useLoadedModelTokenizer();
  const choice = useMemo(() => chooseTokenizer(template, loaded, QWEN3_SOURCE), [template, loaded]);
  const source = choice.kind === "available" ? choice.source : null;
  const key = source && texts ? `${source.id}\u0000${texts.join("\u0002")}` : null;
  const [settled, setSettled] = useState<{ key: string; outcome: TokenCounts } | null>(null);

  useEffect(() => {
    if (!wanted || !source || !texts || key === null) return;
    let current = true;
    Promise.all(texts.map((text) => cache.get(source, text, controlTokens))).then(
      (results) => current && setSettled({ key, outcome: { state: "ready", label: source.label, counts: results.map((r) => r.ids.length) } }),
      (error: unknown) => current && setSettled({ key, outcome: { state: "error", message: error instanceof Error ? error.message : String(error) } }),
    );
    return () => {
      current = false;
    };
  }, [wanted, source, texts, key, controlTokens, cache]);

  if (!texts) return { state: "off" };
  if (choice.kind === "unavailable") return { state: "unavailable", reason: choice.reason };
  if (!wanted) return { state: "off" };
  if (settled && settled.key === key) return settled.outcome;
  return { state: "loading" };
}
