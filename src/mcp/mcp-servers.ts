// The MCP servers this browser connects to: their status, their tools, and calls to them. A
// server that drops its session or goes away is reconnected on the next call; when that fails
// the call fails with the reason, and the server is marked so in the panel.
import { createStore, type StoreApi } from "zustand/vanilla";
import type { ToolContext, ToolTraceEntry } from "toolcall-middleware/types.ts";
import { McpFailure, type ExplainedFailure } from "./mcp-failure.ts";
import type { McpConnection, TransportKind } from "./mcp-connection.ts";
import { urlWithoutSecrets } from "./mask-secrets.ts";
import { loadServers, saveServers, type ServerRecord } from "./saved-servers.ts";
import type { McpCallResult } from "./tool-result.ts";
import type { McpToolDefinition } from "./tool-schema.ts";
import { MAX_LOG_ENTRIES, type BoundedList, type McpLogEntry, type McpPrompt, type McpResource, type McpResourceTemplate, type ReadResource } from "./mcp-features.ts";
import type { CreateMessageRequest, ElicitRequest, ElicitResult, GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { CALLBACK_CHANNEL, createOAuthSession, revokeTokens, type OAuthCallback, type OAuthSession } from "./oauth-session.ts";

export type ServerStatus = "connecting" | "connected" | "disconnected" | "failed" | "sign-in";

/** OAuth as the panel shows it: never a token, only where and whether. */
export interface McpSignInView {
  /** The authorization server's host, once discovery found it. */
  authorizationServer?: string;
  signedIn: boolean;
  /** The address to send the person to (opened only by the Sign in button). */
  authorizationUrl?: string;
  /** The sign-in window is open, or its code is being exchanged. */
  waiting?: "window" | "exchange";
}

export interface McpServerView extends ServerRecord {
  status: ServerStatus;
  serverName?: string;
  serverVersion?: string;
  transport?: TransportKind;
  protocolVersion?: string;
  /** The tools last listed; kept while disconnected, so a call says why it cannot run. */
  tools: McpToolDefinition[];
  /** Why the last connection or call failed. */
  failure?: ExplainedFailure;
  /** What changed by itself (a reconnect, a new tool list). */
  notice?: string;
  /** What the server offers besides tools, once connected. */
  capabilities?: McpConnection["capabilities"];
  /** The server's log messages, newest last (at most MAX_LOG_ENTRIES). */
  log: McpLogEntry[];
  /** JSON-RPC messages that belong to no tool call (a request while none runs, its answer, log messages), newest last (at most MAX_CONNECTION_TRACE). */
  trace?: ToolTraceEntry[];
  /** Whether a destructive tool of this server asks before it runs (the person may say no more, for this tab). */
  askDestructive: boolean;
  /** Subscribed resources that changed, by address, with when. */
  updatedResources: Record<string, number>;
  /** How often the server said its resource or prompt list changed: an open list is read again. */
  listChanges?: { resources: number; prompts: number };
  /** Set once the server asked for OAuth (a 401 with protected-resource metadata) or tokens are held. */
  oauth?: McpSignInView;
}

/** A request from a server (or a destructive tool) waiting for the person, shown as a dialog. */
export type McpRequest = { id: string; serverId: string; serverName: string; at: number } & (
  | { kind: "elicit-form"; message: string; schema: Extract<ElicitRequest["params"], { requestedSchema: unknown }>["requestedSchema"] }
  | { kind: "elicit-url"; message: string; url: string; elicitationId: string }
  | { kind: "sampling"; toolName: string; callId: string; systemPrompt?: string; messages: Array<{ role: string; text: string }>; maxTokens: number; size: number }
  | { kind: "destructive"; toolName: string; args: Record<string, unknown> }
);

export type McpAnswer =
  | { kind: "elicit"; result: ElicitResult }
  | { kind: "approve"; approved: boolean; dontAskAgain?: boolean };

/** A call's latest progress notification, shown on its card. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Messages the connection's own trace keeps (the newest). */
export const MAX_CONNECTION_TRACE = 100;

/** Requests of one server waiting at once; more are declined at once (a server asking in a loop). */
export const MAX_WAITING_REQUESTS = 3;

export interface McpState {
  servers: McpServerView[];
  /** Requests waiting for the person, oldest first. */
  requests: McpRequest[];
  /** Progress of MCP tool calls in flight, by call id. */
  progress: Record<string, McpProgress>;
  /** Text for the message box (an attached resource, an inserted prompt); `seq` tells a new one from the last. */
  composerInsert: { seq: number; text: string } | null;
  /** Why the list could not be stored, if it could not. */
  storageError: string | null;
}

export type McpStore = StoreApi<McpState>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** "Sign in" plainly asked for: the card's sign-in box says it, no error is shown besides. */
function plainSignInRequest(failure: ExplainedFailure): boolean {
  return failure.kind === "sign-in" && failure.detail.startsWith("UnauthorizedError");
}

function origin(): string {
  return globalThis.location?.origin ?? "null";
}

function describeToolChange(before: McpToolDefinition[], after: McpToolDefinition[]): string {
  const had = new Set(before.map((tool) => tool.name));
  const has = new Set(after.map((tool) => tool.name));
  const added = [...has].filter((name) => !had.has(name));
  const removed = [...had].filter((name) => !has.has(name));
  // A few names, then how many more: a server may change thousands at once.
  const names = (list: string[]) => (list.length > 8 ? `${list.slice(0, 8).join(", ")} and ${list.length - 8} more` : list.join(", "));
  const parts = [added.length ? `added ${names(added)}` : "", removed.length ? `removed ${names(removed)}` : ""].filter(Boolean);
  return `The server changed its tool list${parts.length ? ` (${parts.join("; ")})` : ""}.`;
}

/** The connection code and the SDK load with the first server, not with the page. */
function loadConnector(): Promise<typeof import("./mcp-connection.ts")> {
  return import("./mcp-connection.ts").catch((error: unknown) => {
    throw new McpFailure({ kind: "other", message: `The lab could not load its MCP client: ${String(error)}`, detail: String(error) });
  });
}

function newServerId(): string {
  return `mcp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Checks an address the person typed; returns the normalised URL or why it cannot be used. */
export function checkServerUrl(text: string): { url: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { error: `"${text.trim()}" is not an address: write it in full, e.g. http://127.0.0.1:3000/mcp.` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { error: "MCP servers are reached over http:// or https://." };
  return { url: url.href };
}

/** The page's MCP servers: their store, the actions on the list, and calls to their tools. The live connections are kept here, with the store. */
export function createMcpServers() {
  const store = createStore<McpState>()(() => ({ servers: [], storageError: null, requests: [], progress: {}, composerInsert: null }));
  /** How each waiting request is answered. */
  const answerers = new Map<string, (answer: McpAnswer) => void>();
  let requestSeq = 0;

  /** Shows a request to the person and waits for the answer; `signal` withdraws it (the server cancelled, the turn stopped). */
  function ask(request: DistributiveOmit<McpRequest, "id" | "at">, signal: AbortSignal): Promise<McpAnswer> {
    const waiting = store.getState().requests.filter((r) => r.serverId === request.serverId).length;
    if (waiting >= MAX_WAITING_REQUESTS) {
      patch(request.serverId, { notice: `The server sent another request while ${waiting} were waiting for you; the lab declined it.` });
      return Promise.resolve(request.kind.startsWith("elicit") ? { kind: "elicit", result: { action: "decline" } } : { kind: "approve", approved: false });
    }
    const id = `req-${++requestSeq}`;
    return new Promise<McpAnswer>((resolve, reject) => {
      const done = () => {
        answerers.delete(id);
        signal.removeEventListener("abort", withdraw);
        store.setState((state) => ({ requests: state.requests.filter((r) => r.id !== id) }));
      };
      const withdraw = () => {
        done();
        reject(signal.reason instanceof Error ? signal.reason : new Error("The request was withdrawn."));
      };
      if (signal.aborted) return withdraw();
      signal.addEventListener("abort", withdraw, { once: true });
      answerers.set(id, (answer) => {
        done();
        resolve(answer);
      });
      store.setState((state) => ({ requests: [...state.requests, { ...request, id, at: Date.now() } as McpRequest] }));
    });
  }

  const connections = new Map<string, McpConnection>();
  /** Per server without a fixed Authorization header, its OAuth state (tokens stay in there). */
  const oauthSessions = new Map<string, OAuthSession>();
  /** Servers whose sign-in window is open, and the channel their answers come back on. */
  const waitingSignIns = new Set<string>();
  let callbackChannel: BroadcastChannel | null = null;

  function oauthFor(id: string, server: McpServerView): OAuthSession | undefined {
    if (Object.keys(server.headers).some((name) => name.toLowerCase() === "authorization")) return undefined;
    let session = oauthSessions.get(id);
    if (!session) {
      session = createOAuthSession({
        serverUrl: server.url,
        origin: origin(),
        onSignInNeeded: (authorizationUrl) => {
          patch(id, (before) => ({ oauth: { ...oauthView(id), authorizationUrl: authorizationUrl.href, ...(before.oauth?.waiting ? { waiting: before.oauth.waiting } : {}) } }));
        },
      });
      oauthSessions.set(id, session);
    }
    return session;
  }

  function oauthView(id: string): McpSignInView {
    const session = oauthSessions.get(id);
    const where = session?.authorizationServer();
    let host: string | undefined;
    try {
      host = where ? new URL(where).host : undefined;
    } catch {
      host = where;
    }
    return { signedIn: Boolean(session?.signedIn()), ...(host ? { authorizationServer: host } : {}) };
  }

  function signInFailed(id: string, message: string, detail: string): void {
    patch(id, { status: "sign-in", failure: { kind: "sign-in", message, detail }, oauth: oauthView(id) });
    // A fresh authorization address (new state, new verifier) for the next try; the refusal stays said.
    void connect(id).catch(() => patch(id, { failure: { kind: "sign-in", message, detail } }));
  }

  async function onCallback(answer: OAuthCallback): Promise<void> {
    const id = [...waitingSignIns].find((waiting) => oauthSessions.get(waiting)?.expectsState(answer.state));
    if (!id) {
      // An answer nobody asked for (a forged state, an old window): every waiting sign-in says so.
      for (const waiting of [...waitingSignIns]) {
        stopWaiting(waiting);
        const checked = oauthSessions.get(waiting)?.checkCallback(answer);
        signInFailed(waiting, checked && "error" in checked ? checked.error : "The sign-in answer was refused.", "state mismatch");
      }
      return;
    }
    stopWaiting(id);
    const session = oauthSessions.get(id);
    const server = find(id);
    if (!session || !server) return;
    const checked = session.checkCallback(answer);
    if ("error" in checked) return signInFailed(id, checked.error, "callback refused");
    patch(id, { oauth: { ...oauthView(id), waiting: "exchange" } });
    try {
      const { exchangeSignInCode } = await loadConnector();
      await exchangeSignInCode(session, server.url, checked.code);
    } catch (error) {
      session.invalidateCredentials?.("tokens");
      const text = error instanceof Error ? error.message : String(error);
      return signInFailed(id, `The authorization server did not exchange the sign-in code for a token (${text.slice(0, 300)}). Nothing was kept; sign in again.`, text);
    }
    patch(id, { oauth: oauthView(id), failure: undefined });
    await connect(id, "Signed in.").catch(() => undefined);
  }

  function stopWaiting(id: string): void {
    waitingSignIns.delete(id);
    if (waitingSignIns.size === 0) {
      callbackChannel?.close();
      callbackChannel = null;
    }
  }
  /** Per server, the attempt whose result counts (a newer reconnect or a removal wins). */
  const attempts = new Map<string, number>();
  const pendingConnects = new Map<string, Promise<McpConnection>>();
  /** Per server, what cancels its connection attempt in flight (Remove). */
  const connectAborts = new Map<string, AbortController>();

  function patch(id: string, change: Partial<McpServerView> | ((server: McpServerView) => Partial<McpServerView>)): void {
    store.setState((state) => ({
      servers: state.servers.map((server) => (server.id === id ? { ...server, ...(typeof change === "function" ? change(server) : change) } : server)),
    }));
  }

  function find(id: string): McpServerView | undefined {
    return store.getState().servers.find((server) => server.id === id);
  }

  function persist(): void {
    const records = store.getState().servers.map(({ id, url, keepHeaders, headers }) => ({ id, url, keepHeaders, headers }));
    store.setState({ storageError: saveServers(records) });
  }

  /** Connects (or reconnects) a listed server; resolves with the live connection. */
  function connect(id: string, notice?: string): Promise<McpConnection> {
    const pending = pendingConnects.get(id);
    if (pending) return pending;
    const server = find(id);
    if (!server) return Promise.reject(new McpFailure({ kind: "other", message: "This MCP server was removed.", detail: "removed" }));
    const attempt = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, attempt);
    const current = () => attempts.get(id) === attempt;
    const old = connections.get(id);
    connections.delete(id);
    void old?.close();
    patch(id, { status: "connecting" });
    const abort = new AbortController();
    connectAborts.set(id, abort);
    const oauth = oauthFor(id, server);

    const promise = loadConnector().then(({ connectMcp }) => connectMcp({
      url: server.url,
      headers: server.headers,
      origin: origin(),
      signal: abort.signal,
      ...(oauth ? { oauth } : {}),
      onToolsChanged: (tools) => {
        if (!current()) return;
        patch(id, (before) => ({ tools: [...tools], notice: describeToolChange(before.tools, tools) }));
      },
      onLog: (entry) => {
        if (!current()) return;
        patch(id, (before) => ({ log: [...before.log.slice(-(MAX_LOG_ENTRIES - 1)), entry] }));
      },
      onTrace: (entry) => {
        if (!current()) return;
        patch(id, (before) => ({ trace: [...(before.trace ?? []).slice(-(MAX_CONNECTION_TRACE - 1)), entry] }));
      },
      onListChanged: (what) => {
        if (!current()) return;
        patch(id, (before) => {
          const changes = before.listChanges ?? { resources: 0, prompts: 0 };
          return { listChanges: { ...changes, [what]: changes[what] + 1 } };
        });
      },
      onResourceUpdated: (uri) => {
        if (!current()) return;
        patch(id, (before) => (Object.keys(before.updatedResources).length < 500 || uri in before.updatedResources ? { updatedResources: { ...before.updatedResources, [uri]: Date.now() } } : {}));
      },
      onElicit: async (params, signal) => {
        const serverName = find(id)?.serverName ?? new URL(server.url).host;
        const answer =
          params.mode === "url"
            ? await ask({ kind: "elicit-url", serverId: id, serverName, message: params.message.slice(0, 4_000), url: params.url, elicitationId: params.elicitationId }, signal)
            : await ask({ kind: "elicit-form", serverId: id, serverName, message: params.message.slice(0, 4_000), schema: params.requestedSchema }, signal);
        return answer.kind === "elicit" ? answer.result : { action: "decline" };
      },
      onDropped: (failure) => {
        if (!current()) return;
        connections.delete(id);
        patch(id, { status: failure.kind === "sign-in" ? "sign-in" : "disconnected", failure: plainSignInRequest(failure) ? undefined : failure, ...(oauth ? { oauth: { ...oauthView(id), ...(find(id)?.oauth?.authorizationUrl ? { authorizationUrl: find(id)?.oauth?.authorizationUrl } : {}) } } : {}) });
      },
    })).then(
      (connection) => {
        if (!current()) {
          void connection.close();
          throw new McpFailure({ kind: "other", message: "A newer connection attempt replaced this one.", detail: "superseded" });
        }
        connections.set(id, connection);
        patch(id, {
          status: "connected",
          serverName: connection.serverName,
          serverVersion: connection.serverVersion,
          transport: connection.transport,
          protocolVersion: connection.protocolVersion,
          capabilities: connection.capabilities,
          tools: [...connection.tools],
          failure: undefined,
          notice,
          ...(oauth?.signedIn() ? { oauth: oauthView(id) } : {}),
        });
        return connection;
      },
      (error: unknown) => {
        const failure = error instanceof McpFailure ? error.failure : { kind: "other" as const, message: String(error), detail: String(error) };
        // A server that was connected before keeps its tools (marked disconnected); one that never
        // connected has none.
        if (current()) {
          patch(id, (before) =>
            failure.kind === "sign-in"
              ? { status: "sign-in", failure: plainSignInRequest(failure) ? undefined : failure, oauth: { ...oauthView(id), ...(before.oauth?.authorizationUrl ? { authorizationUrl: before.oauth.authorizationUrl } : {}), ...(before.oauth?.waiting ? { waiting: before.oauth.waiting } : {}) } }
              : { status: before.serverName ? "disconnected" : "failed", failure },
          );
        }
        throw error instanceof McpFailure ? error : new McpFailure(failure);
      },
    );
    pendingConnects.set(id, promise);
    const forget = () => {
      if (pendingConnects.get(id) === promise) pendingConnects.delete(id);
      if (connectAborts.get(id) === abort) connectAborts.delete(id);
    };
    promise.then(forget, forget);
    return promise;
  }

  /** The server's live connection, connecting it first when it dropped. */
  function live(id: string): Promise<McpConnection> {
    return Promise.resolve(connections.get(id) ?? connect(id, "Reconnected."));
  }

  const actions = {
    /** Adds a server and connects to it; the same address again reconnects it with the new headers. */
    add(url: string, headers: Record<string, string>, keepHeaders: boolean): Promise<void> {
      // The same address, credentials in it aside (a new tab keeps it without them).
      const existing = store.getState().servers.find((server) => server.url === url || urlWithoutSecrets(server.url) === urlWithoutSecrets(url));
      const id = existing?.id ?? newServerId();
      if (existing) patch(id, { url, headers, keepHeaders });
      else store.setState((state) => ({ servers: [...state.servers, { id, url, headers, keepHeaders, status: "connecting", tools: [], log: [], askDestructive: true, updatedResources: {} }] }));
      persist();
      return connect(id).then(
        () => undefined,
        () => undefined,
      );
    },

    reconnect(id: string): Promise<void> {
      patch(id, { notice: undefined });
      return connect(id).then(
        () => undefined,
        () => undefined,
      );
    },

    /** Removes a server and stops everything of it: a connection attempt or listing in flight, calls in flight, its connection. */
    remove(id: string): void {
      attempts.set(id, (attempts.get(id) ?? 0) + 1);
      connectAborts.get(id)?.abort();
      connectAborts.delete(id);
      void connections.get(id)?.close();
      connections.delete(id);
      pendingConnects.delete(id);
      oauthSessions.get(id)?.signOut();
      oauthSessions.delete(id);
      stopWaiting(id);
      store.setState((state) => ({ servers: state.servers.filter((server) => server.id !== id) }));
      persist();
    },

    /**
     * Opens the server's authorization page in a window — only from the person's click, which
     * is why the window is opened by the caller, synchronously — and waits for its answer on
     * the callback channel.
     */
    signIn(id: string, openWindow: (url: string) => Window | null): void {
      const url = find(id)?.oauth?.authorizationUrl;
      if (!url) return;
      const opened = openWindow(url);
      if (!opened) {
        patch(id, { failure: { kind: "sign-in", message: "The browser blocked the sign-in window: allow pop-ups for this page, then press Sign in again.", detail: "window.open returned null" } });
        return;
      }
      waitingSignIns.add(id);
      if (!callbackChannel) {
        callbackChannel = new BroadcastChannel(CALLBACK_CHANNEL);
        callbackChannel.onmessage = (event: MessageEvent) => {
          const data = event.data as Partial<OAuthCallback & { type: string }> | null;
          if (data?.type !== "mcp-oauth-callback") return;
          const text = (value: unknown) => (typeof value === "string" ? value.slice(0, 4_000) : null);
          void onCallback({ code: text(data.code), state: text(data.state), error: text(data.error), errorDescription: text(data.errorDescription) });
        };
      }
      patch(id, (before) => ({ failure: undefined, oauth: { ...oauthView(id), ...(before.oauth?.authorizationUrl ? { authorizationUrl: before.oauth.authorizationUrl } : {}), waiting: "window" } }));
    },

    /** Stops waiting for a sign-in window (the person closed it, or gave up). */
    cancelSignIn(id: string): void {
      stopWaiting(id);
      patch(id, (before) => ({ oauth: { ...oauthView(id), ...(before.oauth?.authorizationUrl ? { authorizationUrl: before.oauth.authorizationUrl } : {}) } }));
    },

    /**
     * Forgets the server's tokens and registration at once, then asks the authorization server
     * to revoke them (RFC 7009) where its metadata names an endpoint on its own origin; the
     * next connection asks to sign in again.
     */
    async signOut(id: string): Promise<void> {
      const session = oauthSessions.get(id);
      const revocation = session?.revocation();
      session?.signOut();
      stopWaiting(id);
      // What the old connection still says (a stream refused without its token) no longer counts.
      attempts.set(id, (attempts.get(id) ?? 0) + 1);
      const connection = connections.get(id);
      connections.delete(id);
      void connection?.close();
      patch(id, { oauth: { signedIn: false }, failure: undefined, notice: "Signed out: the lab forgot this server's tokens." });
      let notice = "Signed out: the lab forgot this server's tokens";
      if (revocation && "endpoint" in revocation) {
        const problem = await revokeTokens(revocation);
        notice += problem ? `, but they may still be valid: ${problem}.` : " and the authorization server revoked them.";
      } else notice += revocation ? ` (not revoked: ${revocation.none}).` : ".";
      await connect(id, notice).then(
        () => undefined,
        () => undefined,
      );
      if (find(id)) patch(id, { notice });
    },

    /** Answers a waiting request (the dialog's buttons). */
    answer(requestId: string, answer: McpAnswer): void {
      const request = store.getState().requests.find((r) => r.id === requestId);
      if (answer.kind === "approve" && answer.dontAskAgain && request) patch(request.serverId, { askDestructive: false });
      answerers.get(requestId)?.(answer);
    },

    setAskDestructive(id: string, ask: boolean): void {
      patch(id, { askDestructive: ask });
    },

    clearLog(id: string): void {
      patch(id, { log: [] });
    },

    /** Puts text into the message box, where the person goes on writing. */
    insertIntoComposer(text: string): void {
      store.setState((state) => ({ composerInsert: { seq: (state.composerInsert?.seq ?? 0) + 1, text } }));
    },

    listResources: (id: string): Promise<BoundedList<McpResource>> => live(id).then((c) => c.listResources()),
    listResourceTemplates: (id: string): Promise<BoundedList<McpResourceTemplate>> => live(id).then((c) => c.listResourceTemplates()),
    readResource: (id: string, uri: string): Promise<ReadResource[]> => live(id).then((c) => c.readResource(uri)),
    expandTemplate: (id: string, uriTemplate: string, values: Record<string, string>): Promise<string> => live(id).then((c) => c.expandTemplate(uriTemplate, values)),
    async subscribe(id: string, uri: string): Promise<void> {
      await (await live(id)).subscribe(uri);
      patch(id, (before) => {
        const { [uri]: _seen, ...rest } = before.updatedResources;
        return { updatedResources: rest };
      });
    },
    listPrompts: (id: string): Promise<BoundedList<McpPrompt>> => live(id).then((c) => c.listPrompts()),
    getPrompt: (id: string, name: string, args: Record<string, string>): Promise<GetPromptResult> => live(id).then((c) => c.getPrompt(name, args)),

    dismissNotice(id: string): void {
      patch(id, { notice: undefined });
    },

    /** Connects the servers kept in this browser (once, at startup). */
    restore(): void {
      if (store.getState().servers.length > 0) return;
      const saved = loadServers();
      if (saved.length === 0) return;
      store.setState({ servers: saved.map((record) => ({ ...record, status: "connecting" as const, tools: [], log: [], askDestructive: true, updatedResources: {} })) });
      for (const record of saved) void connect(record.id).catch(() => undefined);
    },
  };

  /**
   * Calls a tool on a server. A server that is not connected (it dropped, or never answered) is
   * connected first; a call refused because the server lost the session (it restarted) is
   * retried once on a fresh session — the server never ran it.
   */
  async function callServerTool(
    id: string,
    toolName: string,
    args: Record<string, unknown>,
    context: Pick<ToolContext, "signal" | "trace" | "callId">,
    timeoutMs: number,
    extra: {
      destructive?: boolean;
      sample?: (params: CreateMessageRequest["params"], signal: AbortSignal) => Promise<import("@modelcontextprotocol/sdk/types.js").CreateMessageResult>;
    } = {},
  ): Promise<McpCallResult> {
    const server = find(id);
    const serverName = server?.serverName ?? (server ? new URL(server.url).host : id);
    if (extra.destructive && server?.askDestructive !== false) {
      const answer = await ask({ kind: "destructive", serverId: id, serverName, toolName, args }, context.signal);
      if (answer.kind !== "approve" || !answer.approved) throw new McpFailure({ kind: "other", message: `The person did not let the destructive tool ${toolName} run.`, detail: "declined" });
    }
    const sample = extra.sample;
    const options = {
      signal: context.signal,
      timeoutMs,
      ...(context.trace ? { trace: context.trace } : {}),
      onProgress: (progress: McpProgress) => store.setState((state) => ({ progress: { ...state.progress, [context.callId]: progress } })),
      ...(sample
        ? {
            sample: async (params: CreateMessageRequest["params"], signal: AbortSignal) => {
              const { samplingSize, samplingText } = await import("./sampling-run.ts");
              const answer = await ask(
                {
                  kind: "sampling",
                  serverId: id,
                  serverName,
                  toolName,
                  callId: context.callId,
                  ...(params.systemPrompt ? { systemPrompt: params.systemPrompt.slice(0, 4_000) } : {}),
                  messages: params.messages.slice(0, 20).map((message) => ({ role: message.role, text: samplingText(message.content).slice(0, 4_000) })),
                  maxTokens: params.maxTokens,
                  size: samplingSize(params),
                },
                signal,
              );
              if (answer.kind !== "approve" || !answer.approved) {
                const { McpError, ErrorCode } = await import("@modelcontextprotocol/sdk/types.js");
                throw new McpError(ErrorCode.InvalidRequest, "The person refused this sampling request.");
              }
              return sample(params, signal);
            },
          }
        : {}),
    };
    const connection = connections.get(id) ?? (await connect(id, "Reconnected for a tool call."));
    try {
      return await connection.callTool(toolName, args, options);
    } catch (error) {
      const lost = error instanceof McpFailure && (error.failure.kind === "session-lost" || error.failure.detail === "dropped");
      if (!lost || context.signal.aborted) throw error;
      const fresh = await connect(id, "Reconnected: the server had dropped the session (it may have restarted).");
      return await fresh.callTool(toolName, args, options);
    } finally {
      store.setState((state) => {
        if (!(context.callId in state.progress)) return state;
        const { [context.callId]: _done, ...rest } = state.progress;
        return { progress: rest };
      });
    }
  }

  /** Forgets every server and closes every connection (a test's end). */
  async function closeAll(): Promise<void> {
    const open = [...connections.values()];
    for (const abort of connectAborts.values()) abort.abort();
    connectAborts.clear();
    connections.clear();
    pendingConnects.clear();
    attempts.clear();
    store.setState({ servers: [], storageError: null, requests: [], progress: {}, composerInsert: null });
    answerers.clear();
    waitingSignIns.clear();
    callbackChannel?.close();
    callbackChannel = null;
    await Promise.all(open.map((connection) => connection.close()));
  }

  return { store, actions, callServerTool, closeAll };
}

export type McpServers = ReturnType<typeof createMcpServers>;
