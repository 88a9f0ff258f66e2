// The body of one raw completion on llama.cpp in the page, in llama-server's own field names
// (wllama hands it to llama-server's request schema as JSON): the prompt as the runtime must see
// it, the step's sampling settings and stops, a GBNF grammar where the step has one, and the
// prompt cache on (the step before's tokens are reused where the new prompt extends them), and
// n_probs where the step records its tokens' probabilities; llama.cpp reports how far it has read
// the prompt as it reads it (return_progress), so the page can say so before the first token.
import type { GenerationSettings } from "toolcall-middleware/types.ts";
import { promptForRuntime, type BosHandling } from "./runtime-prompt.ts";

export interface CompletionBody {
  prompt: string;
  stream: true;
  cache_prompt: true;
  n_predict?: number;
  temperature?: number;
  top_p?: number;
  repeat_penalty?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  seed?: number;
  stop?: string[];
  grammar?: string;
  /** Report each generated token's probability and this many alternatives (llama.cpp's n_probs). */
  n_probs?: number;
  /** Report how far the prompt is read after each batch (llama.cpp's prompt_progress chunks). */
  return_progress: true;
  /** Tokens banned: llama-server's `[[id, false]]` pairs. */
  logit_bias?: Array<[number, false]>;
}

// A lone UTF-16 surrogate (half of an emoji cut off, from a file, a tool or a server) has no UTF-8
// form: wllama sends the body as JSON, where it becomes "\ud800", which llama.cpp's JSON reader
// refuses by throwing inside the runtime (the call then ends with no reply). UTF-8 encoders write
// U+FFFD for it, and so does the runtime's tokenizer for the same text, so the body does too.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const wellFormed = (text: string) => text.replace(LONE_SURROGATE, "\uFFFD");

export function completionBody(prompt: string, settings: GenerationSettings, bos: BosHandling, topProbabilities?: number): CompletionBody {
  const body: CompletionBody = { prompt: wellFormed(promptForRuntime(prompt, bos)), stream: true, cache_prompt: true, return_progress: true };
  if (settings.maxTokens !== undefined) body.n_predict = settings.maxTokens;
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.repetitionPenalty !== undefined) body.repeat_penalty = settings.repetitionPenalty;
  if (settings.presencePenalty !== undefined) body.presence_penalty = settings.presencePenalty;
  if (settings.frequencyPenalty !== undefined) body.frequency_penalty = settings.frequencyPenalty;
  if (settings.seed !== undefined && Number.isInteger(settings.seed)) body.seed = settings.seed;
  const stop = settings.stop?.filter(Boolean);
  if (stop?.length) body.stop = stop.map(wellFormed);
  if (settings.grammar) body.grammar = wellFormed(settings.grammar);
  if (topProbabilities !== undefined && Number.isInteger(topProbabilities) && topProbabilities > 0) body.n_probs = topProbabilities;
  return body;
}
