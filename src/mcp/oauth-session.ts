// OAuth 2.1 for one MCP server, as the MCP authorization spec has it: what the SDK's `auth()`
// needs kept between its steps (the registered client, the PKCE verifier, the tokens, what
// discovery found) and what the page adds around it — a `state` it checks on the way back, and
// a sign-in address that is only opened by the person's click. Kept in sessionStorage per
// server address (a reload keeps the sign-in, closing the tab forgets it), in memory when the
// browser refuses storage. No SDK code here: this loads with the page, the SDK with a server.
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { urlWithoutSecrets } from "./mask-secrets.ts";

/** The page a sign-in window comes back to (public/mcp-oauth-callback.html). */
export const CALLBACK_PATH = "/mcp-oauth-callback.html";
/** The channel the callback page answers on (same origin only, which the browser enforces). */
export const CALLBACK_CHANNEL = "toolcall-lab.mcp-oauth";

interface OAuthRecord {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the tokens were received (ms since the epoch): with their `expires_in`, when the access token expires. */
  tokensAt?: number;
  codeVerifier?: string;
  /** The `state` sent with the last authorization request; the answer must carry the same. */
  state?: string;
  discovery?: OAuthDiscoveryState;
}

export interface OAuthCallback {
  code?: string | null;
  state?: string | null;
  error?: string | null;
  errorDescription?: string | null;
}

export interface OAuthSession extends OAuthClientProvider {
  /** The tokens, to mask wherever a server might echo them. */
  secrets(): string[];
  signedIn(): boolean;
  /** The authorization server's address (for the panel), once discovery found it. */
  authorizationServer(): string | undefined;
  /**
   * Checks what came back to the callback page before any code is used: the `state` must be
   * the one sent, and an error the server answered is said as it is. Returns the code.
   */
  checkCallback(answer: OAuthCallback): { code: string } | { error: string };
  /** Whether this is the `state` of the sign-in this page is waiting for. */
  expectsState(state: string | null | undefined): boolean;
  /**
   * Whether the access token expires within REFRESH_AHEAD_MS (by the `expires_in` it came
   * with) and a refresh token is held: the lab refreshes it before its next request.
   */
  refreshDue(now?: number): boolean;
  /**
   * What signing out asks the authorization server to revoke (RFC 7009), read before the
   * tokens are forgotten; or why nothing is sent.
   */
  revocation(): Revocation | { none: string };
  /** Forgets the tokens, the verifier and the registration: the person signed out. */
  signOut(): void;
}

/** Tokens to revoke at the endpoint the issuing authorization server's metadata names (refresh token first). */
export interface Revocation {
  endpoint: string;
  clientId: string;
  tokens: Array<{ token: string; hint: "refresh_token" | "access_token" }>;
}

/** An access token with less than this left is refreshed before it is used (and one of a shorter life, always). */
export const REFRESH_AHEAD_MS = 60_000;

