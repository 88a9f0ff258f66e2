// A streamed choice's `logprobs` as the tokens the event log records. Servers write it two ways:
// OpenAI's legacy completions shape (vLLM, SGLang: `tokens`, `token_logprobs`, `top_logprobs` as
// maps from token to logprob) and the chat shape that llama.cpp's server also uses on
// /v1/completions (`content: [{ token, logprob, top_logprobs: [{ token, logprob }] }]`).
// Whatever does not have the shape is left out, never guessed.
import { MAX_TOP_PROBABILITIES } from "toolcall-middleware/event-log-schema.ts";
import type { TokenAlternative, TokenProbability } from "toolcall-middleware/types.ts";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A log-probability as a probability; llama.cpp writes the lowest float for a probability of 0. */
function probability(logprob: unknown): number | undefined {
  if (typeof logprob !== "number" || Number.isNaN(logprob)) return undefined;
  return Math.min(1, Math.max(0, Math.exp(logprob)));
}

function alternative(entry: unknown): TokenAlternative | undefined {
  if (!isRecord(entry) || typeof entry.token !== "string") return undefined;
  const p = probability(entry.logprob) ?? (typeof entry.prob === "number" ? Math.min(1, Math.max(0, entry.prob)) : undefined);
  if (p === undefined) return undefined;
  return { text: entry.token, p, ...(Number.isSafeInteger(entry.id) ? { id: entry.id as number } : {}) };
}

function byProbability(alternatives: Array<TokenAlternative | undefined>): TokenAlternative[] {
  return alternatives
    .filter((a): a is TokenAlternative => a !== undefined)
    .sort((a, b) => b.p - a.p)
    .slice(0, MAX_TOP_PROBABILITIES);
}

/** The chat shape: `{ content: [{ token, logprob, top_logprobs: [...] }] }` (or `top_probs` with `prob`, llama.cpp's post-sampling form). */
function fromContent(content: unknown[]): TokenProbability[] {
  const tokens: TokenProbability[] = [];
  for (const entry of content) {
    const token = alternative(entry);
    if (!token || !isRecord(entry)) continue;
    const top = Array.isArray(entry.top_logprobs) ? entry.top_logprobs : Array.isArray(entry.top_probs) ? entry.top_probs : [];
    tokens.push({ ...token, top: byProbability(top.map(alternative)) });
  }
  return tokens;
}

/** OpenAI's legacy completions shape: parallel lists, alternatives as `{ token: logprob }` maps. */
function fromLists(texts: unknown[], logprobs: unknown, top: unknown): TokenProbability[] {
  const tokens: TokenProbability[] = [];
  for (const [i, text] of texts.entries()) {
    const p = probability(Array.isArray(logprobs) ? logprobs[i] : undefined);
    if (typeof text !== "string" || p === undefined) continue;
    const map = Array.isArray(top) ? top[i] : undefined;
    const alternatives = isRecord(map) ? Object.entries(map).map(([token, logprob]) => alternative({ token, logprob })) : [];
    tokens.push({ text, p, top: byProbability(alternatives) });
  }
  return tokens;
}

/** The tokens a streamed choice's `logprobs` reports, or undefined where it reports none. */
export function tokensFromLogprobs(logprobs: unknown): TokenProbability[] | undefined {
  if (!isRecord(logprobs)) return undefined;
  const tokens = Array.isArray(logprobs.content) ? fromContent(logprobs.content) : Array.isArray(logprobs.tokens) ? fromLists(logprobs.tokens, logprobs.token_logprobs, logprobs.top_logprobs) : [];
  return tokens.length > 0 ? tokens : undefined;
}
