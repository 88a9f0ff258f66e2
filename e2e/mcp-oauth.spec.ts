// OAuth 2.1 for a remote MCP server, end to end: the built app in Chromium against an
// authorization server and a protected MCP server the test starts on 127.0.0.1
// (e2e/mcp-server/oauth-server.ts), with replayed model turns. Sign-in in a window opened by the
// click (discovery from the 401, registration, PKCE S256, `resource`), tokens masked in the
// trace and never on the page, an expired token refreshed, a revoked one asking to sign in again,
// sign-out revoking the tokens (RFC 7009), a token near its expiry refreshed before use, no token
// to a revocation endpoint on another origin; and the refusals: an answer with another `state`,
// a code whose PKCE does not match.
import { createHash } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { OAUTH_SERVER_NAME, startOAuthServers, type RunningOAuthServers } from "./mcp-server/oauth-server.ts";
import { send } from "./lab-helpers.ts";
import { call, card, connectServer, labOrigin, openWith as openOn, screenshotSidePanel, turnDone } from "./mcp-helpers.ts";
const status = (page: Page) => page.getByTestId("mcp-server-status");
const signIn = (page: Page) => page.getByTestId("mcp-signin");

let oauth: RunningOAuthServers;

test.beforeEach(async () => {
  oauth = await startOAuthServers({ allowOrigin: labOrigin });
});

test.afterEach(async () => {
  await oauth.stop();
});

const openWith = (page: Page, name: string, turns: string[]) => openOn(page, name, turns, `mcp oauth ${name}`);

/** Presses Sign in and returns the authorization page it opened (the window starts blank, then goes there). */
async function openSignInWindow(page: Page): Promise<Page> {
  const popup = page.waitForEvent("popup");
  await page.getByTestId("mcp-sign-in").click();
  const window = await popup;
  await window.waitForURL(/\/authorize\?/);
  return window;
}

async function allow(window: Page): Promise<void> {
  const closed = window.waitForEvent("close");
  await window.getByRole("button", { name: "Allow" }).click();
  await closed;
}

/** Every issued token, checked absent from the page's text, its local storage and the debugger. */
async function expectNoTokenShown(page: Page): Promise<void> {
  const tokens = oauth.issuedTokens();
  expect(tokens.length).toBeGreaterThan(0);
  const text = await page.evaluate(() => document.body.innerText + document.body.innerHTML + JSON.stringify(localStorage));
  for (const token of tokens) expect(text).not.toContain(token);
}

