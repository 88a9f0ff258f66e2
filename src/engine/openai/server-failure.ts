// Turns what an OpenAI-compatible server, the browser or the network did into a failure a person
// can act on: what went wrong and what to do about it. A refused cross-origin request is told
// apart from an unreachable server by probeReachable (an opaque no-cors request).
import { probeReachable } from "../../net/probe-reachable.ts";

export type ServerFailureKind =
  | "unreachable"
  | "cors"
  | "unauthorized"
  | "unknown-model"
  | "no-completions"
  | "context-overflow"
  | "dropped-stream"
  | "bad-response"
  | "server-error";

export class ServerFailure extends Error {
  override name = "ServerFailure";
  constructor(
    readonly kind: ServerFailureKind,
    message: string,
    readonly suggestion: string,
    readonly detail = "",
  ) {
    super(message);
  }
}

/** The page's origin, as the servers' CORS settings must name it. */
export function pageOrigin(): string {
  return globalThis.location?.origin ?? "http://localhost:5173";
}

export function corsAdvice(origin: string = pageOrigin()): string {
  return (
    `The server must allow this page's origin (${origin}) with CORS. ` +
    `Ollama: start it with OLLAMA_ORIGINS=${origin} ollama serve. ` +
    `vLLM: vllm serve MODEL --allowed-origins '["${origin}"]'. ` +
    `SGLang: put it behind a proxy that sends Access-Control-Allow-Origin, or use its --allowed-origins where your version has it. ` +
    `llama.cpp: llama-server reflects any origin by default; with --cors-origins set, add ${origin}.`
  );
}

/** Why fetch itself threw: a refused cross-origin request, an unreachable server, or an abort. */
export async function explainFetchError(error: unknown, url: string, probe: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<unknown> {
  if (isAbort(error)) return error;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const answered = await probeReachable(url, probe);
  // Only a page (or its worker) has an origin for CORS to refuse. Outside one (`npm run eval` in
  // Node) a request that threw while the server answers a probe lost its connection before any
  // answer: a kept-alive socket the server closed as it was reused, or a server that restarted.
  if (answered && typeof globalThis.location?.origin !== "string")
    return new ServerFailure("unreachable", `The server at ${originOf(url)} answers, but this request got no answer: its connection closed before a response.`, "Send it again; if it keeps happening, check the server's log for restarts or dropped connections.", detail);
  if (answered) return new ServerFailure("cors", `The server at ${originOf(url)} answered, but the browser refused to let this page read it (CORS).`, corsAdvice(), detail);
  return new ServerFailure(
    "unreachable",
    `No server answered at ${originOf(url)}.`,
    "Check that the server is running, the base URL (scheme, host, port, /v1) and your network. A page served over https cannot call a plain http server other than localhost.",
    detail,
  );
}

/** A non-2xx answer, read from its status and its (OpenAI-style) error body. */
export function failureFromResponse(status: number, bodyText: string, context: { endpoint: string; model?: string }): ServerFailure {
  const message = errorMessageOf(bodyText);
  const detail = `HTTP ${status}${message ? `: ${message}` : ""}`;
  if (status === 401 || status === 403) {
    return new ServerFailure("unauthorized", `The server refused the request (${status}): ${message || "not authorised"}.`, "Check the API key (it is sent as Authorization: Bearer …).", detail);
  }
  if (/context|too long|maximum.*length|max_model_len|exceeds|n_ctx/i.test(message) && status >= 400 && status < 500) {
    return new ServerFailure("context-overflow", `The prompt does not fit the model's context window: ${message}`, "Switch off tools you do not need, start a new conversation, lower max tokens, or serve the model with a larger context (vLLM --max-model-len, llama.cpp -c, Ollama num_ctx).", detail);
  }
  if ((status === 404 || status === 400) && /model/i.test(message) && /not (found|exist)|unknown|does not exist|no such/i.test(message)) {
    return new ServerFailure("unknown-model", `The server does not serve the model ${context.model ?? ""}: ${message}`, "Press Connect to list the server's models and pick one of them.", detail);
  }
  if ((status === 404 || status === 405 || status === 501) && context.endpoint.endsWith("/completions") && !context.endpoint.endsWith("/chat/completions")) {
    return new ServerFailure("no-completions", `This server has no raw completions endpoint (${context.endpoint} answered ${status}).`, "Use native mode (chat completions with tools), or a server that offers /v1/completions (vLLM, SGLang, llama.cpp, Ollama all do).", detail);
  }
  return new ServerFailure("server-error", `The server answered ${status}${message ? `: ${message}` : ""}.`, "See the server's log for the cause.", detail);
}

function errorMessageOf(bodyText: string): string {
  const text = bodyText.trim();
  if (!text) return "";
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = body.error;
    if (typeof error === "string") return error;
    if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") return (error as { message: string }).message;
    if (typeof body.message === "string") return body.message;
    if (typeof body.detail === "string") return body.detail;
  } catch {
    // Not JSON: the text itself is the message.
  }
  return text.slice(0, 500);
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException ? error.name === "AbortError" : error instanceof Error && error.name === "AbortError";
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
