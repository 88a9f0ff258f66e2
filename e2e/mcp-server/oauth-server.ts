// An MCP server behind OAuth 2.1, for the tests, as the MCP authorization spec describes it: two
// listeners on 127.0.0.1 — an authorization server (metadata, dynamic client registration, an
// authorization page with Allow/Deny, a token endpoint checking PKCE S256 and the `resource`,
// refresh with rotation) and a protected MCP server that answers 401 with a WWW-Authenticate
// naming its protected-resource metadata. Written small and by hand so that a test can break it
// on purpose (expire every access token, revoke every refresh token) and see every token it
// issued, to look for them in the page.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, sendJson } from "./http-json.ts";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export const OAUTH_SERVER_NAME = "lab-oauth-server";

export interface RunningOAuthServers {
  /** The protected MCP endpoint. */
  mcpUrl: string;
  /** The authorization server's issuer address. */
  issuer: string;
  /** Every access and refresh token issued so far. */
  issuedTokens: () => string[];
  /** The grant types the token endpoint was asked for, in order, with how each ended. */
  tokenRequests: () => Array<{ grant: string; ok: boolean; error?: string }>;
  /** The query of every authorization request, in order (to check PKCE S256 and `resource`). */
  authorizeRequests: () => Array<Record<string, string>>;
  /** Access tokens stop working (as expired ones do); refresh tokens still work. */
  expireAccessTokens: () => void;
  /** Refresh tokens stop working too: only a new sign-in helps. */
  revokeRefreshTokens: () => void;
  /** Whether a token issued here still works (an access token at the MCP server, a refresh token at the token endpoint). */
  tokenActive: (token: string) => boolean;
  /** The revocation requests (RFC 7009) the authorization server answered, in order. */
  revocations: () => Array<{ hint: string; known: boolean; clientId: string }>;
  /** Requests to the MCP endpoint, in order: the access token each carried (if any) and whether it was let through. */
  mcpRequests: () => Array<{ token?: string; ok: boolean }>;
  /** Requests the other-origin listener got (option `revocationEndpoint: "elsewhere"`), with their bodies. */
  elsewhereRequests: () => string[];
  stop: () => Promise<void>;
}

interface Client {
  name: string;
  redirectUris: string[];
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string;
}

const b64url = (buffer: Buffer) => buffer.toString("base64url");
const newToken = (prefix: string) => `${prefix}_${b64url(randomBytes(24))}`;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))));
    req.on("error", reject);
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface OAuthServerOptions {
  allowOrigin: string;
  /** The `expires_in` (seconds) given with each access token; 3600 unless told. */
  expiresIn?: number;
  /**
   * Where the metadata's `revocation_endpoint` points: the authorization server's own
   * `/revoke` (the default), a listener on another origin that records what it gets, or none.
   */
  revocationEndpoint?: "own" | "elsewhere" | "none";
}