function sessionStorageOrNull(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

function randomState(): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

const cut = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

export function createOAuthSession(options: {
  serverUrl: string;
  /** The lab's origin: the callback page lives there. */
  origin: string;
  /** The SDK wants the person sent to this address; the panel offers it (nothing opens by itself). */
  onSignInNeeded: (authorizationUrl: URL) => void;
}): OAuthSession {
  const key = `toolcall-lab.mcp-oauth:${urlWithoutSecrets(options.serverUrl)}`;
  const storage = sessionStorageOrNull();
  let memory: OAuthRecord = {};
  const read = (): OAuthRecord => {
    if (!storage) return memory;
    try {
      return JSON.parse(storage.getItem(key) ?? "{}") as OAuthRecord;
    } catch {
      return {};
    }
  };
  const write = (change: Partial<OAuthRecord>) => {
    const next = { ...read(), ...change };
    for (const name of Object.keys(change) as Array<keyof OAuthRecord>) if (change[name] === undefined) delete next[name];
    memory = next;
    try {
      storage?.setItem(key, JSON.stringify(next));
    } catch {
      // Storage full or refused: memory keeps it for this page.
    }
  };
  const redirectUrl = `${options.origin}${CALLBACK_PATH}`;
  const metadata: OAuthClientMetadata = {
    client_name: "Toolcall Lab",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };

  return {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return metadata;
    },
    state() {
      const state = randomState();
      write({ state });
      return state;
    },
    clientInformation: () => read().client,
    saveClientInformation: (client) => write({ client }),
    tokens: () => read().tokens,
    saveTokens: (tokens) => write({ tokens, tokensAt: Date.now() }),
    redirectToAuthorization: (authorizationUrl) => options.onSignInNeeded(authorizationUrl),
    saveCodeVerifier: (codeVerifier) => write({ codeVerifier }),
    codeVerifier() {
      const verifier = read().codeVerifier;
      if (!verifier) throw new Error("This page holds no PKCE verifier for the sign-in (it was started in another tab, or signed out since).");
      return verifier;
    },
    saveDiscoveryState: (discovery) => write({ discovery }),
    discoveryState: () => read().discovery,
    invalidateCredentials(scope) {
      if (scope === "all") write({ client: undefined, tokens: undefined, tokensAt: undefined, codeVerifier: undefined, discovery: undefined });
      else if (scope === "client") write({ client: undefined });
      else if (scope === "tokens") write({ tokens: undefined, tokensAt: undefined });
      else if (scope === "verifier") write({ codeVerifier: undefined });
      else write({ discovery: undefined });
    },
    secrets() {
      const { tokens } = read();
      return [tokens?.access_token, tokens?.refresh_token, tokens?.id_token].filter((value): value is string => typeof value === "string" && value.length >= 4);
    },
    signedIn: () => Boolean(read().tokens?.access_token),
    refreshDue(now = Date.now()) {
      const { tokens, tokensAt } = read();
      if (!tokens?.refresh_token || typeof tokens.expires_in !== "number" || typeof tokensAt !== "number") return false;
      return now >= tokensAt + tokens.expires_in * 1000 - REFRESH_AHEAD_MS;
    },
    revocation() {
      const { tokens, client, discovery } = read();
      if (!tokens) return { none: "no tokens are held" };
      // Named by OAuth's metadata (RFC 8414); OpenID's discovery document may name one too.
      const named = (discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint;
      const endpoint = typeof named === "string" ? named : undefined;
      if (!endpoint || !discovery?.authorizationServerUrl) return { none: "the authorization server names no revocation endpoint" };
      // A token goes back only to the server that issued it: an endpoint on another origin is not used.
      let sameOrigin: boolean;
      try {
        sameOrigin = new URL(endpoint).origin === new URL(discovery.authorizationServerUrl).origin;
      } catch {
        sameOrigin = false;
      }
      if (!sameOrigin) return { none: `the revocation endpoint its metadata names is on another host (${cut(urlWithoutSecrets(endpoint), 120)}), so the lab sent it no token` };
      if (!client?.client_id) return { none: "the lab holds no client registration to revoke with" };
      const held: Revocation["tokens"] = [];
      if (tokens.refresh_token) held.push({ token: tokens.refresh_token, hint: "refresh_token" });
      if (tokens.access_token) held.push({ token: tokens.access_token, hint: "access_token" });
      return { endpoint, clientId: client.client_id, tokens: held };
    },
    authorizationServer: () => read().discovery?.authorizationServerUrl,
    checkCallback(answer) {
      const { state } = read();
      if (!state) return { error: "A sign-in answer came back, but this page has no sign-in waiting for this server; nothing was kept." };
      if (answer.state !== state) {
        return { error: "The sign-in answer did not carry the state this page sent (it may be forged or from an older attempt), so the lab did not use it. Nothing was kept; sign in again." };
      }
      // One use: a second answer with the same state is refused.
      write({ state: undefined });
      if (answer.error) {
        return { error: `The authorization server did not authorize the lab: ${cut(answer.error, 80)}${answer.errorDescription ? ` (${cut(answer.errorDescription)})` : ""}.` };
      }
      if (!answer.code) return { error: "The sign-in answer carried no authorization code; nothing was kept. Sign in again." };
      return { code: answer.code };
    },
    expectsState: (state) => Boolean(state) && read().state === state,
    signOut() {
      memory = {};
      try {
        storage?.removeItem(key);
      } catch {
        // Nothing stored.
      }
    },
  };
}

/**
 * Asks the authorization server to revoke the tokens (RFC 7009: a form POST of `token`,
 * `token_type_hint` and, for a public client, `client_id`). Resolves with what went wrong, or
 * null when every token was revoked (the spec has the server answer 200 for an unknown token too).
 */
export async function revokeTokens(revocation: Revocation, fetchFn: typeof fetch = fetch): Promise<string | null> {
  for (const { token, hint } of revocation.tokens) {
    let response: Response;
    try {
      response = await fetchFn(revocation.endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token, token_type_hint: hint, client_id: revocation.clientId }).toString(),
      });
    } catch (error) {
      return `the authorization server could not be reached (${cut(String(error), 200)})`;
    }
    if (!response.ok) {
      const text = await response.text().catch(() => "");
      return `the authorization server refused to revoke the ${hint.replace("_", " ")} (HTTP ${response.status}${text ? `: ${cut(text.replaceAll(token, "••••"), 200)}` : ""})`;
    }
  }
  return null;
}
