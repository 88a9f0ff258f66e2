// The reference MCP server, `@modelcontextprotocol/server-everything` (npm), for the tests: its
// own server factory (tools, resources, templates, prompts, logging, subscriptions, elicitation,
// sampling) served over Streamable HTTP on 127.0.0.1 by this file, one session per client, with
// CORS for the lab's origin. Its stock launcher listens on every interface with a fixed port and
// exits the process on errors, so the tests host the same server factory themselves.
// Every JSON-RPC message the server receives is recorded, so a test can see what the lab sent
// (a notifications/cancelled after Stop, an elicitation's answer).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, sendJson } from "./http-json.ts";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
// The package has no exports map; its server factory is the module its launchers import.
import { createServer as createEverythingServer } from "@modelcontextprotocol/server-everything/dist/server/index.js";

export const EVERYTHING_SERVER_NAME = "mcp-servers/everything";

export interface RunningEverythingServer {
  url: string;
  port: number;
  /** Every JSON-RPC message the server received from clients, in order. */
  received: () => JSONRPCMessage[];
  stop: () => Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  close: () => Promise<void>;
}

export async function startEverythingServer(options: { allowOrigin: string; port?: number }): Promise<RunningEverythingServer> {
  const sessions = new Map<string, Session>();
  const received: JSONRPCMessage[] = [];

  async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = req.headers["mcp-session-id"];
    const body = req.method === "POST" ? await readBody(req) : undefined;
    if (body !== undefined) received.push(...((Array.isArray(body) ? body : [body]) as JSONRPCMessage[]));
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing) {
      await existing.transport.handleRequest(req, res, body);
      return;
    }
    if (typeof sessionId === "string") {
      sendJson(res, 404, { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
      return;
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      sendJson(res, 400, { jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null });
      return;
    }
    const { server, cleanup } = createEverythingServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, {
          transport,
          close: async () => {
            cleanup(id);
            await server.close().catch(() => undefined);
          },
        });
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id && sessions.has(id)) {
        sessions.delete(id);
        cleanup(id);
      }
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http: Server = createServer((req, res) => {
    res.setHeader("Access-Control-Allow-Origin", options.allowOrigin);
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE");
    res.setHeader("Access-Control-Allow-Headers", "Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID");
    res.setHeader("Access-Control-Expose-Headers", "Mcp-Session-Id");
    if (req.method === "OPTIONS") {
      res.writeHead(204);
      res.end();
      return;
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("Not found");
      return;
    }
    handleMcp(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: String(error) }, id: null });
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    received: () => [...received],
    async stop() {
      const open = [...sessions.values()];
      sessions.clear();
      for (const session of open) await session.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
