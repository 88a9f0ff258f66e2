// OAuth for an MCP server, the lab's client against the tests' authorization server and
// protected MCP server on 127.0.0.1 (e2e/mcp-server/oauth-server.ts): discovery from the 401,
// registration, PKCE S256 and `resource`, the state check, the code exchange, a refresh, and
// the tokens masked in what a careless server echoes. The browser's window and callback page
// are the e2e spec's part (e2e/mcp-oauth.spec.ts); here the "person" posts the Allow form.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startOAuthServers, type RunningOAuthServers } from "../../e2e/mcp-server/oauth-server.ts";
import { connectMcp, exchangeSignInCode, type McpConnection } from "./mcp-connection.ts";
import { McpFailure } from "./mcp-failure.ts";
import { createOAuthSession, type OAuthSession } from "./oauth-session.ts";

const LAB = "http://lab.test";
let servers: RunningOAuthServers;
let connection: McpConnection | null = null;

beforeEach(async () => {
  servers = await startOAuthServers({ allowOrigin: LAB });
});

afterEach(async () => {
  await connection?.close();
  connection = null;
  await servers.stop();
});

function session(): { oauth: OAuthSession; asked: () => URL | undefined } {
  let asked: URL | undefined;
  const oauth = createOAuthSession({ serverUrl: servers.mcpUrl, origin: LAB, onSignInNeeded: (url) => (asked = url) });
  return { oauth, asked: () => asked };
}

const connect = (oauth: OAuthSession) => connectMcp({ url: servers.mcpUrl, headers: {}, origin: LAB, oauth, onToolsChanged: () => undefined, onDropped: () => undefined });

/** What the person's Allow gives back on the callback page: the code and the state, from the redirect. */
async function allow(authorizationUrl: URL): Promise<URLSearchParams> {
  const form = new URLSearchParams(authorizationUrl.searchParams);
  form.set("decision", "allow");
  const response = await fetch(new URL("/authorize", authorizationUrl), { method: "POST", body: form, redirect: "manual" });
  return new URL(response.headers.get("location") ?? "").searchParams;
}

async function signIn(oauth: OAuthSession, asked: () => URL | undefined): Promise<void> {
  await expect(connect(oauth)).rejects.toBeInstanceOf(McpFailure);
  const answer = await allow(asked() ?? new URL("http://missing"));
  const checked = oauth.checkCallback({ code: answer.get("code"), state: answer.get("state") });
  if ("error" in checked) throw new Error(checked.error);
  await exchangeSignInCode(oauth, servers.mcpUrl, checked.code);
}

describe("OAuth for an MCP server", () => {
  it("a 401 with protected-resource metadata asks for sign-in; the authorization request carries PKCE S256, the resource and a state", async () => {
    const { oauth, asked } = session();
    const failure = await connect(oauth).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpFailure);
    expect((failure as McpFailure).failure.kind).toBe("sign-in");
    const url = asked();
    expect(url?.origin).toBe(servers.issuer);
    expect(url?.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url?.searchParams.get("resource")).toBe(servers.mcpUrl);
    expect(url?.searchParams.get("redirect_uri")).toBe(`${LAB}/mcp-oauth-callback.html`);
    expect(oauth.expectsState(url?.searchParams.get("state"))).toBe(true);
    expect(oauth.authorizationServer()).toBe(servers.issuer);
  });

  it("signs in, calls with the token (masked where the server echoes it), refreshes an expired one", async () => {
    const { oauth, asked } = session();
    await signIn(oauth, asked);
    expect(oauth.signedIn()).toBe(true);
    connection = await connect(oauth);
    const echoed = await connection.callTool("whoami", {}, { signal: new AbortController().signal, timeoutMs: 10_000 });
    expect(JSON.stringify(echoed)).toContain("You called with Bearer ••••");
    for (const token of servers.issuedTokens()) expect(JSON.stringify(echoed)).not.toContain(token);

    servers.expireAccessTokens();
    const again = await connection.callTool("reverse_text", { text: "abc" }, { signal: new AbortController().signal, timeoutMs: 10_000 });
    expect(JSON.stringify(again)).toContain("cba");
    expect(servers.tokenRequests().map((r) => `${r.grant}:${r.ok}`)).toEqual(["authorization_code:true", "refresh_token:true"]);
  });

  it("a revoked refresh token makes the call fail asking to sign in again", async () => {
    const { oauth, asked } = session();
    await signIn(oauth, asked);
    connection = await connect(oauth);
    servers.expireAccessTokens();
    servers.revokeRefreshTokens();
    const failure = await connection.callTool("reverse_text", { text: "abc" }, { signal: new AbortController().signal, timeoutMs: 10_000 }).catch((error: unknown) => error);
    expect((failure as McpFailure).failure.kind).toBe("sign-in");
    expect((failure as McpFailure).failure.message).toContain("needs you to sign in");
    expect(oauth.signedIn()).toBe(false);
  });

  it("refuses an answer with another state, or none, before using its code; a state is used once", async () => {
    const { oauth, asked } = session();
    await expect(connect(oauth)).rejects.toBeInstanceOf(McpFailure);
    const state = asked()?.searchParams.get("state") ?? "";
    expect(oauth.checkCallback({ code: "c", state: "forged" })).toEqual({ error: expect.stringContaining("did not carry the state") });
    expect(oauth.checkCallback({ code: "c", state: null })).toEqual({ error: expect.stringContaining("did not carry the state") });
    expect(oauth.checkCallback({ error: "access_denied", errorDescription: "no", state })).toEqual({ error: expect.stringContaining("access_denied (no)") });
    expect(oauth.checkCallback({ code: "c", state })).toEqual({ error: expect.stringContaining("no sign-in waiting") });
    expect(servers.tokenRequests()).toEqual([]);
  });

  it("sign-out forgets the tokens: the next connection asks again", async () => {
    const { oauth, asked } = session();
    await signIn(oauth, asked);
    oauth.signOut();
    expect(oauth.signedIn()).toBe(false);
    expect(oauth.secrets()).toEqual([]);
    await expect(connect(oauth)).rejects.toMatchObject({ failure: { kind: "sign-in" } });
  });
});
