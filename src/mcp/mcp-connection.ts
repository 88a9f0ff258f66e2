// One live connection to an MCP server, made with the official SDK's client: Streamable HTTP
// first, the older HTTP+SSE transport when the server does not speak it. The SDK is loaded
// only when a server is connected, and so is this module, so the page's first load carries
// neither.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ToolTraceEntry } from "../middleware/types.ts";
import { explainFailure, httpStatusOf, isNetworkFailure, unreachableMessage } from "./explain-failure.ts";
import { McpFailure, type ExplainedFailure } from "./mcp-failure.ts";
import { maskHeaders, maskSecrets, maskUrl, secretsOf } from "./mask-secrets.ts";
import type { McpCallResult } from "./tool-result.ts";
import type { McpToolDefinition } from "./tool-schema.ts";
import { TracingTransport } from "./tracing-transport.ts";
import { probeReachable } from "../net/probe-reachable.ts";

export type TransportKind = "streamable-http" | "sse";

export interface ConnectOptions {
  url: string;
  headers: Record<string, string>;
  /** The lab's origin, named in CORS explanations. */
  origin: string;
  /** The server changed its tool list (`notifications/tools/list_changed`); here is the new one. */
  onToolsChanged: (tools: McpToolDefinition[]) => void;
  /** The connection broke or the server went away (not called after close()). */
  onDropped: (failure: ExplainedFailure) => void;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  trace?: (entry: ToolTraceEntry) => void;
}

export interface McpConnection {
  readonly serverName: string;
  readonly serverVersion: string;
  readonly protocolVersion: string | undefined;
  readonly transport: TransportKind;
  readonly tools: McpToolDefinition[];
  callTool: (name: string, args: Record<string, unknown>, options: CallOptions) => Promise<McpCallResult>;
  close: () => Promise<void>;
}

const CLIENT_INFO = { name: "toolcall-lab", version: "0.1.0" };

type Sdk = {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  StreamableHTTPClientTransport: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
  SSEClientTransport: typeof import("@modelcontextprotocol/sdk/client/sse.js").SSEClientTransport;
  ToolListChangedNotificationSchema: typeof import("@modelcontextprotocol/sdk/types.js").ToolListChangedNotificationSchema;
  CompatibilityCallToolResultSchema: typeof import("@modelcontextprotocol/sdk/types.js").CompatibilityCallToolResultSchema;
};

let sdkLoading: Promise<Sdk> | null = null;

function loadSdk(): Promise<Sdk> {
  sdkLoading ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([client, streamable, sse, types]) => ({
    Client: client.Client,
    StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
    SSEClientTransport: sse.SSEClientTransport,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    CompatibilityCallToolResultSchema: types.CompatibilityCallToolResultSchema,
  }));
  sdkLoading.catch(() => {
    sdkLoading = null;
  });
  return sdkLoading;
}

async function explain(error: unknown, options: Pick<ConnectOptions, "url" | "headers" | "origin">, fallbackError?: unknown): Promise<ExplainedFailure> {
  const reachable = isNetworkFailure(error) ? await probeReachable(options.url) : undefined;
  return explainFailure(error, {
    url: maskUrl(options.url),
    origin: options.origin,
    sentAuthorization: Object.keys(options.headers).some((name) => name.toLowerCase() === "authorization"),
    ...(reachable !== undefined ? { reachable } : {}),
    ...(fallbackError !== undefined ? { fallbackError } : {}),
  });
}

