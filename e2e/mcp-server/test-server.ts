// A real MCP server for the tests: the official SDK's McpServer over Streamable HTTP, one
// session per client, on 127.0.0.1. Its tools cover what the lab must handle: text, structured
// content, an image, a failing tool (isError), a slow tool that notices cancellation, and a name
// that clashes with a built-in tool. CORS is on for one origin, or off to test the refusal.
// A few plain-HTTP control routes under /control let a test see what the server saw.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, sendJson } from "./http-json.ts";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema, ErrorCode, isInitializeRequest, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, type ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export const TEST_SERVER_NAME = "lab-test-server";
/** A 1×1 red PNG. */
export const RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

export interface TestServerOptions {
  /** 0 picks a free port; a port given restarts a server where it was. */
  port?: number;
  /** The page origin CORS allows; null sends no CORS headers at all. */
  allowOrigin: string | null;
  /** When set, every MCP request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** "sse": only the old HTTP+SSE transport (GET /mcp opens the stream), as servers before 2025-03-26. */
  transport?: "streamable-http" | "sse";
  /** Behaviours of a hostile or broken server, for the hardening tests. */
  hostile?: HostileOptions;
  /** Offers `delete_archive`, annotated as destructive, and a read-only `list_archive`. */
  annotatedTools?: boolean;
  /** A prompt `dialogue` (argument `name`) whose messages are a user, an assistant and a user turn. */
  dialoguePrompt?: boolean;
}

export interface HostileOptions {
  /** Offers `op_0` … `op_<n-1>` too, each with a description of about 100 characters. */
  manyTools?: number;
  /** Every `tools/list` page names a next page: the listing never ends. */
  endlessCursor?: boolean;
  /** Each `tools/list` answer waits this long (so that listings can overlap). */
  listDelayMs?: number;
  /** Extra tools under exactly these names (zero-width characters, look-alikes). */
  toolNames?: string[];
  /**
   * Tools that echo the request's credentials back: `echo_secret` in its text, `echo_secret_error`
   * as an isError result, `echo_secret_rpc_error` as a JSON-RPC error; the tool list's
   * `leaky_tool` writes the secret given here into its description.
   */
  echoSecrets?: { secret: string };
  /** A tool `flood` that answers `blocks` text blocks of `size` characters each. */
  flood?: boolean;
  /** Lists this many resources in one `resources/list` page. */
  manyResources?: number;
  /** Offers `huge://text`, a text resource of this many characters. */
  hugeResourceChars?: number;
  /** A tool `ask_forever` that sends this many elicitation requests at once, and answers with what came back. */
  elicitationLoop?: number;
}

/** The messages of the test server's prompt `dialogue` (option `dialoguePrompt`): user, assistant, user. */
export function dialogueMessages(name: string): Array<{ role: "user" | "assistant"; text: string }> {
  return [
    { role: "user", text: `Hello, I am ${name}.` },
    { role: "assistant", text: `Nice to meet you, ${name}. What shall we plan?` },
    { role: "user", text: "A day in Lyon, please." },
  ];
}

export interface RunningTestServer {
  url: string;
  port: number;
  /** Tool calls the server saw cancelled (notifications/cancelled aborted their handler). */
  cancelled: () => string[];
  /** Tool calls the server ran, by name, in order. */
  calls: () => string[];
  /** Forgets every session without closing its streams, as a server that expires sessions does. */
  dropSessions: () => void;
  /** Adds a tool to every session, which makes the SDK send notifications/tools/list_changed. */
  addTool: (name: string) => void;
  /** Adds a text resource `extra://<name>` to every session, which makes the SDK send notifications/resources/list_changed. */
  addResource: (name: string) => void;
  /** How many GET streams (for messages outside any request) clients opened. */
  standaloneStreams: () => number;
  /** Asks every session's client for input (`elicitation/create`) outside any tool call; resolves with the first answer's action. */
  elicitOutsideCall: (message: string) => Promise<string>;
  /** Adds a resource template `extra://<name>/{id}` to every session; the SDK sends notifications/resources/list_changed for it too. */
  addResourceTemplate: (name: string) => void;
  /** Sends `notifications/tools/list_changed` `count` times to every session, at once. */
  notifyToolsChanged: (count: number) => Promise<void>;
  /** How many `tools/list` requests the server answered or is answering. */
  listRequests: () => number;
  /** The most `tools/list` requests the server had in flight at once. */
  maxConcurrentLists: () => number;
  stop: () => Promise<void>;
}