test("sign in through a window, the token masked in the trace, an expired token refreshed, a revoked one signs in again, sign out", async ({ page }) => {
  await openWith(page, "sign-in", [call("whoami", {}), "Called.", call("whoami", {}), "Refreshed.", call("reverse_text", { text: "abc" }), "Asked to sign in.", call("reverse_text", { text: "abc" }), "cba it is."]);
  await connectServer(page, oauth.mcpUrl);

  // The 401 led to the protected-resource metadata and the authorization server; nothing opened by itself.
  await expect(status(page)).toHaveText("sign-in needed");
  await expect(signIn(page)).toHaveAttribute("data-state", "needed");
  await expect(signIn(page)).toContainText(new URL(oauth.issuer).host);
  expect(page.context().pages()).toHaveLength(1);
  await screenshotSidePanel(page, "mcp-panel", "mcp-oauth-sign-in");
  await page.setViewportSize({ width: 1280, height: 800 });

  const window = await openSignInWindow(page);
  await expect(signIn(page)).toHaveAttribute("data-state", "window");
  const asked = oauth.authorizeRequests().at(-1) ?? {};
  expect(asked.code_challenge_method).toBe("S256");
  expect(asked.resource).toBe(oauth.mcpUrl);
  expect(asked.state?.length).toBeGreaterThanOrEqual(32);
  expect(asked.redirect_uri).toBe(`${labOrigin}/mcp-oauth-callback.html`);
  await allow(window);

  await expect(status(page)).toHaveText("connected · 2 tools");
  await expect(page.getByTestId("mcp-server-name")).toContainText(OAUTH_SERVER_NAME);
  await expect(signIn(page)).toHaveAttribute("data-state", "signed-in");
  await screenshotSidePanel(page, "mcp-panel", "mcp-oauth-signed-in");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The server repeats the Authorization header it got: masked on the card and in the trace.
  await send(page, "Who am I?");
  await turnDone(page, 1);
  await expect(card(page, "whoami")).toHaveAttribute("data-status", "ok");
  await expect(card(page, "whoami")).toContainText("You called with Bearer ••••");
  await page.locator('[data-testid=step-item][data-status="tool-calls"]').first().click();
  const trace = page.getByTestId("tool-exec-view").getByTestId("tool-trace");
  await expect(trace).toContainText("Authorization: Bearer •••• (OAuth)");
  await expect(trace).toContainText("You called with Bearer ••••");
  await expectNoTokenShown(page);

  // An expired access token: the 401 is answered with a refresh, and the call goes through.
  oauth.expireAccessTokens();
  await send(page, "Again.");
  await turnDone(page, 2);
  await expect(card(page, "whoami").nth(1)).toHaveAttribute("data-status", "ok");
  expect(oauth.tokenRequests().map((request) => `${request.grant}:${request.ok}`)).toEqual(["authorization_code:true", "refresh_token:true"]);
  await expectNoTokenShown(page);

  // Expired and not refreshable: the call fails saying so, and the card asks to sign in again.
  oauth.expireAccessTokens();
  oauth.revokeRefreshTokens();
  await send(page, "Reverse abc.");
  await turnDone(page, 3);
  await expect(card(page, "reverse_text")).toHaveAttribute("data-status", "error");
  await expect(card(page, "reverse_text")).toContainText("sign in");
  await expect(status(page)).toHaveText("sign-in needed");
  await allow(await openSignInWindow(page));
  await expect(status(page)).toHaveText("connected · 2 tools");
  await send(page, "Now reverse abc.");
  await turnDone(page, 4);
  await expect(card(page, "reverse_text").nth(1)).toContainText("cba");

  // Sign out: the tokens are gone from the tab, revoked at the authorization server (RFC 7009), and the server asks again.
  const [access, refresh] = oauth.issuedTokens().slice(-2);
  expect(oauth.tokenActive(access!) && oauth.tokenActive(refresh!)).toBe(true);
  await page.getByTestId("mcp-sign-out").click();
  await expect(status(page)).toHaveText("sign-in needed");
  await expect(page.getByTestId("mcp-server-notice")).toContainText("the authorization server revoked them");
  expect(oauth.revocations()).toEqual([expect.objectContaining({ hint: "refresh_token", known: true }), expect.objectContaining({ hint: "access_token", known: true })]);
  expect(oauth.tokenActive(access!)).toBe(false);
  expect(oauth.tokenActive(refresh!)).toBe(false);
  const kept = await page.evaluate(() => JSON.stringify(sessionStorage));
  for (const token of oauth.issuedTokens()) expect(kept).not.toContain(token);
  await expectNoTokenShown(page);
  await screenshotSidePanel(page, "mcp-server-notice", "mcp-oauth-signed-out");
});

