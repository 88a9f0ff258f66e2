// The opener probe on a llama.cpp engine (llama-server, or llama-server's own code in the page):
// one short completion of the prompt whose grammar allows only the probed text, greedy, with one
// probability per token. llama.cpp records each token's probability from the logits before the
// grammar (n_probs without post_sampling_probs), so the grammar picks the tokens and the numbers
// stay the model's own: the product is the probability that the model writes the text there,
// along the tokens llama.cpp wrote it with (another tokenization of the same text is not counted).
import { gbnfLiteral } from "toolcall-middleware/grammar/gbnf-builder.ts";
import type { Engine, TextProbe } from "toolcall-middleware/types.ts";

/** A llama.cpp grammar whose only sentence is `text`. */
export function onlyTextGrammar(text: string): string {
  return `root ::= ${gbnfLiteral(text)}`;
}

/** Runs the probe through the engine's own generate (which sends settings.grammar and n_probs as llama.cpp takes them). */
export async function probeTextWith(engine: Pick<Engine, "generate">, prompt: string, text: string, signal: AbortSignal): Promise<TextProbe> {
  if (text === "") throw new Error("Nothing to probe: the text is empty.");
  // Every token writes at least one byte: the text's bytes bound its tokens; one more lets the grammar end.
  const maxTokens = new TextEncoder().encode(text).length + 1;
  const tokens: TextProbe["tokens"] = [];
  let written = "";
  for await (const chunk of engine.generate(prompt, { temperature: 0, maxTokens, grammar: onlyTextGrammar(text) }, signal, { topProbabilities: 1 })) {
    if (chunk.type !== "text") continue;
    written += chunk.text;
    for (const token of chunk.tokens ?? []) tokens.push({ text: token.text, p: token.p, ...(token.id !== undefined ? { id: token.id } : {}) });
  }
  if (signal.aborted) throw new DOMException("The probe was stopped.", "AbortError");
  if (written !== text) throw new Error(`The probe wrote ${JSON.stringify(written)}, not ${JSON.stringify(text)}.`);
  if (tokens.length === 0 || tokens.map((t) => t.text).join("") !== text) throw new Error("The engine sent no probabilities for the probe's tokens.");
  return { text, p: tokens.reduce((product, t) => product * t.p, 1), tokens };
}
