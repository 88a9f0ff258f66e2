// A local stand-in for an OpenAI-compatible server (vLLM, SGLang, Ollama, llama.cpp's server):
// it is none of them. It serves /v1/models, and streams scripted replies from /v1/completions
// (prompt mode) and /v1/chat/completions (native mode) as Server-Sent Events, records every
// request it receives so tests can check the exact prompt or the tools sent, and fails on cue:
// a CORS refusal, 401, a dropped stream, a missing completions endpoint, a context overflow;
// and hostile on cue: a reply or reasoning that ignores max_tokens and floods, one endless line.
// With `answer` it replies to requests itself (eval questions, right, wrong or repairable).
// It listens on 127.0.0.1 only and is started and stopped by the tests themselves.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedToolCall {
  name: string;
  /** The call's id as the server sends it (call_<index> when not given). */
  id?: string;
  /** The arguments' JSON text, in the pieces the server streams it in. */
  argumentChunks: string[];
}

export interface ScriptedReply {
  /** Chat completions only: reasoning sent apart from the text (vLLM's reasoning_content). */
  reasoning?: string[];
  /** Text, in the pieces the server streams it in. */
  text?: string[];
  /** The `logprobs` field sent with each text piece (same index), as the server under test would write it. */
  logprobs?: unknown[];
  toolCalls?: ScriptedToolCall[];
  finishReason?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** End the stream mid-way without a finish reason or [DONE]. */
  drop?: boolean;
  /** Answer with an error instead of a stream. */
  error?: { status: number; message: string };
  /** After the text, hold the stream open until the client goes away (a Stop) or `release()`. */
  hold?: boolean;
  /** While held, an SSE comment (`: keep-alive`) every this many milliseconds: no token, ever. */
  keepAliveMs?: number;
  /**
   * Hostile, after the text: `chars` more characters of text or of reasoning (ignoring
   * max_tokens) in events of `pieceChars`, or one `data:` line of `chars` that never ends.
   * Stops early when the client goes away; `floodSent()` tells how much was written. `chars`
   * may be Infinity: then only the client going away ends the response.
   */
  flood?: { kind: "text" | "reasoning" | "endless-line"; chars: number; pieceChars?: number };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown> | null;
}

export interface TestServerOptions {
  models?: Array<{ id: string; max_model_len?: number }>;
  /** Origin allowed by CORS; null sends no CORS headers at all (a refusal). Default "*". */
  allowOrigin?: string | null;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** /v1/completions answers 404 (a server with chat completions only). */
  noCompletions?: boolean;
  /** Answers a request when no reply is queued (e.g. eval questions: eval-replies.ts). */
  answer?: (request: RecordedRequest) => ScriptedReply | undefined;
  /** Keep no record of requests (a long benchmark run). */
  noRecording?: boolean;
  /** Completion requests whose connection is closed before any answer, as a server that drops a kept-alive connection does. */
  closeUnanswered?: (request: RecordedRequest) => boolean;
}

export interface OpenAiTestServer {
  url: string;
  requests: RecordedRequest[];
  /** Queues replies; each completion request takes the next one. */
  script: (...replies: ScriptedReply[]) => void;
  /** Clients that went away before their stream ended (a Stop). */
  closedEarly: () => number;
  /** Characters of flood the last hostile reply wrote before it ended or the client went away. */
  floodSent: () => number;
  /** Lets held streams go on (to their end, or to their drop). */
  release: () => void;
  set: (options: Partial<TestServerOptions>) => void;
  close: () => Promise<void>;
}

