// The opener probe on a llama.cpp engine (llama-server, or llama-server's own code in the page):
// the text is tokenized as the model's tokenizer writes it, then one short completion of the
// prompt runs under a grammar that allows exactly those tokens (llama.cpp's `<[id]>` token
// syntax), greedy, with one probability per token. llama.cpp records each token's probability
// from the logits before the grammar (n_probs without post_sampling_probs), so the numbers stay
// the model's own: their product is the probability that the model writes the text there in
// its tokenizer's own tokens (another tokenization of the same text is not counted).
//
// Why tokens and not the text: a grammar of the text alone lets llama.cpp pick any tokens that
// spell it, and it does not pick the likeliest — on SmolLM2 `<tool_call>` came out as `<`, `t`,
// `oo`, `l`, `_`…, a path hundreds of times less likely than the model's own `<tool`, `_`, `call`, `>`.
import type { Engine, TextProbe } from "toolcall-middleware/types.ts";

/** A llama.cpp grammar whose only sentence is these tokens, in order. */
export function onlyTokensGrammar(ids: readonly number[]): string {
  return `root ::= ${ids.map((id) => `<[${id}]>`).join(" ")}`;
}

/** Runs the probe through the engine's own generate (which sends settings.grammar and n_probs as llama.cpp takes them). */
export async function probeTextWith(engine: Pick<Engine, "generate">, tokenize: (text: string, signal: AbortSignal) => Promise<number[]>, prompt: string, text: string, signal: AbortSignal): Promise<TextProbe> {
  if (text === "") throw new Error("Nothing to probe: the text is empty.");
  const ids = await tokenize(text, signal);
  if (ids.length === 0) throw new Error(`The tokenizer wrote ${JSON.stringify(text)} as no tokens.`);
  const tokens: TextProbe["tokens"] = [];
  let read: TextProbe["read"];
  for await (const chunk of engine.generate(prompt, { temperature: 0, maxTokens: ids.length, grammar: onlyTokensGrammar(ids) }, signal, { topProbabilities: 1 })) {
    if (chunk.type === "usage" && chunk.usage.prefilledTokens !== undefined) read = { prefilledTokens: chunk.usage.prefilledTokens, reusedTokens: chunk.usage.reusedTokens ?? 0 };
    if (chunk.type !== "text") continue;
    for (const token of chunk.tokens ?? []) tokens.push({ text: token.text, p: token.p, ...(token.id !== undefined ? { id: token.id } : {}) });
  }
  if (signal.aborted) throw new DOMException("The probe was stopped.", "AbortError");
  const wrote = tokens.map((t) => t.id);
  if (wrote.length !== ids.length || wrote.some((id, i) => id !== ids[i])) throw new Error(`The probe wrote the tokens ${JSON.stringify(wrote)}, not ${JSON.stringify(ids)}.`);
  return { text, p: tokens.reduce((product, t) => product * t.p, 1), tokens, ...(read ? { read } : {}) };
}

/** Tokenizations kept per engine: a protocol's markers are a handful of short texts. */
const REMEMBERED_TOKENIZATIONS = 64;

/**
 * The tokenizer, remembering what it wrote: every probe of a step asks for the same markers'
 * tokens, and on llama-server each asking is a request of its own (`/tokenize`) before the
 * probe's completion. A failed or stopped tokenization is not remembered.
 */
export function rememberTokenizations(tokenize: (text: string, signal: AbortSignal) => Promise<number[]>): (text: string, signal: AbortSignal) => Promise<number[]> {
  const known = new Map<string, readonly number[]>();
  return async (text, signal) => {
    const kept = known.get(text);
    if (kept) return [...kept];
    const ids = await tokenize(text, signal);
    if (known.size >= REMEMBERED_TOKENIZATIONS) known.delete(known.keys().next().value!);
    known.set(text, [...ids]);
    return ids;
  };
}
