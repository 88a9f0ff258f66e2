// A server's OAuth sign-in on its card: where the person signs in, a button that opens that
// page in a window (nothing opens by itself), what the lab waits for, and Sign out. No token is
// ever shown: only whether one is held and which authorization server gave it.
import { useLabStores } from "../../app/lab-stores-context.tsx";
import type { McpServerView } from "../../mcp/mcp-servers.ts";

function openSignInWindow(url: string): Window | null {
  // A window of its own (not a tab that replaces the lab), its opener cut before it leaves this
  // origin (the answer comes back over a same-origin channel, not through window.opener).
  // "noopener" cannot be used: with it, window.open returns null and a blocked pop-up looks the same.
  const opened = window.open("about:blank", "_blank", "popup,width=520,height=680");
  if (!opened) return null;
  opened.opener = null;
  opened.location.href = url;
  return opened;
}

export function McpSignIn({ server }: { server: McpServerView }) {
  const mcpActions = useLabStores().mcp.actions;
  const oauth = server.oauth;
  if (!oauth) return null;
  const where = oauth.authorizationServer ? <b className="mono">{oauth.authorizationServer}</b> : "its authorization server";
  if (oauth.signedIn && server.status !== "sign-in") {
    return (
      <div className="mcp-signin" data-testid="mcp-signin" data-state="signed-in">
        <span>
          Signed in with {where} (OAuth). The token is kept for this tab only and never shown.
        </span>
        <button type="button" data-testid="mcp-sign-out" onClick={() => void mcpActions.signOut(server.id)}>
          Sign out
        </button>
      </div>
    );
  }
  if (server.status !== "sign-in") return null;
  if (oauth.waiting) {
    return (
      <div className="mcp-signin" data-testid="mcp-signin" data-state={oauth.waiting}>
        <span>{oauth.waiting === "window" ? <>Finish signing in with {where} in the window that opened.</> : "Exchanging the sign-in code for a token…"}</span>
        {oauth.waiting === "window" && (
          <button type="button" data-testid="mcp-sign-in-cancel" onClick={() => mcpActions.cancelSignIn(server.id)}>
            Cancel
          </button>
        )}
      </div>
    );
  }
  return (
    <div className="mcp-signin" data-testid="mcp-signin" data-state="needed">
      <span>This server asks you to sign in with {where}. A window opens there; the lab gets a token for this server only.</span>
      <button
        type="button"
        className="mcp-signin-button"
        data-testid="mcp-sign-in"
        disabled={!oauth.authorizationUrl}
        onClick={() => mcpActions.signIn(server.id, openSignInWindow)}
      >
        Sign in
      </button>
    </div>
  );
}