export async function startOpenAiTestServer(initial: TestServerOptions = {}): Promise<OpenAiTestServer> {
  const options: TestServerOptions = { allowOrigin: "*", models: [{ id: "test-model", max_model_len: 8192 }], ...initial };
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  let closedEarly = 0;
  let floodSent = 0;
  const held = new Set<() => void>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(String(error));
    });
  });

  function cors(res: ServerResponse): void {
    if (options.allowOrigin === null) return;
    res.setHeader("Access-Control-Allow-Origin", options.allowOrigin ?? "*");
    res.setHeader("Access-Control-Allow-Headers", "Content-Type, Authorization");
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  }

  function json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    cors(res);
    if (req.method === "OPTIONS") {
      res.writeHead(204);
      res.end();
      return;
    }
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const raw = await readBody(req);
    let body: Record<string, unknown> | null = null;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    const recorded = { method: req.method ?? "GET", path, headers: req.headers, body };
    if (!options.noRecording) requests.push(recorded);

    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) return json(res, 401, { error: { message: "Invalid API key", type: "authentication_error" } });
    if (path === "/v1/models" && req.method === "GET") return json(res, 200, { object: "list", data: (options.models ?? []).map((m) => ({ object: "model", owned_by: "test", ...m })) });
    const chat = path === "/v1/chat/completions";
    if (!(chat || path === "/v1/completions") || req.method !== "POST") return json(res, 404, { error: { message: `Not found: ${path}` } });
    if (!chat && options.noCompletions) return json(res, 404, { detail: "Not Found" });
    if (options.closeUnanswered?.(recorded)) return void req.socket.destroy();
    if (body && typeof body.model === "string" && !(options.models ?? []).some((m) => m.id === body.model)) {
      return json(res, 404, { error: { message: `The model \`${body.model}\` does not exist.`, type: "NotFoundError" } });
    }
    const reply = queue.shift() ?? options.answer?.(recorded);
    if (!reply) return json(res, 500, { error: { message: "test server: no reply scripted" } });
    if (reply.error) return json(res, reply.error.status, { error: { message: reply.error.message } });
    await stream(res, req, reply, chat);
  }

  async function stream(res: ServerResponse, req: IncomingMessage, reply: ScriptedReply, chat: boolean): Promise<void> {
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    let finished = false;
    res.on("close", () => {
      if (!finished) closedEarly += 1;
    });
    const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
    const choice = (extra: Record<string, unknown>) => ({ id: "cmpl-test", object: chat ? "chat.completion.chunk" : "text_completion", choices: [{ index: 0, ...extra }] });
    const pieces = reply.text ?? [];
    for (const piece of reply.reasoning ?? []) send(choice({ delta: { reasoning_content: piece }, finish_reason: null }));
    for (const [i, piece] of pieces.entries()) {
      const logprobs = reply.logprobs?.[i] !== undefined ? { logprobs: reply.logprobs[i] } : {};
      send(choice(chat ? { delta: { content: piece }, finish_reason: null, ...logprobs } : { text: piece, finish_reason: null, ...logprobs }));
    }
    if (reply.hold) {
      const keepAlive = reply.keepAliveMs ? setInterval(() => res.write(": keep-alive\n\n"), reply.keepAliveMs) : undefined;
      const goneEarly = await new Promise<boolean>((resolve) => {
        const release = () => {
          held.delete(release);
          resolve(false);
        };
        held.add(release);
        req.socket.once("close", () => {
          held.delete(release);
          resolve(true);
        });
      }).finally(() => clearInterval(keepAlive));
      if (goneEarly) return;
    }
    if (reply.flood && !(await flood(res, reply.flood, chat))) return;
    if (reply.drop) {
      // Close the connection mid-response (no finish reason, no end of the chunked body); a
      // graceful close, so what was written still reaches the client first.
      req.socket.end();
      return;
    }
    for (const [index, call] of (reply.toolCalls ?? []).entries()) {
      send(choice({ delta: { tool_calls: [{ index, id: call.id ?? `call_${index}`, type: "function", function: { name: call.name, arguments: "" } }] }, finish_reason: null }));
      for (const part of call.argumentChunks) send(choice({ delta: { tool_calls: [{ index, function: { arguments: part } }] }, finish_reason: null }));
    }
    const finishReason = reply.finishReason ?? (reply.toolCalls?.length ? "tool_calls" : "stop");
    send(choice(chat ? { delta: {}, finish_reason: finishReason } : { text: "", finish_reason: finishReason }));
    send({ id: "cmpl-test", choices: [], usage: reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 } });
    res.write("data: [DONE]\n\n");
    finished = true;
    res.end();
  }

  /** Writes the flood with back-pressure; false when the client went away first (or the line never ends). */
  async function flood(res: ServerResponse, spec: NonNullable<ScriptedReply["flood"]>, chat: boolean): Promise<boolean> {
    floodSent = 0;
    const piece = spec.pieceChars ?? 4_000;
    const write = async (text: string): Promise<boolean> => {
      if (res.destroyed || res.writableEnded) return false;
      if (!res.write(text)) await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.once("drain", done);
        res.once("close", done);
      });
      return !res.destroyed;
    };
    if (spec.kind === "endless-line") await write(`data: {"id": "cmpl-test", "choices": [{"index": 0, "delta": {"content": "`);
    while (floodSent < spec.chars) {
      const text = "x".repeat(Math.min(piece, spec.chars - floodSent));
      const line =
        spec.kind === "endless-line"
          ? text
          : `data: ${JSON.stringify({ id: "cmpl-test", choices: [{ index: 0, ...(spec.kind === "reasoning" ? { delta: { reasoning_content: text } } : chat ? { delta: { content: text } } : { text }), finish_reason: null }] })}\n\n`;
      if (!(await write(line))) return false;
      floodSent += text.length;
    }
    return spec.kind !== "endless-line";
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => void queue.push(...replies),
    closedEarly: () => closedEarly,
    floodSent: () => floodSent,
    release: () => [...held].forEach((release) => release()),
    set: (patch) => Object.assign(options, patch),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}