export async function startOAuthServers(options: OAuthServerOptions): Promise<RunningOAuthServers> {
  const clients = new Map<string, Client>();
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, { resource: string }>();
  const refreshTokens = new Map<string, { clientId: string; resource: string }>();
  const issued: string[] = [];
  const tokenRequests: Array<{ grant: string; ok: boolean; error?: string }> = [];
  const authorizeRequests: Array<Record<string, string>> = [];
  const revocations: Array<{ hint: string; known: boolean; clientId: string }> = [];
  const mcpRequests: Array<{ token?: string; ok: boolean }> = [];
  const elsewhereRequests: string[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const cors = (res: ServerResponse) => {
    res.setHeader("Access-Control-Allow-Origin", options.allowOrigin);
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
    res.setHeader("Access-Control-Allow-Headers", "Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID");
    res.setHeader("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate");
  };

  // The authorization server.
  const as: Server = createServer((req, res) => {
    cors(res);
    const url = new URL(req.url ?? "/", issuer);
    const oauthError = (status: number, error: string, description: string) => sendJson(res, status, { error, error_description: description });
    if (req.method === "OPTIONS") {
      res.writeHead(204);
      res.end();
      return;
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      sendJson(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        ...(revocationEndpoint ? { revocation_endpoint: revocationEndpoint, revocation_endpoint_auth_methods_supported: ["none"] } : {}),
      });
      return;
    }
    if (url.pathname === "/revoke" && req.method === "POST") {
      void readForm(req).then((form) => {
        const token = form.get("token") ?? "";
        const clientId = form.get("client_id") ?? "";
        if (!clients.has(clientId)) return oauthError(401, "invalid_client", "unknown client_id");
        const refresh = refreshTokens.get(token);
        const known = accessTokens.has(token) || (refresh !== undefined && refresh.clientId === clientId);
        if (refresh?.clientId === clientId) refreshTokens.delete(token);
        accessTokens.delete(token);
        revocations.push({ hint: form.get("token_type_hint") ?? "", known, clientId });
        // RFC 7009 2.2: 200 whether or not the token was known.
        res.writeHead(200);
        res.end();
      });
      return;
    }
    if (url.pathname === "/register" && req.method === "POST") {
      void readBody(req).then((body) => {
        const metadata = body as { redirect_uris?: unknown; client_name?: string };
        const redirectUris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris.filter((u): u is string => typeof u === "string") : [];
        if (redirectUris.length === 0) return oauthError(400, "invalid_redirect_uri", "redirect_uris is required");
        const clientId = `client_${randomUUID()}`;
        clients.set(clientId, { name: typeof metadata.client_name === "string" ? metadata.client_name.slice(0, 100) : "an unnamed client", redirectUris });
        sendJson(res, 201, { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000), token_endpoint_auth_method: "none" });
      });
      return;
    }
    if (url.pathname === "/authorize" && req.method === "GET") {
      const query = Object.fromEntries(url.searchParams);
      authorizeRequests.push(query);
      const client = clients.get(query.client_id ?? "");
      const problem =
        !client ? "unknown client_id" :
        !client.redirectUris.includes(query.redirect_uri ?? "") ? "redirect_uri is not registered" :
        query.response_type !== "code" ? "response_type must be code" :
        query.code_challenge_method !== "S256" || !query.code_challenge ? "PKCE with S256 is required" :
        query.resource !== mcpUrl ? `resource must be ${mcpUrl}` : "";
      res.writeHead(problem ? 400 : 200, { "Content-Type": "text/html; charset=utf-8" });
      if (problem || !client) {
        res.end(`<!doctype html><title>Refused</title><p>Refused: ${escapeHtml(problem)}</p>`);
        return;
      }
      const hidden = Object.entries(query).map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join("");
      res.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>Authorize</title></head>
<body style="font:15px system-ui;margin:2rem"><h1>Test authorization server</h1><p>Allow <b>${escapeHtml(client.name)}</b> to use ${escapeHtml(OAUTH_SERVER_NAME)}?</p>
<form method="post" action="/authorize">${hidden}<button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Deny</button></form></body></html>`);
      return;
    }
    if (url.pathname === "/authorize" && req.method === "POST") {
      void readForm(req).then((form) => {
        const redirect = new URL(form.get("redirect_uri") ?? "");
        const state = form.get("state");
        if (form.get("decision") === "allow") {
          const code = newToken("code");
          codes.set(code, { clientId: form.get("client_id") ?? "", redirectUri: form.get("redirect_uri") ?? "", challenge: form.get("code_challenge") ?? "", resource: form.get("resource") ?? "" });
          redirect.searchParams.set("code", code);
        } else {
          redirect.searchParams.set("error", "access_denied");
          redirect.searchParams.set("error_description", "The person denied access.");
        }
        if (state !== null) redirect.searchParams.set("state", state);
        res.writeHead(302, { Location: redirect.href });
        res.end();
      });
      return;
    }
    if (url.pathname === "/token" && req.method === "POST") {
      void readForm(req).then((form) => {
        const grant = form.get("grant_type") ?? "";
        const refuse = (error: string, description: string) => {
          tokenRequests.push({ grant, ok: false, error: `${error}: ${description}` });
          oauthError(400, error, description);
        };
        const issue = (clientId: string, resource: string) => {
          const access = newToken("at");
          const refresh = newToken("rt");
          accessTokens.set(access, { resource });
          refreshTokens.set(refresh, { clientId, resource });
          issued.push(access, refresh);
          tokenRequests.push({ grant, ok: true });
          sendJson(res, 200, { access_token: access, token_type: "Bearer", expires_in: options.expiresIn ?? 3600, refresh_token: refresh });
        };
        if (grant === "authorization_code") {
          const pending = codes.get(form.get("code") ?? "");
          if (!pending) return refuse("invalid_grant", "unknown or used authorization code");
          if (pending.clientId !== form.get("client_id") || pending.redirectUri !== form.get("redirect_uri")) return refuse("invalid_grant", "the code was issued to another client or redirect_uri");
          const verifier = form.get("code_verifier") ?? "";
          // Left in place on a mismatch: the refusal names PKCE however often it is tried.
          if (b64url(createHash("sha256").update(verifier).digest()) !== pending.challenge) return refuse("invalid_grant", "PKCE check failed: code_verifier does not match the code_challenge");
          if ((form.get("resource") ?? "") !== pending.resource) return refuse("invalid_target", "resource differs from the authorization request's");
          codes.delete(form.get("code") ?? "");
          return issue(pending.clientId, pending.resource);
        }
        if (grant === "refresh_token") {
          const token = form.get("refresh_token") ?? "";
          const held = refreshTokens.get(token);
          if (!held || held.clientId !== form.get("client_id")) return refuse("invalid_grant", "unknown or revoked refresh token");
          refreshTokens.delete(token);
          return issue(held.clientId, form.get("resource") ?? held.resource);
        }
        refuse("unsupported_grant_type", grant);
      });
      return;
    }
    res.writeHead(404, { "Content-Type": "text/plain" });
    res.end("Not found");
  });

  function newMcpServer(): McpServer {
    const server = new McpServer({ name: OAUTH_SERVER_NAME, version: "0.9.0" });
    server.registerTool("reverse_text", { description: "Reverses a text.", inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text: [...text].reverse().join("") }] }));
    // A careless server: it repeats the credentials it received, so a test can see them masked.
    server.registerTool("whoami", { description: "Says which credentials the request carried.", inputSchema: {} }, async (_args, extra) => ({
      content: [{ type: "text", text: `You called with ${String(extra.requestInfo?.headers.authorization ?? "nothing")}` }],
    }));
    return server;
  }

  // The protected MCP server.
  const mcp: Server = createServer((req, res) => {
    cors(res);
    const url = new URL(req.url ?? "/", mcpOrigin);
    if (req.method === "OPTIONS") {
      res.writeHead(204);
      res.end();
      return;
    }
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp" || url.pathname === "/.well-known/oauth-protected-resource") {
      sendJson(res, 200, { resource: mcpUrl, authorization_servers: [issuer], bearer_methods_supported: ["header"], resource_name: OAUTH_SERVER_NAME });
      return;
    }
    if (url.pathname !== "/mcp") {
      res.writeHead(404);
      res.end();
      return;
    }
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    const held = token ? accessTokens.get(token) : undefined;
    mcpRequests.push({ ...(token ? { token } : {}), ok: Boolean(held && held.resource === mcpUrl) });
    if (!held || held.resource !== mcpUrl) {
      const metadata = `${mcpOrigin}/.well-known/oauth-protected-resource/mcp`;
      res.writeHead(401, {
        "Content-Type": "application/json",
        "WWW-Authenticate": `Bearer resource_metadata="${metadata}"${token ? ', error="invalid_token", error_description="The access token expired or is not valid here"' : ""}`,
      });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Unauthorized" }, id: null }));
      return;
    }
    void (async () => {
      const sessionId = req.headers["mcp-session-id"];
      const body = req.method === "POST" ? await readBody(req) : undefined;
      const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
      if (existing) return existing.handleRequest(req, res, body);
      if (typeof sessionId === "string") return sendJson(res, 404, { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
      if (req.method !== "POST" || !isInitializeRequest(body)) return sendJson(res, 400, { jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
        },
      });
      await newMcpServer().connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: String(error) }, id: null });
    });
  });

  // Another origin, for metadata that points a token there: it records whatever arrives.
  const elsewhere: Server = createServer((req, res) => {
    cors(res);
    void readForm(req).then((form) => {
      if (req.method !== "OPTIONS") elsewhereRequests.push(`${req.method} ${req.url} ${form.toString()}`);
      res.writeHead(200);
      res.end();
    });
  });

  const asPort = await listen(as);
  const issuer = `http://127.0.0.1:${asPort}`;
  const elsewherePort = await listen(elsewhere);
  const revocationEndpoint =
    options.revocationEndpoint === "none" ? undefined : options.revocationEndpoint === "elsewhere" ? `http://127.0.0.1:${elsewherePort}/revoke` : `${issuer}/revoke`;
  const mcpPort = await listen(mcp);
  const mcpOrigin = `http://127.0.0.1:${mcpPort}`;
  const mcpUrl = `${mcpOrigin}/mcp`;

  return {
    mcpUrl,
    issuer,
    issuedTokens: () => [...issued],
    tokenRequests: () => [...tokenRequests],
    authorizeRequests: () => [...authorizeRequests],
    expireAccessTokens: () => accessTokens.clear(),
    revokeRefreshTokens: () => refreshTokens.clear(),
    tokenActive: (token) => accessTokens.has(token) || refreshTokens.has(token),
    revocations: () => [...revocations],
    mcpRequests: () => [...mcpRequests],
    elsewhereRequests: () => [...elsewhereRequests],
    async stop() {
      for (const transport of sessions.values()) await transport.close().catch(() => undefined);
      for (const server of [as, mcp, elsewhere]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