test("an access token near its expiry is refreshed before a request goes out: the server never sees a token it refuses", async ({ page }) => {
  await oauth.stop();
  // 30 s of life is inside the lab's minute of margin: every request finds the token due.
  oauth = await startOAuthServers({ allowOrigin: labOrigin, expiresIn: 30 });
  await openWith(page, "refresh-ahead", [call("whoami", {}), "Called.", call("reverse_text", { text: "abc" }), "cba."]);
  await connectServer(page, oauth.mcpUrl);
  await expect(status(page)).toHaveText("sign-in needed");
  await allow(await openSignInWindow(page));
  await expect(status(page)).toHaveText("connected · 2 tools");
  await send(page, "Who am I?");
  await turnDone(page, 1);
  await send(page, "Reverse abc.");
  await turnDone(page, 2);
  await expect(card(page, "reverse_text")).toContainText("cba");

  const grants = oauth.tokenRequests();
  expect(grants[0]).toEqual({ grant: "authorization_code", ok: true });
  expect(grants.filter((request) => request.grant === "refresh_token").length).toBeGreaterThanOrEqual(2);
  expect(grants.every((request) => request.ok)).toBe(true);
  // Each request after the sign-in carried a token the server took: none waited for a 401 to refresh.
  const withToken = oauth.mcpRequests().filter((request) => request.token);
  expect(withToken.length).toBeGreaterThan(2);
  expect(withToken.filter((request) => !request.ok)).toEqual([]);
  // The calls went with refreshed tokens, not the one the sign-in gave.
  const firstAccess = oauth.issuedTokens()[0];
  expect(withToken.at(-1)?.token).not.toBe(firstAccess);
  await expectNoTokenShown(page);
});

test("sign-out sends no token to a revocation endpoint on another origin than the authorization server's, and says so", async ({ page }) => {
  await oauth.stop();
  oauth = await startOAuthServers({ allowOrigin: labOrigin, revocationEndpoint: "elsewhere" });
  await openWith(page, "revoke-elsewhere", ["Nothing to do."]);
  await connectServer(page, oauth.mcpUrl);
  await expect(status(page)).toHaveText("sign-in needed");
  await allow(await openSignInWindow(page));
  await expect(status(page)).toHaveText("connected · 2 tools");
  await page.getByTestId("mcp-sign-out").click();
  await expect(status(page)).toHaveText("sign-in needed");
  await expect(page.getByTestId("mcp-server-notice")).toContainText("is on another host");
  expect(oauth.elsewhereRequests()).toEqual([]);
  expect(oauth.revocations()).toEqual([]);
  const kept = await page.evaluate(() => JSON.stringify(sessionStorage));
  for (const token of oauth.issuedTokens()) expect(kept).not.toContain(token);
});

test("a sign-in answer with another state is refused unused; a code whose PKCE does not match is refused by the server, and said so", async ({ page }) => {
  await openWith(page, "refusals", ["Nothing to do."]);
  await connectServer(page, oauth.mcpUrl);
  await expect(status(page)).toHaveText("sign-in needed");

  // The answer comes back with a state the page did not send: the code is never exchanged.
  let window = await openSignInWindow(page);
  const forged = new URL(window.url());
  forged.searchParams.set("state", "forged-state-0123456789abcdef");
  await window.goto(forged.href);
  await allow(window);
  await expect(page.getByTestId("mcp-server-error")).toContainText("did not carry the state this page sent");
  expect(oauth.tokenRequests()).toEqual([]);

  // A fresh attempt is ready; this time the code is bound to another PKCE challenge.
  await expect(page.getByTestId("mcp-sign-in")).toBeEnabled();
  window = await openSignInWindow(page);
  const tampered = new URL(window.url());
  tampered.searchParams.set("code_challenge", createHash("sha256").update("a verifier the lab never made").digest("base64url"));
  await window.goto(tampered.href);
  await allow(window);
  await expect(page.getByTestId("mcp-server-error")).toContainText("PKCE check failed");
  await expect(page.getByTestId("mcp-server-error")).toContainText("Nothing was kept; sign in again");
  expect(oauth.tokenRequests().every((request) => !request.ok)).toBe(true);
  await expect(status(page)).toHaveText("sign-in needed");

  // And a plain sign-in still works after both.
  await expect(page.getByTestId("mcp-sign-in")).toBeEnabled();
  await allow(await openSignInWindow(page));
  await expect(status(page)).toHaveText("connected · 2 tools");
});
