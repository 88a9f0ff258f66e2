import { describe, expect, it } from "vitest";
import { explainFailure, httpStatusOf, type FailureContext } from "./explain-failure.ts";

const context: FailureContext = { url: "http://127.0.0.1:3000/mcp", origin: "http://localhost:5173", sentAuthorization: false };

/** The SDK's transport errors carry the HTTP status in `code`. */
function httpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("explainFailure", () => {
  it("names the headers a server must send when the browser blocked it by CORS", () => {
    const failure = explainFailure(new TypeError("Failed to fetch"), { ...context, reachable: true });
    expect(failure.kind).toBe("cors");
    expect(failure.message).toContain("Access-Control-Allow-Origin: http://localhost:5173");
    expect(failure.message).toContain("Mcp-Session-Id, Mcp-Protocol-Version");
    expect(failure.message).toContain("Access-Control-Expose-Headers: Mcp-Session-Id");
    expect(failure.detail).toBe("TypeError: Failed to fetch");
  });

  it("says nothing answered when even a no-CORS request got no answer", () => {
    const failure = explainFailure(new TypeError("Failed to fetch"), { ...context, reachable: false });
    expect(failure).toMatchObject({ kind: "unreachable", message: "Nothing answered at http://127.0.0.1:3000/mcp: the server is not running, or the address or port is wrong." });
  });

  it("asks for a token on 401, and says the token was refused when one was sent", () => {
    expect(explainFailure(httpError(401, "Error POSTing to endpoint: unauthorized"), context).message).toContain('Add a header such as "Authorization: Bearer <token>"');
    expect(explainFailure(httpError(401, "x"), { ...context, sentAuthorization: true }).message).toContain("refused the token");
  });

  it("explains a protocol version the client does not support", () => {
    const failure = explainFailure(new Error("Server's protocol version is not supported: 2023-01-01"), context);
    expect(failure).toMatchObject({ kind: "protocol-version" });
    expect(failure.message).toContain("version 2023-01-01");
  });

  it("explains a server that rejects the client's protocol version header", () => {
    const failure = explainFailure(httpError(400, 'Error POSTing to endpoint: {"error":{"message":"Bad Request: Unsupported protocol version: 2031-01-01"}}'), context);
    expect(failure.kind).toBe("protocol-version");
  });

  it("says a page that is not an MCP endpoint is not one, with the SSE fallback's failure", () => {
    const failure = explainFailure(httpError(404, "Error POSTing to endpoint: Cannot POST /"), {
      ...context,
      fallbackError: new Error("SSE error: Non-200 status code (404)"),
    });
    expect(failure.kind).toBe("not-mcp");
    expect(failure.message).toContain("(HTTP 404)");
    expect(failure.message).toContain("The older SSE transport failed too (Error: SSE error: Non-200 status code (404))");
    expect(explainFailure(httpError(-1, "Unexpected content type: text/html"), context).kind).toBe("not-mcp");
  });

  it("recognises a lost session and a hidden session id", () => {
    expect(explainFailure(httpError(404, 'Error POSTing to endpoint: {"error":{"message":"Session not found"}}'), context).kind).toBe("session-lost");
    expect(explainFailure(httpError(400, "Bad Request: No valid session ID provided"), context).kind).toBe("session-id-hidden");
  });

  it("does not take fetch's refusal of a bad header for a network or CORS failure", () => {
    const failure = explainFailure(new TypeError("Failed to execute 'fetch' on 'Window': String contains non ISO-8859-1 code point."), { ...context, reachable: true });
    expect(failure.kind).toBe("other");
    expect(failure.message).toContain("non ISO-8859-1");
  });

  it("keeps any other error's text", () => {
    expect(explainFailure(new Error("boom"), context)).toEqual({ kind: "other", message: "The MCP server at http://127.0.0.1:3000/mcp failed: boom", detail: "Error: boom" });
  });
});

describe("httpStatusOf", () => {
  it("reads the status from the SDK's errors", () => {
    expect(httpStatusOf(httpError(405, "x"))).toBe(405);
    expect(httpStatusOf(httpError(-1, "x"))).toBeUndefined();
    expect(httpStatusOf(new Error("SSE error: Non-200 status code (401)"))).toBe(401);
  });
});
