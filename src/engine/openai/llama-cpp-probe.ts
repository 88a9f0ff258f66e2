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
 * The most of an /apply-template answer read: room for a prompt of SERVER_PROMPT_CHARS
 * characters written as JSON escapes (`\u202e` is 6 bytes a character). A longer answer is
 * cancelled as it arrives, never read whole into the page.
 */
export const APPLY_TEMPLATE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The prompt llama.cpp's server renders from a chat completions body: POST /apply-template takes
 * the same body and answers `{ prompt }` without generating. Native mode records it, so the
 * debugger shows the text the model read and whether the server's template kept the tools.
 *
 * No redirect is followed (`redirect: "manual"`): a 307 would re-POST the conversation to
 * wherever it points, and that origin's answer would be shown as the server's rendering. An
 * answer over APPLY_TEMPLATE_MAX_BYTES is refused while it arrives.
 */
export async function llamaCppRenderedPrompt(
  baseUrl: string,
  body: Record<string, unknown>,
  signal: AbortSignal,
  headers: Record<string, string>,
  fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis),
  maxBytes = APPLY_TEMPLATE_MAX_BYTES,
): Promise<string> {
  const url = `${serverOrigin(baseUrl)}/apply-template`;
  const response = await fetchImpl(url, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
    redirect: "manual",
    signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]),
  });
  // A browser hides a manual redirect's status and target ("opaqueredirect", status 0); Node shows the 3xx.
  if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
    await response.body?.cancel().catch(() => {});
    const target = response.headers.get("location");
    throw new Error(`${url} answered with a redirect${target ? ` to ${target}` : ""}; the lab follows no redirect from /apply-template, so the request was not sent on`);
  }
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const { prompt } = JSON.parse(await readAtMost(response, maxBytes, url)) as { prompt?: unknown };
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

/** The response's body as text, refused (and the rest cancelled) once it passes `maxBytes`. */
async function readAtMost(response: Response, maxBytes: number, url: string): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new Error(`${url} answered more than ${maxBytes.toLocaleString("en-US")} bytes; the rendered prompt was not kept`);
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}
