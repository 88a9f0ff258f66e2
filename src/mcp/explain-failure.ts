// Turns what goes wrong between the page and an MCP server into a sentence a person can act
// on. The browser hides why a fetch failed (CORS refusal and an unreachable host both surface
// as a bare TypeError), so the caller probes the address without CORS first and passes in
// whether anything answered.
import type { ExplainedFailure, FailureKind } from "./mcp-failure.ts";

export interface FailureContext {
  url: string;
  /** The lab's origin, which the server must allow. */
  origin: string;
  /** Whether a no-CORS request to the address got any answer (undefined: not probed). */
  reachable?: boolean;
  /** Whether the person gave an Authorization header. */
  sentAuthorization: boolean;
  /** For "not an MCP server": how the SSE fallback failed, if it was tried. */
  fallbackError?: unknown;
}

/** The headers a server must send for the lab's page to talk to it. */
export function corsRequirements(origin: string): string[] {
  return [
    `Access-Control-Allow-Origin: ${origin}`,
    "Access-Control-Allow-Methods: GET, POST, DELETE",
    "Access-Control-Allow-Headers: Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID",
    "Access-Control-Expose-Headers: Mcp-Session-Id",
  ];
}

export function unreachableMessage(url: string): string {
  return `Nothing answered at ${url}: the server is not running, or the address or port is wrong.`;
}

export function describeThrown(error: unknown): string {
  if (error instanceof Error) return error.message ? `${error.name}: ${error.message}` : error.name;
  return typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
}

/** The HTTP status the SDK's transport errors carry (StreamableHTTPError, SseError), if any. */
export function httpStatusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "number" && code >= 100 && code < 600) return code;
  // An SSE failure wraps the status in its message ("Non-200 status code (404)").
  const match = /status code \((\d{3})\)/i.exec(error instanceof Error ? error.message : "");
  return match ? Number(match[1]) : undefined;
}

/** A fetch that failed before any response: network down, host gone, or CORS. */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // fetch's own refusals of a request it cannot send (a bad header) are TypeErrors too.
  if (/ISO-8859-1|header|Invalid URL|Request cannot be constructed/i.test(error.message)) return false;
  if (error.name === "TypeError") return /fetch|network|load failed/i.test(error.message);
  return /Failed to fetch|NetworkError|Load failed/i.test(error.message);
}

const MCP_TIMEOUT = -32001;

export function explainFailure(error: unknown, context: FailureContext): ExplainedFailure {
  const detail = describeThrown(error);
  const text = error instanceof Error ? error.message : String(error);
  const status = httpStatusOf(error);
  const at = context.url;
  const explained = (kind: FailureKind, message: string): ExplainedFailure => ({ kind, message, detail });

  const unsupportedVersion = /protocol version is not supported: (\S+)/i.exec(text);
  if (unsupportedVersion) {
    return explained(
      "protocol-version",
      `The server at ${at} speaks MCP protocol version ${unsupportedVersion[1]}, which the lab's client does not support. Use a server built with a current MCP SDK.`,
    );
  }
  if (status === 400 && /protocol.?version/i.test(text)) {
    return explained("protocol-version", `The server at ${at} rejected the lab's MCP protocol version (${text.trim()}). Update the server's MCP SDK.`);
  }
  if (status === 400 && /session/i.test(text)) {
    return explained(
      "session-id-hidden",
      `The server at ${at} did not recognise the session: most likely its CORS answer does not let the browser read the Mcp-Session-Id header. It must send "Access-Control-Expose-Headers: Mcp-Session-Id".`,
    );
  }
  if (status === 404 && /session/i.test(text)) {
    return explained("session-lost", `The server at ${at} no longer knows the lab's session (it restarted or dropped it).`);
  }
  if (status === 401) {
    return explained(
      "unauthorized",
      context.sentAuthorization
        ? `The server at ${at} refused the token (401 Unauthorized). Check the Authorization header's value.`
        : `The server at ${at} needs authorisation (401 Unauthorized). Add a header such as "Authorization: Bearer <token>".`,
    );
  }
  if (status === 403) return explained("forbidden", `The server at ${at} refused access (403 Forbidden): the token lacks a permission, or the server does not allow this page's origin (${context.origin}).`);
  if (isNetworkFailure(error)) {
    if (context.reachable) {
      return explained(
        "cors",
        `The server at ${at} answered, but the browser blocked the page from reading the answer (CORS). The server must send these headers, on its answers and on the OPTIONS preflight:\n${corsRequirements(context.origin).join("\n")}`,
      );
    }
    return explained("unreachable", unreachableMessage(at));
  }
  if ((error as { code?: unknown } | null)?.code === MCP_TIMEOUT || /timed out/i.test(text)) {
    return explained("timeout", `The server at ${at} did not answer in time.`);
  }
  if (status !== undefined && status >= 500) return explained("server-error", `The server at ${at} failed (HTTP ${status}): ${text}`);
  const notMcp =
    (status !== undefined && [404, 405, 406, 415].includes(status)) ||
    /Unexpected content type|invalid_union|invalid_type|JSON|Unexpected token|invalid initialize result/i.test(text);
  if (notMcp) {
    const fallback = context.fallbackError === undefined ? "" : ` The older SSE transport failed too (${describeThrown(context.fallbackError)}).`;
    return explained(
      "not-mcp",
      `${at} answered, but not as an MCP server (${status !== undefined ? `HTTP ${status}` : text.slice(0, 160)}).${fallback} Check the address: MCP endpoints usually end in /mcp (or /sse for old servers).`,
    );
  }
  return explained("other", `The MCP server at ${at} failed: ${text}`);
}
