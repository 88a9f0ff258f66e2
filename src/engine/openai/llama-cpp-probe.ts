// What the lab must know about a llama.cpp server (llama-server) that its OpenAI API does not say:
// whether it puts a BOS token before every string prompt itself. llama-server tokenizes a
// /v1/completions prompt with its special tokens added and ignores `add_special_tokens: false`, so
// a prompt whose template writes its own BOS text (Gemma's `<bos>`) would start with two BOS
// tokens. Asked once on connecting: GET /props (llama.cpp's own endpoint, with its `bos_token`) and
// POST /tokenize of "" with add_special (one token when the model's metadata says add_bos).
// Any other server answers /props with an error or something else: then nothing is known, and the
// prompt is sent as rendered.

export interface LlamaCppFacts {
  /** The BOS token's text when the server adds it to every string prompt itself ("<bos>"). */
  bosAddedByServer?: string;
}

/** A probe must never hold up connecting: a server that does not answer is not llama.cpp. */
const PROBE_TIMEOUT_MS = 3_000;

/** http://host:port/v1 → http://host:port (llama.cpp's own endpoints live beside /v1). */
function serverOrigin(baseUrl: string): string {
  return baseUrl.replace(/\/v1\/?$/, "");
}

export async function probeLlamaCpp(baseUrl: string, apiKey?: string, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<LlamaCppFacts | undefined> {
  const origin = serverOrigin(baseUrl);
  const auth: Record<string, string> = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
  try {
    const propsResponse = await fetchImpl(`${origin}/props`, { headers: auth, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!propsResponse.ok) return undefined;
    const serverProps = (await propsResponse.json()) as { bos_token?: unknown; build_info?: unknown };
    if (typeof serverProps?.bos_token !== "string" || typeof serverProps.build_info !== "string") return undefined;
    const tokenized = await fetchImpl(`${origin}/tokenize`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ content: "", add_special: true }),
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    if (!tokenized.ok) return {};
    const { tokens } = (await tokenized.json()) as { tokens?: unknown };
    const addsBos = Array.isArray(tokens) && tokens.length > 0 && serverProps.bos_token !== "";
    return addsBos ? { bosAddedByServer: serverProps.bos_token } : {};
  } catch {
    return undefined;
  }
}

/**
 * The text prompt mode sends: the rendered prompt without the leading BOS text the server will
 * put back as a token itself, so the model reads one BOS, not two.
 */
export function promptToSend(prompt: string, facts: LlamaCppFacts | undefined): string {
  const bos = facts?.bosAddedByServer;
  return bos && prompt.startsWith(bos) ? prompt.slice(bos.length) : prompt;
}

/**
 * The prompt llama.cpp's server renders from a chat completions body: POST /apply-template takes
 * the same body and answers `{ prompt }` without generating. Native mode records it, so the
 * debugger shows the text the model read and whether the server's template kept the tools.
 */
export async function llamaCppRenderedPrompt(baseUrl: string, body: Record<string, unknown>, signal: AbortSignal, headers: Record<string, string>, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<string> {
  const url = `${serverOrigin(baseUrl)}/apply-template`;
  const response = await fetchImpl(url, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]),
  });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const { prompt } = (await response.json()) as { prompt?: unknown };
  if (typeof prompt !== "string") throw new Error(`${url} answered without a prompt string`);
  return prompt;
}

/** A text's token ids as llama.cpp's server reads it (POST /tokenize; control tokens written in it parsed as tokens, nothing added). */
export async function llamaCppTokenize(baseUrl: string, text: string, signal: AbortSignal, headers: Record<string, string>, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<number[]> {
  const response = await fetchImpl(`${serverOrigin(baseUrl)}/tokenize`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ content: text, add_special: false, parse_special: true }),
    signal,
  });
  if (!response.ok) throw new Error(`llama.cpp's /tokenize answered ${response.status}.`);
  const { tokens } = (await response.json()) as { tokens?: unknown };
  if (!Array.isArray(tokens) || !tokens.every((t) => Number.isSafeInteger(t))) throw new Error("llama.cpp's /tokenize answered without token ids.");
  return tokens as number[];
}

