// llama-server's own endpoints (not the OpenAI ones) that tests and the benchmark ask:
// /apply-template, /tokenize, /props, /completion. See tools/server/README.md in llama.cpp.

/**
 * Where a llama-server is and the key it asks for: a started server (llama-server-process.ts)
 * is one. A bare origin string is a server started without a key.
 */
export type ServerAddress = string | { url: string; apiKey?: string };

function originOf(server: ServerAddress): string {
  return typeof server === "string" ? server : server.url;
}

function authOf(server: ServerAddress): Record<string, string> {
  return typeof server !== "string" && server.apiKey ? { Authorization: `Bearer ${server.apiKey}` } : {};
}

export interface ChatTurn {
  role: string;
  content: string;
}

async function post<T>(server: ServerAddress, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${originOf(server)}${path}`, { method: "POST", headers: { ...authOf(server), "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`llama-server ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** The prompt llama-server's chat template renders for these messages, generation prompt included. */
export async function applyTemplate(server: ServerAddress, messages: ChatTurn[]): Promise<string> {
  return (await post<{ prompt: string }>(server, "/apply-template", { messages })).prompt;
}

/** Token ids of a text; control tokens written in it are parsed as tokens (parse_special). */
export async function tokenize(server: ServerAddress, content: string, options: { addSpecial?: boolean; parseSpecial?: boolean } = {}): Promise<number[]> {
  const { tokens } = await post<{ tokens: Array<number | { id: number }> }>(server, "/tokenize", { content, add_special: options.addSpecial ?? false, parse_special: options.parseSpecial ?? true });
  return tokens.map((token) => (typeof token === "number" ? token : token.id));
}

export interface ServerProps {
  chat_template: string;
  bos_token: string;
  eos_token: string;
  model_path: string;
  build_info: string;
}

export async function props(server: ServerAddress): Promise<ServerProps> {
  const response = await fetch(`${originOf(server)}/props`, { headers: authOf(server) });
  if (!response.ok) throw new Error(`llama-server /props answered ${response.status}`);
  return (await response.json()) as ServerProps;
}

export interface Timings {
  cache_n: number;
  prompt_n: number;
  prompt_ms: number;
  prompt_per_second: number;
  predicted_n: number;
  predicted_ms: number;
  predicted_per_second: number;
}

/** One generated token with its alternatives, as /completion sends them when `n_probs` is asked (before sampling unless `post_sampling_probs`). */
export interface CompletionProbability {
  id: number;
  logprob: number;
  top_logprobs: Array<{ id: number; token: string; logprob: number }>;
}

export interface CompletionResult {
  content: string;
  tokens: number[];
  stop_type: string;
  stopping_word: string;
  tokens_evaluated: number;
  timings: Timings;
  /** With `n_probs`: each generated token's probabilities. */
  completion_probabilities?: CompletionProbability[];
}

/** llama.cpp's own /completion, not streamed. */
export async function completion(server: ServerAddress, body: Record<string, unknown>): Promise<CompletionResult> {
  return post<CompletionResult>(server, "/completion", { stream: false, ...body });
}

/** llama-server's own probabilities of the next token after these token ids, by id (before sampling, as n_probs gives them). */
export async function nextTokenProbabilities(server: ServerAddress, ids: number[], n: number): Promise<Map<number, number>> {
  const reply = await completion(server, { prompt: ids, n_predict: 1, n_probs: n, temperature: 0, cache_prompt: true });
  return new Map(reply.completion_probabilities![0]!.top_logprobs.map((a) => [a.id, Math.exp(a.logprob)]));
}
