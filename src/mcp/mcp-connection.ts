// One live connection to an MCP server, made with the official SDK's client: Streamable HTTP
// first, the older HTTP+SSE transport when the server does not speak it. The SDK is loaded
// only when a server is connected, and so is this module, so the page's first load carries
// neither.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ToolTraceEntry } from "toolcall-middleware/types.ts";
import { explainFailure, httpStatusOf, isNetworkFailure, unreachableMessage } from "./explain-failure.ts";
import { McpFailure, type ExplainedFailure } from "./mcp-failure.ts";
import { MASK } from "../net/mask-text.ts";
import { maskHeaders, maskSecrets, maskSecretsIn, maskText, maskUrl, secretsOf, urlSecretsOf } from "./mask-secrets.ts";
import type { McpCallResult } from "./tool-result.ts";
import { keptContents, LISTED_ITEMS, logText, type BoundedList, type McpLogEntry, type McpPrompt, type McpResource, type McpResourceTemplate, type ReadResource } from "./mcp-features.ts";
import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpToolDefinition } from "./tool-schema.ts";
import { TraceBudget } from "./trace-budget.ts";
import { TracingTransport } from "./tracing-transport.ts";
import { probeReachable } from "../net/probe-reachable.ts";
import type { OAuthSession } from "./oauth-session.ts";

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
  /** A log message the server sent (`notifications/message`). */
  onLog?: (entry: McpLogEntry) => void;
  /**
   * A JSON-RPC message that belongs to no tool call (secrets masked): a server's request while
   * none of its calls runs (elicitation, sampling), the lab's answer to it, a log message.
   */
  onTrace?: (entry: ToolTraceEntry) => void;
  /** The server's resource or prompt list changed (`notifications/{resources,prompts}/list_changed`). */
  onListChanged?: (what: "resources" | "prompts") => void;
  /** A subscribed resource changed (`notifications/resources/updated`). */
  onResourceUpdated?: (uri: string) => void;
  /** The server asks the person for input (`elicitation/create`): the answer goes back as it is. */
  onElicit?: (params: ElicitRequest["params"], signal: AbortSignal) => Promise<ElicitResult>;
  /** Aborting gives up connecting (the server was removed): listings in flight stop, the transport closes. */
  signal?: AbortSignal;
  /**
   * OAuth for this server (none when the person set an Authorization header): used at once when
   * it holds tokens, else after a 401 from a server that publishes protected-resource metadata.
   */
  oauth?: OAuthSession;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  trace?: (entry: ToolTraceEntry) => void;
  /** The server's progress notifications for this call. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Runs a sampling request the server makes while this call is in flight (asks the person first). */
  sample?: (params: CreateMessageRequest["params"], signal: AbortSignal) => Promise<CreateMessageResult>;
}

export interface McpConnection {
  readonly serverName: string;
  readonly serverVersion: string;
  readonly protocolVersion: string | undefined;
  readonly transport: TransportKind;
  readonly tools: McpToolDefinition[];
  /** What the server offers besides tools (resources, subscriptions, prompts, logging). */
  readonly capabilities: { resources: boolean; subscribe: boolean; prompts: boolean; logging: boolean };
  callTool: (name: string, args: Record<string, unknown>, options: CallOptions) => Promise<McpCallResult>;
  listResources: () => Promise<BoundedList<McpResource>>;
  listResourceTemplates: () => Promise<BoundedList<McpResourceTemplate>>;
  readResource: (uri: string) => Promise<ReadResource[]>;
  /** The address a template gives for these values (RFC 6570, the SDK's expansion). */
  expandTemplate: (uriTemplate: string, values: Record<string, string>) => string;
  subscribe: (uri: string) => Promise<void>;
  listPrompts: () => Promise<BoundedList<McpPrompt>>;
  getPrompt: (name: string, args: Record<string, string>) => Promise<GetPromptResult>;
  close: () => Promise<void>;
}

