// What runs in the sandbox frame's own document: it takes the port the page hands it, starts
// the worker that runs the user's code, relays one request and its reply, and answers the page's
// pings. The user's code never runs here (only in the worker), so this realm is untouched by it:
// the reply is checked and cut here again before it reaches the page.
//
// Like the worker's runtime, this is one self-contained function whose text is written into the
// frame's document (the frame can load no script file); it must not refer to anything outside.
import type { SandboxLimits, SandboxResponse } from "./sandbox-protocol.ts";

/** Messages the page sends to the frame over the port. */
export type PageToFrame = { type: "run"; code: string } | { type: "ping" };

/** Messages the frame sends to the page over the port. */
export type FrameToPage = { type: "ready" } | { type: "reply"; reply: SandboxResponse } | { type: "failed"; message: string } | { type: "pong" };

export function sandboxFrameMain(workerScript: string, limits: SandboxLimits): void {
  // The worker's own cuts end in a short note; allow for it before cutting again.
  const slack = 200;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  let port: MessagePort | undefined;
  let worker: Worker | undefined;
  const send = (message: FrameToPage) => port?.postMessage(message);

  const cut = (text: string, max: number, what: string) => (text.length <= max ? text : `${text.slice(0, max)}\n… [cut at ${max} characters: the ${what} had ${text.length}]`);

  /** The worker's reply in the agreed shape and within the limits, or undefined. */
  function checked(data: unknown): SandboxResponse | undefined {
    if (typeof data !== "object" || data === null) return undefined;
    const reply = data as Record<string, unknown>;
    if (typeof reply.ok !== "boolean" || !Array.isArray(reply.logs)) return undefined;
    const logs: string[] = [];
    let logsTruncated = reply.logsTruncated === true;
    let room = limits.maxLogChars + slack;
    for (const entry of reply.logs as unknown[]) {
      if (logs.length >= limits.maxLogEntries || room <= 0) {
        logsTruncated = true;
        break;
      }
      const line = cut(typeof entry === "string" ? entry : String(stringify(entry)), room, "line");
      room -= line.length;
      logs.push(line);
    }
    const logPart = { logs, ...(logsTruncated ? { logsTruncated: true } : {}) };
    if (!reply.ok) {
      const error = (typeof reply.error === "object" && reply.error !== null ? reply.error : {}) as Record<string, unknown>;
      return {
        ok: false,
        error: { name: cut(String(error.name ?? "Error"), 100, "name"), message: cut(String(error.message ?? ""), limits.maxErrorChars + slack, "message") },
        ...logPart,
      };
    }
    if (reply.result === undefined) return { ok: true, ...logPart };
    const json = stringify(reply.result) ?? "null";
    if (json.length > limits.maxResultChars + slack) return { ok: true, result: cut(json, limits.maxResultChars, "result"), ...logPart, resultTruncated: true };
    return { ok: true, result: parse(json) as unknown, ...logPart, ...(reply.resultTruncated === true ? { resultTruncated: true } : {}) };
  }

  function start(code: string): void {
    try {
      const url = URL.createObjectURL(new Blob([workerScript], { type: "text/javascript" }));
      worker = new Worker(url, { name: "run_javascript sandbox" });
    } catch (error) {
      send({ type: "failed", message: `the worker could not start: ${String(error)}` });
      return;
    }
    worker.onmessage = ({ data }) => {
      const reply = checked(data);
      send(reply ? { type: "reply", reply } : { type: "failed", message: "the sandbox sent back a reply in an unknown shape" });
    };
    worker.onerror = (event) => {
      event.preventDefault();
      send({ type: "failed", message: event.message || "the worker could not run" });
    };
    worker.onmessageerror = () => send({ type: "failed", message: "the sandbox's reply could not be read" });
    worker.postMessage({ code });
  }

  addEventListener("message", (event: MessageEvent) => {
    // Only the page that made this frame hands it a port, once.
    if (port || event.source !== parent || !event.ports[0]) return;
    port = event.ports[0];
    port.onmessage = ({ data }: MessageEvent<PageToFrame>) => {
      if (data?.type === "ping") send({ type: "pong" });
      else if (data?.type === "run" && !worker) start(String(data.code));
    };
    send({ type: "ready" });
  });
}
