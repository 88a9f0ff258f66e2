// Connect the lab to MCP servers: an address, optional headers (a bearer token), and for each
// server its name, version, status, tools and what went wrong. Tokens stay for this tab unless
// the person chooses to keep them.
import { useEffect, useId, useState } from "react";
import { useLabStores, useMcpServers } from "../../app/lab-stores-context.tsx";
import { checkServerUrl, type McpServerView } from "../../mcp/mcp-servers.ts";
import { maskUrl } from "../../mcp/mask-secrets.ts";
import { hasUrlSecrets, parseHeaderLines } from "../../mcp/saved-servers.ts";
import { annotationWords, asksBeforeRunning } from "../../mcp/tool-schema.ts";
import { visibleName } from "../bidi/VisibleBidi.tsx";
import { McpServerDetails } from "./McpServerDetails.tsx";
import { McpSignIn } from "./McpSignIn.tsx";
import "./mcp.css";

/** A server with thousands of tools: the first names are listed, then how many more. */
const LISTED_NAMES = 40;

function statusText(server: McpServerView): string {
  const count = `${server.tools.length} tool${server.tools.length === 1 ? "" : "s"}`;
  switch (server.status) {
    case "connecting":
      return "connecting…";
    case "connected":
      return `connected · ${count}`;
    case "disconnected":
      return `disconnected · ${count} (reconnects on the next call)`;
    case "failed":
      return "not connected";
    case "sign-in":
      return "sign-in needed";
  }
}

function ServerCard({ server }: { server: McpServerView }) {
  const mcpActions = useLabStores().mcp.actions;
  const tone = server.status === "connected" ? "ok" : server.status === "connecting" ? "muted" : "err";
  return (
    <li className="mcp-server" data-testid="mcp-server" data-status={server.status}>
      <div className="mcp-server-head">
        <span className="mcp-server-name" data-testid="mcp-server-name">
          {server.serverName ?? new URL(server.url).host}
          {server.serverVersion ? <span className="mcp-muted"> v{server.serverVersion}</span> : null}
        </span>
        <span className={`mcp-status mcp-status-${tone}`} data-testid="mcp-server-status">
          {statusText(server)}
        </span>
      </div>
      <div className="mcp-url mono">
        {maskUrl(server.url)}
        {server.transport && <span className="mcp-muted"> · {server.transport === "sse" ? "HTTP+SSE (old transport)" : "Streamable HTTP"}</span>}
        {server.protocolVersion && <span className="mcp-muted"> · MCP {server.protocolVersion}</span>}
      </div>
      {server.failure && server.status !== "connected" && (
        <p className="mcp-error" role="alert" data-testid="mcp-server-error" data-kind={server.failure.kind}>
          {server.failure.message}
        </p>
      )}
      <McpSignIn server={server} />
      {server.notice && (
        <p className="mcp-notice" data-testid="mcp-server-notice">
          {server.notice}{" "}
          <button type="button" className="mcp-link" onClick={() => mcpActions.dismissNotice(server.id)}>
            OK
          </button>
        </p>
      )}
      {server.tools.length > 0 && (
        <div className="mcp-tools mono" data-testid="mcp-server-tools">
          {server.tools.slice(0, LISTED_NAMES).map((tool, index) => (
            <span key={index} data-testid="mcp-tool" data-name={tool.name}>
              {index > 0 && ", "}
              {visibleName(tool.name)}
              {annotationWords(tool).map((word) => (
                <span key={word} className={`mcp-hint${word === "destructive" ? " mcp-hint-destructive" : ""}`} data-testid="mcp-tool-hint" title="As the server describes the tool (a hint, not a guarantee)">
                  {word}
                </span>
              ))}
            </span>
          ))}
          {server.tools.length > LISTED_NAMES && ` and ${(server.tools.length - LISTED_NAMES).toLocaleString("en-US")} more`}
        </div>
      )}
      {server.tools.some(asksBeforeRunning) && (
        <label className="mcp-keep">
          <input type="checkbox" data-testid="mcp-ask-destructive" checked={server.askDestructive} onChange={(e) => mcpActions.setAskDestructive(server.id, e.target.checked)} />
          Ask before a destructive tool of this server runs
        </label>
      )}
      {server.status === "connected" && <McpServerDetails server={server} />}
      <div className="mcp-actions">
        <button type="button" data-testid="mcp-reconnect" disabled={server.status === "connecting"} onClick={() => void mcpActions.reconnect(server.id)}>
          Reconnect
        </button>
        <button type="button" data-testid="mcp-remove" onClick={() => mcpActions.remove(server.id)}>
          Remove
        </button>
      </div>
    </li>
  );
}

export function McpPanel() {
  const mcpActions = useLabStores().mcp.actions;
  const servers = useMcpServers((s) => s.servers);
  const storageError = useMcpServers((s) => s.storageError);
  const [url, setUrl] = useState("");
  const [headerText, setHeaderText] = useState("");
  const [keepHeaders, setKeepHeaders] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const urlId = useId();
  const headersId = useId();

  useEffect(() => mcpActions.restore(), [mcpActions]);

  const submit = () => {
    const checked = checkServerUrl(url);
    if ("error" in checked) return setFormError(checked.error);
    const parsed = parseHeaderLines(headerText);
    if ("error" in parsed) return setFormError(parsed.error);
    setFormError(null);
    void mcpActions.add(checked.url, parsed.headers, keepHeaders);
  };

  return (
    <div className="mcp-panel" data-testid="mcp-panel">
      <form
        className="mcp-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label htmlFor={urlId}>Server address</label>
        <input
          id={urlId}
          data-testid="mcp-url-input"
          type="url"
          placeholder="http://127.0.0.1:3000/mcp"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
        {hasUrlSecrets(url.trim()) && (
          <p className={keepHeaders ? "mcp-warning" : "mcp-muted"} data-testid="mcp-url-secret-note">
            {keepHeaders
              ? "This address carries a credential; with Keep headers it is stored as it is, unencrypted, in this browser's local storage."
              : "This address carries a credential: like headers, it is kept for this tab only. The list in this browser keeps the address without it."}
          </p>
        )}
        <label htmlFor={headersId}>Headers (optional, one per line)</label>
        <textarea
          id={headersId}
          data-testid="mcp-headers-input"
          rows={2}
          placeholder="Authorization: Bearer …"
          value={headerText}
          onChange={(event) => setHeaderText(event.target.value)}
        />
        <label className="mcp-keep">
          <input type="checkbox" data-testid="mcp-keep-headers" checked={keepHeaders} onChange={(event) => setKeepHeaders(event.target.checked)} />
          Keep headers in this browser
        </label>
        {keepHeaders && (
          <p className="mcp-warning" data-testid="mcp-keep-warning">
            Headers will be stored unencrypted in this browser's local storage, readable by anyone who uses this browser profile and by any
            script on this page. Without this, they are forgotten when the tab closes.
          </p>
        )}
        {formError && (
          <p className="mcp-error" role="alert" data-testid="mcp-form-error">
            {formError}
          </p>
        )}
        <button type="submit" data-testid="mcp-connect-button" disabled={!url.trim()}>
          Connect
        </button>
      </form>
      {storageError && <p className="mcp-error">{storageError}</p>}
      {servers.length === 0 ? (
        <p className="mcp-muted">No MCP servers. A server's tools join the conversation's tools once connected.</p>
      ) : (
        <ul className="mcp-servers" data-testid="mcp-servers">
          {servers.map((server) => (
            <ServerCard key={server.id} server={server} />
          ))}
        </ul>
      )}
    </div>
  );
}