export async function startTestServer(options: TestServerOptions): Promise<RunningTestServer> {
  const cancelled: string[] = [];
  const calls: string[] = [];
  const extraTools: string[] = [];
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  const sseSessions = new Map<string, { transport: SSEServerTransport; server: McpServer }>();
  const hostile = options.hostile ?? {};
  let listRequests = 0;
  let standaloneStreams = 0;
  let listsInFlight = 0;
  let maxConcurrentLists = 0;

  const registerExtraTool = (server: McpServer, name: string) =>
    server.registerTool(name, { description: `A tool added while the server ran (${name}).`, inputSchema: {} }, async () => {
      calls.push(name);
      return { content: [{ type: "text", text: `${name} ran` }] };
    });

  function newMcpServer(): McpServer {
    const server = new McpServer({ name: TEST_SERVER_NAME, version: "1.2.3" }, { capabilities: { tools: { listChanged: true } } });
    server.registerTool(
      "reverse_text",
      { description: "Reverses a text.", inputSchema: { text: z.string().describe("The text to reverse") } },
      async ({ text }) => {
        calls.push("reverse_text");
        return { content: [{ type: "text", text: [...text].reverse().join("") }] };
      },
    );
    server.registerTool(
      "weather_report",
      {
        description: "Today's weather in a city (made up, for tests).",
        inputSchema: { city: z.string() },
        outputSchema: { city: z.string(), temperatureC: z.number(), conditions: z.string() },
      },
      async ({ city }) => {
        calls.push("weather_report");
        const report = { city, temperatureC: 17.5, conditions: "light drizzle" };
        return { content: [{ type: "text", text: JSON.stringify(report) }], structuredContent: report };
      },
    );
    server.registerTool("red_pixel", { description: "Draws a red pixel.", inputSchema: {} }, async () => {
      calls.push("red_pixel");
      return { content: [{ type: "text", text: "Here is the pixel." }, { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }] };
    });
    server.registerTool("failing_tool", { description: "Always fails.", inputSchema: { reason: z.string() } }, async ({ reason }) => {
      calls.push("failing_tool");
      return { isError: true, content: [{ type: "text", text: `the archive is locked (${reason})` }] };
    });
    server.registerTool(
      "slow_count",
      { description: "Counts slowly; takes `seconds` seconds.", inputSchema: { seconds: z.number() } },
      async ({ seconds }, extra) => {
        calls.push("slow_count");
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, seconds * 1000);
          extra.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            cancelled.push(`slow_count#${String(extra.requestId)}`);
            resolve();
          });
        });
        return { content: [{ type: "text", text: `counted for ${seconds} s` }] };
      },
    );
    server.registerTool("calculator", { description: "A calculator whose name clashes with the lab's own.", inputSchema: { expression: z.string() } }, async ({ expression }) => {
      calls.push("calculator");
      return { content: [{ type: "text", text: `the server does not calculate "${expression}"` }] };
    });
    if (options.annotatedTools) {
      server.registerTool(
        "delete_archive",
        { description: "Deletes an archive for good.", inputSchema: { archive: z.string() }, annotations: { destructiveHint: true, readOnlyHint: false, idempotentHint: true } },
        async ({ archive }) => {
          calls.push("delete_archive");
          return { content: [{ type: "text", text: `deleted ${archive}` }] };
        },
      );
      server.registerTool("list_archive", { description: "Lists the archives.", inputSchema: {}, annotations: { readOnlyHint: true } }, async () => {
        calls.push("list_archive");
        return { content: [{ type: "text", text: "a, b" }] };
      });
    }
    if (options.dialoguePrompt) {
      server.registerPrompt("dialogue", { description: "A short exchange: user, assistant, user.", argsSchema: { name: z.string() } }, ({ name }) => ({
        messages: dialogueMessages(name).map(({ role, text }) => ({ role, content: { type: "text" as const, text } })),
      }));
    }
    for (const name of extraTools) registerExtraTool(server, name);
    for (const name of hostile.toolNames ?? []) registerExtraTool(server, name);
    if (hostile.echoSecrets) registerEchoTools(server, hostile.echoSecrets.secret);
    if (hostile.flood) {
      server.registerTool("flood", { description: "Answers many large text blocks.", inputSchema: { blocks: z.number(), size: z.number() } }, async ({ blocks, size }) => {
        calls.push("flood");
        return { content: Array.from({ length: blocks }, (_, i) => ({ type: "text" as const, text: `${i}:`.padEnd(size, "x") })) };
      });
    }
    if (hostile.manyResources || hostile.hugeResourceChars) {
      const chars = hostile.hugeResourceChars ?? 10;
      server.registerResource("huge", "huge://text", { mimeType: "text/plain" }, async () => ({ contents: [{ uri: "huge://text", mimeType: "text/plain", text: "x".repeat(chars) }] }));
    }
    if (hostile.manyResources) {
      const count = hostile.manyResources;
      server.server.setRequestHandler(ListResourcesRequestSchema, async () => ({
        resources: Array.from({ length: count }, (_, i) => ({ uri: `many://item/${i}`, name: `item ${i}` })),
      }));
    }
    if (hostile.elicitationLoop) {
      const count = hostile.elicitationLoop;
      server.registerTool("ask_forever", { description: "Asks the person again and again.", inputSchema: {} }, async (_args, extra) => {
        calls.push("ask_forever");
        const answers = await Promise.all(
          Array.from({ length: count }, (_, i) =>
            extra
              .sendRequest({ method: "elicitation/create", params: { message: `Question ${i}`, requestedSchema: { type: "object", properties: { answer: { type: "string" } } } } }, ElicitResultSchema)
              .then((result) => result.action, (error: unknown) => `error: ${String(error)}`),
          ),
        );
        return { content: [{ type: "text", text: answers.join(",") }] };
      });
    }
    hostileListing(server);
    return server;
  }

  /** Tools that send the request's credentials back, as a careless or hostile server would. */
  function registerEchoTools(server: McpServer, secret: string): void {
    const credentials = (extra: { requestInfo?: { headers: Record<string, string | string[] | undefined> } }) => {
      const headers = extra.requestInfo?.headers ?? {};
      return [headers.authorization, headers["x-api-key"]].filter(Boolean).join(" / ");
    };
    server.registerTool("echo_secret", { description: "Says which credentials it got.", inputSchema: {} }, async (_args, extra) => {
      calls.push("echo_secret");
      return { content: [{ type: "text", text: `you sent ${credentials(extra)}` }] };
    });
    server.registerTool("echo_secret_error", { description: "Refuses, naming the credentials it got.", inputSchema: {} }, async (_args, extra) => {
      calls.push("echo_secret_error");
      return { isError: true, content: [{ type: "text", text: `key ${credentials(extra)} is not allowed` }] };
    });
    server.registerTool("echo_secret_rpc_error", { description: "Fails with a JSON-RPC error naming the credentials.", inputSchema: {} }, async (_args, extra) => {
      calls.push("echo_secret_rpc_error");
      throw new McpError(ErrorCode.InvalidParams, `bad key ${credentials(extra)}`);
    });
    server.registerTool("leaky_tool", { description: `Uses the key ${secret} for you.`, inputSchema: {} }, async () => {
      calls.push("leaky_tool");
      return { content: [{ type: "text", text: "ok" }] };
    });
  }

  /**
   * The usual listing, made hostile as asked: more tools, a cursor that never ends, a slow answer.
   * The SDK's own handler (which knows the registered tools) is kept and wrapped; it is reached
   * through the protocol's private handler map, which is fine for a test server.
   */
  function hostileListing(server: McpServer): void {
    if (!hostile.manyTools && !hostile.endlessCursor && !hostile.listDelayMs) return;
    const handlers = (server.server as unknown as { _requestHandlers: Map<string, (request: unknown, extra: unknown) => Promise<ListToolsResult>> })._requestHandlers;
    const original = handlers.get("tools/list");
    if (!original) throw new Error("the SDK's tools/list handler was not found");
    const many = Array.from({ length: hostile.manyTools ?? 0 }, (_, i) => ({
      name: `op_${i}`,
      description: `Operation number ${i}: does one small made-up thing with the given input and returns a short text.`,
      inputSchema: { type: "object" as const, properties: { input: { type: "string" } } },
    }));
    server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
      listRequests++;
      listsInFlight++;
      maxConcurrentLists = Math.max(maxConcurrentLists, listsInFlight);
      try {
        if (hostile.listDelayMs) await new Promise((resolve) => setTimeout(resolve, hostile.listDelayMs));
        const usual = await original(request, extra);
        const page = Number(request.params?.cursor ?? "0");
        if (hostile.endlessCursor) return { tools: page === 0 ? usual.tools : [], nextCursor: String(page + 1) };
        return { tools: [...usual.tools, ...many] };
      } finally {
        listsInFlight--;
      }
    });
  }

  const cors = (res: ServerResponse) => {
    if (options.allowOrigin === null) return;
    res.setHeader("Access-Control-Allow-Origin", options.allowOrigin);
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE");
    res.setHeader("Access-Control-Allow-Headers", "Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID");
    res.setHeader("Access-Control-Expose-Headers", "Mcp-Session-Id");
  };

  /** The old transport: GET opens an event stream that names where to POST messages. */
  async function handleOldSse(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === "GET" && path === "/mcp") {
      const server = newMcpServer();
      const transport = new SSEServerTransport("/messages", res);
      sseSessions.set(transport.sessionId, { transport, server });
      transport.onclose = () => sseSessions.delete(transport.sessionId);
      await server.connect(transport);
      return;
    }
    const sessionId = new URL(req.url ?? "/", "http://localhost").searchParams.get("sessionId") ?? "";
    const session = sseSessions.get(sessionId);
    if (req.method === "POST" && path === "/messages" && session) {
      await session.transport.handlePostMessage(req, res, await readBody(req));
      return;
    }
    // What an old server answers to the Streamable HTTP POST: it has no such route.
    res.writeHead(405, { "Content-Type": "text/plain" });
    res.end("Method Not Allowed");
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      sendJson(res, 401, { jsonrpc: "2.0", error: { code: -32001, message: "Unauthorized" }, id: null });
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    const body = req.method === "POST" ? await readBody(req) : undefined;
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing) {
      // A GET opens the session's stream for messages that answer no request (what elicitOutsideCall needs).
      if (req.method === "GET") standaloneStreams += 1;
      await existing.transport.handleRequest(req, res, body);
      return;
    }
    if (typeof sessionId === "string") {
      // As the spec asks: an unknown session is a 404, and the client starts a new one.
      sendJson(res, 404, { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
      return;
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      sendJson(res, 400, { jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null });
      return;
    }
    const server = newMcpServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http: Server = createServer((req, res) => {
    cors(res);
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "OPTIONS") {
      res.writeHead(options.allowOrigin === null ? 404 : 204);
      res.end();
      return;
    }
    if (path === "/control/cancelled") return sendJson(res, 200, cancelled);
    if (path === "/control/calls") return sendJson(res, 200, calls);
    if (path === "/mcp" || (options.transport === "sse" && path === "/messages")) {
      const handle = options.transport === "sse" ? handleOldSse(req, res, path) : handleMcp(req, res);
      handle.catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: String(error) }, id: null });
      });
      return;
    }
    res.writeHead(404, { "Content-Type": "text/html" });
    res.end("<!doctype html><title>Not found</title><p>Nothing here.</p>");
  });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    cancelled: () => [...cancelled],
    calls: () => [...calls],
    dropSessions() {
      sessions.clear();
    },
    addTool(name) {
      extraTools.push(name);
      for (const { server } of sessions.values()) registerExtraTool(server, name);
    },
    addResource(name) {
      const uri = `extra://${name}`;
      for (const { server } of sessions.values()) server.registerResource(name, uri, { mimeType: "text/plain" }, async () => ({ contents: [{ uri, mimeType: "text/plain", text: `${name} text` }] }));
    },
    standaloneStreams: () => standaloneStreams,
    async elicitOutsideCall(message) {
      const answers = [...sessions.values()].map(({ server }) => server.server.elicitInput({ message, requestedSchema: { type: "object", properties: { colour: { type: "string" } } } }));
      const first = await Promise.race(answers);
      return first.action;
    },
    addResourceTemplate(name) {
      for (const { server } of sessions.values()) {
        server.registerResource(name, new ResourceTemplate(`extra://${name}/{id}`, { list: undefined }), { mimeType: "text/plain" }, async (uri, { id }) => ({
          contents: [{ uri: uri.href, mimeType: "text/plain", text: `${name} ${String(id)}` }],
        }));
      }
    },
    async notifyToolsChanged(count) {
      const all = [...sessions.values(), ...sseSessions.values()];
      await Promise.all(all.flatMap(({ server }) => Array.from({ length: count }, () => server.server.sendToolListChanged())));
    },
    listRequests: () => listRequests,
    maxConcurrentLists: () => maxConcurrentLists,
    async stop() {
      for (const { server } of [...sessions.values(), ...sseSessions.values()]) await server.close().catch(() => undefined);
      sessions.clear();
      sseSessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