const CLIENT_INFO = { name: "toolcall-lab", version: "0.1.0" };

type Sdk = {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  StreamableHTTPClientTransport: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
  SSEClientTransport: typeof import("@modelcontextprotocol/sdk/client/sse.js").SSEClientTransport;
  ToolListChangedNotificationSchema: typeof import("@modelcontextprotocol/sdk/types.js").ToolListChangedNotificationSchema;
  CompatibilityCallToolResultSchema: typeof import("@modelcontextprotocol/sdk/types.js").CompatibilityCallToolResultSchema;
  types: typeof import("@modelcontextprotocol/sdk/types.js");
  UriTemplate: typeof import("@modelcontextprotocol/sdk/shared/uriTemplate.js").UriTemplate;
  auth: typeof import("@modelcontextprotocol/sdk/client/auth.js");
};

let sdkLoading: Promise<Sdk> | null = null;

function loadSdk(): Promise<Sdk> {
  sdkLoading ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/shared/uriTemplate.js"),
    import("@modelcontextprotocol/sdk/client/auth.js"),
  ]).then(([client, streamable, sse, types, uriTemplate, auth]) => ({
    types,
    auth,
    UriTemplate: uriTemplate.UriTemplate,
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

/** Every secret the person configured for a server: header values and the address's credentials. */
export function connectionSecrets(url: string, headers: Record<string, string>): string[] {
  return [...new Set([...secretsOf(headers), ...urlSecretsOf(url)])].sort((a, b) => b.length - a.length);
}

/** A failure as the person and the log may see it: a server that echoes a secret in its error gets it masked. */
function maskFailure(failure: ExplainedFailure, secrets: readonly string[]): ExplainedFailure {
  return { ...failure, message: maskText(failure.message, secrets), detail: maskText(failure.detail, secrets) };
}

async function explain(error: unknown, options: Pick<ConnectOptions, "url" | "headers" | "origin" | "oauth">, fallbackError?: unknown): Promise<ExplainedFailure> {
  const reachable = isNetworkFailure(error) ? await probeReachable(options.url) : undefined;
  const secrets = [...connectionSecrets(options.url, options.headers), ...(options.oauth?.secrets() ?? [])];
  return maskFailure(await explainUnmasked(error, options, reachable, fallbackError), secrets);
}

function explainUnmasked(error: unknown, options: Pick<ConnectOptions, "url" | "headers" | "origin">, reachable: boolean | undefined, fallbackError?: unknown): ExplainedFailure {
  return explainFailure(error, {
    url: maskUrl(options.url),
    origin: options.origin,
    sentAuthorization: Object.keys(options.headers).some((name) => name.toLowerCase() === "authorization"),
    ...(reachable !== undefined ? { reachable } : {}),
    ...(fallbackError !== undefined ? { fallbackError } : {}),
  });
}

/**
 * An OAuth step that did not end in a token, said for the person; undefined for other errors.
 * "Sign in" means the SDK reached the point of sending the person to the authorization server.
 */
function explainSignIn(error: unknown, sdk: Sdk, shownUrl: string, secrets: readonly string[]): ExplainedFailure | undefined {
  const detail = maskText(error instanceof Error ? `${error.name}: ${error.message}` : String(error), secrets);
  if (error instanceof sdk.auth.UnauthorizedError) {
    // The SDK's class keeps the name "Error": the detail names it, so the panel knows a plain request to sign in.
    return { kind: "sign-in", message: `${shownUrl} needs you to sign in (OAuth): press Sign in on its card in MCP servers.`, detail: `UnauthorizedError: ${detail.replace(/^Error: /, "")}` };
  }
  // The SDK's OAuth errors carry the spec's error code (invalid_grant, invalid_client, …).
  const oauthCode = (error as { errorCode?: unknown } | null)?.errorCode;
  if (typeof oauthCode === "string" || /oauth|authorization server|protected resource metadata|client registration/i.test(detail)) {
    return { kind: "sign-in", message: `Signing in to ${shownUrl} failed: ${detail.slice(0, 400)}`, detail };
  }
  return undefined;
}

/**
 * The second half of a sign-in: the code that came back (its state already checked) is
 * exchanged for tokens with the PKCE verifier, for this server as the `resource`.
 */
export async function exchangeSignInCode(session: OAuthSession, serverUrl: string, code: string): Promise<void> {
  const sdk = await loadSdk();
  const discovery = await session.discoveryState?.();
  const result = await sdk.auth.auth(session, {
    serverUrl,
    authorizationCode: code,
    ...(discovery?.resourceMetadataUrl ? { resourceMetadataUrl: new URL(discovery.resourceMetadataUrl) } : {}),
  });
  if (result !== "AUTHORIZED") throw new Error("The authorization server did not give the lab a token.");
}

/** Characters of JSON one message in the connection's trace keeps. */
export const CONNECTION_TRACE_CHARS = 20_000;

/** A tool list of more pages than this, or that takes longer, is refused: a server could page forever. */
export const MAX_LIST_PAGES = 100;
export const LIST_TIME_LIMIT_MS = 30_000;

function listFailure(message: string, detail: string): McpFailure {
  return new McpFailure({ kind: "other", message, detail });
}

/**
 * Every page of the server's tool list, within MAX_LIST_PAGES pages and LIST_TIME_LIMIT_MS; a
 * cursor seen before ends it at once (the server is going round in circles).
 */
async function listAllTools(client: Client, lifetime: AbortSignal, shownUrl: string): Promise<McpToolDefinition[]> {
  // Its own signal, following the connection's: the SDK's listener on it go with it.
  const listing = new AbortController();
  const stop = () => listing.abort();
  lifetime.addEventListener("abort", stop, { once: true });
  try {
    return await listPages(client, listing.signal, shownUrl);
  } finally {
    lifetime.removeEventListener("abort", stop);
  }
}

async function listPages(client: Client, signal: AbortSignal, shownUrl: string): Promise<McpToolDefinition[]> {
  const tools: McpToolDefinition[] = [];
  const seen = new Set<string>();
  const started = Date.now();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const left = LIST_TIME_LIMIT_MS - (Date.now() - started);
    if (left <= 0) throw listFailure(`The server at ${shownUrl} took more than ${LIST_TIME_LIMIT_MS / 1000} s to list its tools (${pages - 1} pages, ${tools.length} tools so far); the lab stopped asking.`, "tools/list time limit");
    let page: Awaited<ReturnType<Client["listTools"]>>;
    try {
      page = await client.listTools(cursor ? { cursor } : undefined, { signal, timeout: left });
    } catch (error) {
      if (signal.aborted) throw listFailure("Connecting was cancelled: the server was removed.", "removed");
      if (Date.now() - started >= LIST_TIME_LIMIT_MS) throw listFailure(`The server at ${shownUrl} took more than ${LIST_TIME_LIMIT_MS / 1000} s to list its tools (${pages - 1} pages, ${tools.length} tools so far); the lab stopped asking.`, "tools/list time limit");
      throw error;
    }
    tools.push(...(page.tools as McpToolDefinition[]));
    cursor = page.nextCursor;
    if (!cursor) return tools;
    if (seen.has(cursor)) throw listFailure(`The server at ${shownUrl} sent the same tool-list page cursor twice (after ${pages} pages): its list never ends, so the lab stopped asking.`, "tools/list cursor repeated");
    seen.add(cursor);
    if (pages >= MAX_LIST_PAGES) throw listFailure(`The server at ${shownUrl} still named a next page of its tool list after ${MAX_LIST_PAGES} pages (${tools.length} tools so far): the lab stops there, as a list that never ends would keep it connecting forever.`, "tools/list page limit");
  }
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
  const configured = connectionSecrets(options.url, options.headers);
  // The OAuth tokens change with each refresh: the list is read each time.
  const secrets = () => (options.oauth ? [...configured, ...options.oauth.secrets()].sort((a, b) => b.length - a.length) : configured);
  // What a server sends that goes on to the model, the log or the panel has the person's secrets masked.
  const masked = (definitions: McpToolDefinition[]) => maskSecretsIn(definitions, secrets());
  const shownUrl = maskUrl(options.url);
  const sentHeaders = () => [...Object.entries(maskHeaders(options.headers)).map(([name, value]) => `${name}: ${value}`), ...(withOAuth ? [`Authorization: Bearer ${MASK} (OAuth)`] : [])];
  const sentLabel = () => [`POST ${shownUrl}`, ...sentHeaders()].join(" · ");

  let closing = false;
  // Ends with the connection (close, or the caller giving up): listings in flight stop with it.
  const lifetime = new AbortController();
  const giveUp = () => lifetime.abort();
  if (options.signal?.aborted) giveUp();
  else options.signal?.addEventListener("abort", giveUp, { once: true });
  /** Calls in flight, newest last: a sampling request the server makes belongs to the call it is serving. */
  const callsInFlight: CallOptions[] = [];
  const installHandlers = (client: Client) => {
    const { types } = sdk;
    client.setRequestHandler(types.CreateMessageRequestSchema, async (request, extra) => {
      const call = callsInFlight.at(-1);
      if (!call?.sample) throw new types.McpError(types.ErrorCode.InvalidRequest, "The lab runs sampling requests only while one of this server's tools is running (the request is shown under that call).");
      return call.sample(maskSecretsIn(request.params, secrets()), extra.signal);
    });
    if (options.onElicit) {
      const onElicit = options.onElicit;
      client.setRequestHandler(types.ElicitRequestSchema, (request, extra) => onElicit(maskSecretsIn(request.params, secrets()), extra.signal));
    }
    client.setNotificationHandler(types.LoggingMessageNotificationSchema, (notification) => {
      const { level, logger, data } = notification.params;
      options.onLog?.({ at: Date.now(), level, ...(logger ? { logger: maskText(logger, secrets()) } : {}), text: maskText(logText(data), secrets()) });
    });
    client.setNotificationHandler(types.ResourceListChangedNotificationSchema, () => options.onListChanged?.("resources"));
    client.setNotificationHandler(types.PromptListChangedNotificationSchema, () => options.onListChanged?.("prompts"));
    client.setNotificationHandler(types.ResourceUpdatedNotificationSchema, (notification) => {
      options.onResourceUpdated?.(notification.params.uri);
    });
  };
  const cancelled = () => new McpFailure({ kind: "other", message: "Connecting was cancelled: the server was removed.", detail: "removed" });
  // The last 401's challenge: it names where the server's protected-resource metadata is.
  let challenge: string | null = null;
  // An access token near its expiry (by its `expires_in`) is refreshed before a request to the
  // server goes out, with the SDK's own refresh (the refresh token goes only to the authorization
  // server that issued it), one refresh at a time; the request then carries the new token. A
  // refresh refused leaves the request as it was: the server's 401 leads to sign-in as before.
  let refreshing: Promise<void> | null = null;
  const refreshAhead = (): Promise<void> => {
    const oauth = options.oauth;
    if (!withOAuth || !oauth?.refreshDue()) return Promise.resolve();
    refreshing ??= (async () => {
      const discovery = await oauth.discoveryState?.();
      await sdk.auth.auth(oauth, { serverUrl: url, ...(discovery?.resourceMetadataUrl ? { resourceMetadataUrl: new URL(discovery.resourceMetadataUrl) } : {}) });
    })()
      .catch(() => undefined)
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };
  const toTheServer = (input: Parameters<typeof fetch>[0]) => {
    try {
      const target = new URL(input instanceof Request ? input.url : String(input));
      return target.origin === url.origin && target.pathname === url.pathname;
    } catch {
      return false;
    }
  };
  const noticingFetch: typeof fetch = async (input, init) => {
    if (withOAuth && options.oauth?.refreshDue() && toTheServer(input)) {
      await refreshAhead();
      const token = options.oauth.tokens() as { access_token?: string } | undefined;
      const headers = new Headers(init?.headers);
      if (token?.access_token && headers.has("authorization")) headers.set("Authorization", `Bearer ${token.access_token}`);
      init = { ...init, headers };
    }
    const response = await fetch(input, init);
    if (response.status === 401) challenge = response.headers.get("www-authenticate");
    return response;
  };
  let withOAuth = Boolean(options.oauth?.signedIn());
  // What the connection's own trace keeps of each message (as a call's trace does, per message).
  const connectionBudget = { keep: (message: unknown) => new TraceBudget(CONNECTION_TRACE_CHARS).keep(message) };
  const attempt = async (kind: TransportKind) => {
    const authProvider = withOAuth ? options.oauth : undefined;
    const inner: Transport =
      kind === "streamable-http"
        ? new sdk.StreamableHTTPClientTransport(url, { requestInit, fetch: noticingFetch, ...(authProvider ? { authProvider } : {}) })
        : new sdk.SSEClientTransport(url, { requestInit, fetch: noticingFetch, ...(authProvider ? { authProvider } : {}) });
    const transport = new TracingTransport(
      inner,
      (message) => maskSecrets(message, secrets()),
      options.onTrace ? (direction, message) => options.onTrace?.({ direction, at: Date.now(), message: connectionBudget.keep(message), label: direction === "sent" ? sentLabel() : shownUrl }) : undefined,
    );
    const client = new sdk.Client(CLIENT_INFO, {
      capabilities: {
        ...(options.onElicit ? { elicitation: { form: {}, url: {} } } : {}),
        sampling: {},
      },
    });
    installHandlers(client);
    try {
      await client.connect(transport, { signal: lifetime.signal });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return { client, transport };
  };

  /** A 401 from a server that publishes where to sign in: the attempt is made again with OAuth. */
  const offersOAuth = async (error: unknown): Promise<boolean> => {
    if (!options.oauth || withOAuth || httpStatusOf(error) !== 401) return false;
    const named = challenge ? /resource_metadata="([^"]+)"/.exec(challenge)?.[1] : undefined;
    try {
      const metadata = await sdk.auth.discoverOAuthProtectedResourceMetadata(url, named ? { resourceMetadataUrl: named } : undefined);
      return (metadata.authorization_servers?.length ?? 0) > 0;
    } catch {
      return false;
    }
  };
  const signInFailure = (error: unknown) => explainSignIn(error, sdk, shownUrl, secrets());
  const connectStreamable = async () => {
    try {
      return await attempt("streamable-http");
    } catch (error) {
      if (lifetime.signal.aborted || !(await offersOAuth(error))) throw error;
      withOAuth = true;
      return await attempt("streamable-http");
    }
  };

  let connected: Awaited<ReturnType<typeof attempt>>;
  let transportKind: TransportKind = "streamable-http";
  try {
    connected = await connectStreamable();
  } catch (error) {
    if (lifetime.signal.aborted) throw cancelled();
    const signIn = withOAuth ? signInFailure(error) : undefined;
    if (signIn) throw new McpFailure(signIn);
    if (!worthSseFallback(error)) throw new McpFailure(await explain(error, options));
    try {
      connected = await attempt("sse");
      transportKind = "sse";
    } catch (fallbackError) {
      if (lifetime.signal.aborted) throw cancelled();
      throw new McpFailure(await explain(error, options, fallbackError));
    }
  }
  const { client, transport } = connected;

  let tools: McpToolDefinition[];
  try {
    tools = masked(await listAllTools(client, lifetime.signal, shownUrl));
  } catch (error) {
    closing = true;
    await client.close().catch(() => undefined);
    throw error instanceof McpFailure ? error : new McpFailure(await explain(error, options));
  }
  if (lifetime.signal.aborted) {
    closing = true;
    await client.close().catch(() => undefined);
    throw cancelled();
  }

  const inFlight = new Set<(failure: ExplainedFailure) => void>();
  let dropped = false;
  const drop = (failure: ExplainedFailure) => {
    if (closing || dropped) return;
    dropped = true;
    for (const reject of inFlight) reject(failure);
    options.onDropped(failure);
  };

  // A changed list is listed again — one listing at a time, and at most one more queued behind
  // it however many notifications arrive meanwhile (a storm of them must not start a listing each).
  let listing = false;
  let queued = false;
  const relist = async () => {
    if (listing) {
      queued = true;
      return;
    }
    listing = true;
    try {
      do {
        queued = false;
        const next = masked(await listAllTools(client, lifetime.signal, shownUrl));
        if (closing) return;
        tools.splice(0, tools.length, ...next);
        options.onToolsChanged(next);
      } while (queued && !closing);
    } catch (error) {
      if (!closing) drop(error instanceof McpFailure ? error.failure : await explain(error, options));
    } finally {
      listing = false;
    }
  };
  client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
    void relist();
  });
  client.onclose = () => {
    drop({ kind: "unreachable", message: `The connection to ${shownUrl} closed.`, detail: "onclose" });
  };
  client.onerror = (error) => {
    // A stream broke: whether the server is gone decides between "dropped" and a blip the SDK
    // recovers from by itself.
    if (!/SSE stream disconnected|Failed to fetch|NetworkError|Maximum reconnection/i.test(error.message)) return;
    void probeReachable(options.url).then((reachable) => {
      if (!reachable) drop(maskFailure({ kind: "unreachable", message: unreachableMessage(shownUrl), detail: `${error.name}: ${error.message}` }, secrets()));
    });
  };

  /** Every page of a list, kept to LISTED_ITEMS items, within the tool list's page and time limits. */
  async function listBounded<T>(what: string, page: (cursor: string | undefined, signal: AbortSignal, timeout: number) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<BoundedList<T>> {
    const items: T[] = [];
    let total = 0;
    const seen = new Set<string>();
    const started = Date.now();
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const left = LIST_TIME_LIMIT_MS - (Date.now() - started);
      if (left <= 0) return { items, total, note: `The server took more than ${LIST_TIME_LIMIT_MS / 1000} s to list its ${what}; the lab stopped asking.` };
      const result = await page(cursor, lifetime.signal, left);
      total += result.items.length;
      if (items.length < LISTED_ITEMS) items.push(...maskSecretsIn(result.items.slice(0, LISTED_ITEMS - items.length), secrets()));
      cursor = result.nextCursor;
      if (!cursor) return { items, total };
      if (seen.has(cursor)) return { items, total, note: `The server sent the same page cursor twice while listing its ${what}; the lab stopped asking.` };
      seen.add(cursor);
      if (pages >= MAX_LIST_PAGES) return { items, total, note: `The server still named a next page of its ${what} after ${MAX_LIST_PAGES} pages; the lab stopped there.` };
    }
  }

  const serverCapabilities = client.getServerCapabilities() ?? {};
  const serverInfo = client.getServerVersion();
  return {
    serverName: serverInfo?.name || url.host,
    serverVersion: serverInfo?.version ?? "",
    protocolVersion: (transport.inner as { protocolVersion?: string }).protocolVersion,
    transport: transportKind,
    tools,
    capabilities: {
      resources: Boolean(serverCapabilities.resources),
      subscribe: Boolean(serverCapabilities.resources?.subscribe),
      prompts: Boolean(serverCapabilities.prompts),
      logging: Boolean(serverCapabilities.logging),
    },
    listResources: () =>
      listBounded("resources", async (cursor, signal, timeout) => {
        const page = await client.listResources(cursor ? { cursor } : undefined, { signal, timeout });
        return { items: page.resources as McpResource[], nextCursor: page.nextCursor };
      }),
    listResourceTemplates: () =>
      listBounded("resource templates", async (cursor, signal, timeout) => {
        const page = await client.listResourceTemplates(cursor ? { cursor } : undefined, { signal, timeout });
        return { items: page.resourceTemplates as McpResourceTemplate[], nextCursor: page.nextCursor };
      }),
    async readResource(uri) {
      const result = await client.readResource({ uri }, { signal: lifetime.signal });
      return maskSecretsIn(keptContents(result.contents), secrets());
    },
    expandTemplate: (uriTemplate, values) => new sdk.UriTemplate(uriTemplate).expand(values),
    async subscribe(uri) {
      await client.subscribeResource({ uri }, { signal: lifetime.signal });
    },
    listPrompts: () =>
      listBounded("prompts", async (cursor, signal, timeout) => {
        const page = await client.listPrompts(cursor ? { cursor } : undefined, { signal, timeout });
        return { items: page.prompts as McpPrompt[], nextCursor: page.nextCursor };
      }),
    async getPrompt(name, args) {
      return maskSecretsIn(await client.getPrompt({ name, arguments: args }, { signal: lifetime.signal }), secrets());
    },
    async callTool(name, args, call) {
      if (dropped) throw new McpFailure({ kind: "unreachable", message: `The server at ${shownUrl} is not connected.`, detail: "dropped" });
      const budget = new TraceBudget();
      const record = (direction: ToolTraceEntry["direction"], message: unknown) =>
        call.trace?.({ direction, at: Date.now(), message: budget.keep(message), label: direction === "sent" ? sentLabel() : shownUrl });
      // The SDK would wait for a response from a server that went away until the timeout; a
      // drop fails the call at once.
      let onDrop: (failure: ExplainedFailure) => void = () => undefined;
      const whenDropped = new Promise<never>((_resolve, reject) => {
        onDrop = (failure) => reject(new McpFailure(failure));
      });
      whenDropped.catch(() => undefined);
      inFlight.add(onDrop);
      callsInFlight.push(call);
      try {
        const onprogress = call.onProgress
          ? (progress: { progress: number; total?: number; message?: string }) =>
              call.onProgress?.({ progress: progress.progress, ...(progress.total !== undefined ? { total: progress.total } : {}), ...(progress.message ? { message: maskText(progress.message.slice(0, 500), secrets()) } : {}) })
          : undefined;
        const request = transport.traceRequest(record, () =>
          client.callTool({ name, arguments: args }, sdk.CompatibilityCallToolResultSchema, {
            signal: call.signal,
            timeout: call.timeoutMs,
            ...(onprogress ? { onprogress, resetTimeoutOnProgress: false } : {}),
          }),
        );
        return maskSecretsIn((await Promise.race([request, whenDropped])) as McpCallResult, secrets());
      } catch (error) {
        if (error instanceof McpFailure || call.signal.aborted) throw error;
        const signIn = withOAuth ? signInFailure(error) : undefined;
        if (signIn) {
          record("received", { error: signIn.detail });
          drop(signIn);
          throw new McpFailure(signIn);
        }
        const failure = await explain(error, options);
        record("received", { error: failure.detail });
        if (failure.kind === "unreachable" || failure.kind === "cors") drop(failure);
        throw new McpFailure(failure);
      } finally {
        inFlight.delete(onDrop);
        callsInFlight.splice(callsInFlight.indexOf(call), 1);
      }
    },
    async close() {
      closing = true;
      lifetime.abort();
      options.signal?.removeEventListener("abort", giveUp);
      const closed: ExplainedFailure = { kind: "other", message: `The lab disconnected from ${shownUrl} (the server was removed or reconnected).`, detail: "closed" };
      for (const reject of inFlight) reject(closed);
      const streamable = transport.inner as { terminateSession?: () => Promise<void> };
      await streamable.terminateSession?.().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}