async function listAllTools(client: Client): Promise<McpToolDefinition[]> {
  const tools: McpToolDefinition[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...(page.tools as McpToolDefinition[]));
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** Statuses that mean "this address does not speak Streamable HTTP": try the SSE transport. */
function worthSseFallback(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status === 400 || status === 404 || status === 405 || status === 406;
}

export async function connectMcp(options: ConnectOptions): Promise<McpConnection> {
  let sdk: Sdk;
  try {
    sdk = await loadSdk();
  } catch (error) {
    throw new McpFailure({ kind: "other", message: `The lab could not load its MCP client: ${String(error)}`, detail: String(error) });
  }
  const url = new URL(options.url);
  const requestInit: RequestInit = { headers: options.headers };
  const secrets = secretsOf(options.headers);
  const shownUrl = maskUrl(options.url);
  const sentLabel = [`POST ${shownUrl}`, ...Object.entries(maskHeaders(options.headers)).map(([name, value]) => `${name}: ${value}`)].join(" · ");

  let closing = false;
  const attempt = async (kind: TransportKind) => {
    const inner: Transport =
      kind === "streamable-http"
        ? new sdk.StreamableHTTPClientTransport(url, { requestInit })
        : new sdk.SSEClientTransport(url, { requestInit });
    const transport = new TracingTransport(inner, (message) => maskSecrets(message, secrets));
    const client = new sdk.Client(CLIENT_INFO, { capabilities: {} });
    await client.connect(transport);
    return { client, transport };
  };

  let connected: Awaited<ReturnType<typeof attempt>>;
  let transportKind: TransportKind = "streamable-http";
  try {
    connected = await attempt("streamable-http");
  } catch (error) {
    if (!worthSseFallback(error)) throw new McpFailure(await explain(error, options));
    try {
      connected = await attempt("sse");
      transportKind = "sse";
    } catch (fallbackError) {
      throw new McpFailure(await explain(error, options, fallbackError));
    }
  }
  const { client, transport } = connected;

  let tools: McpToolDefinition[];
  try {
    tools = await listAllTools(client);
  } catch (error) {
    closing = true;
    await client.close().catch(() => undefined);
    throw new McpFailure(await explain(error, options));
  }

  const inFlight = new Set<(failure: ExplainedFailure) => void>();
  let dropped = false;
  const drop = (failure: ExplainedFailure) => {
    if (closing || dropped) return;
    dropped = true;
    for (const reject of inFlight) reject(failure);
    options.onDropped(failure);
  };

  client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, async () => {
    try {
      const next = await listAllTools(client);
      tools.splice(0, tools.length, ...next);
      options.onToolsChanged(next);
    } catch (error) {
      drop(await explain(error, options));
    }
  });
  client.onclose = () => {
    drop({ kind: "unreachable", message: `The connection to ${shownUrl} closed.`, detail: "onclose" });
  };
  client.onerror = (error) => {
    // A stream broke: whether the server is gone decides between "dropped" and a blip the SDK
    // recovers from by itself.
    if (!/SSE stream disconnected|Failed to fetch|NetworkError|Maximum reconnection/i.test(error.message)) return;
    void probeReachable(options.url).then((reachable) => {
      if (!reachable) drop({ kind: "unreachable", message: unreachableMessage(shownUrl), detail: `${error.name}: ${error.message}` });
    });
  };

  const serverInfo = client.getServerVersion();
  return {
    serverName: serverInfo?.name || url.host,
    serverVersion: serverInfo?.version ?? "",
    protocolVersion: (transport.inner as { protocolVersion?: string }).protocolVersion,
    transport: transportKind,
    tools,
    async callTool(name, args, call) {
      if (dropped) throw new McpFailure({ kind: "unreachable", message: `The server at ${shownUrl} is not connected.`, detail: "dropped" });
      const record = (direction: ToolTraceEntry["direction"], message: unknown) =>
        call.trace?.({ direction, at: Date.now(), message, label: direction === "sent" ? sentLabel : shownUrl });
      // The SDK would wait for a response from a server that went away until the timeout; a
      // drop fails the call at once.
      let onDrop: (failure: ExplainedFailure) => void = () => undefined;
      const whenDropped = new Promise<never>((_resolve, reject) => {
        onDrop = (failure) => reject(new McpFailure(failure));
      });
      whenDropped.catch(() => undefined);
      inFlight.add(onDrop);
      try {
        const request = transport.traceRequest(record, () =>
          client.callTool({ name, arguments: args }, sdk.CompatibilityCallToolResultSchema, { signal: call.signal, timeout: call.timeoutMs }),
        );
        return (await Promise.race([request, whenDropped])) as McpCallResult;
      } catch (error) {
        if (error instanceof McpFailure || call.signal.aborted) throw error;
        const failure = await explain(error, options);
        record("received", { error: failure.detail });
        if (failure.kind === "unreachable" || failure.kind === "cors") drop(failure);
        throw new McpFailure(failure);
      } finally {
        inFlight.delete(onDrop);
      }
    },
    async close() {
      closing = true;
      const streamable = transport.inner as { terminateSession?: () => Promise<void> };
      await streamable.terminateSession?.().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}
