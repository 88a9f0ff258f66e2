// The resources an MCP tool's result links to or embeds, on its card in the chat: each named,
// and opened (a link is read from the server that made the call, an embedded one shown as it
// came) or attached to the message box like a resource from the server's card.
import { useMcpServers } from "../../app/lab-stores-context.tsx";
import type { McpServerView } from "../../mcp/mcp-servers.ts";
import type { ResultResource } from "../../mcp/tool-result.ts";
import { visibleName } from "../bidi/VisibleBidi.tsx";
import { ResourceActions } from "./McpServerDetails.tsx";

/** The server whose tool this is: the name as offered, or `<server>__<name>` after a clash. */
function serverOfTool(servers: readonly McpServerView[], toolName: string): McpServerView | undefined {
  return (
    servers.find((server) => server.tools.some((tool) => tool.name === toolName)) ??
    servers.find((server) => server.tools.some((tool) => `${server.serverName ?? new URL(server.url).host}__${tool.name}` === toolName))
  );
}

export function McpResultResources({ toolName, resources }: { toolName: string; resources: ResultResource[] }) {
  const server = useMcpServers((s) => serverOfTool(s.servers, toolName));
  return (
    <details className="mcp-section tool-card-resources" data-testid="tool-result-resources">
      <summary>
        {resources.length} resource{resources.length === 1 ? "" : "s"} in the result
      </summary>
      <ul className="mcp-items">
        {resources.map((resource, index) => (
          <li key={index} className="mcp-item" data-testid="tool-result-resource" data-uri={resource.uri} data-kind={resource.kind}>
            <div className="mcp-item-head">
              <span className="mcp-item-name mono">
                {visibleName(resource.name ?? resource.uri)}
                <span className="mcp-hint">{resource.kind === "link" ? "link" : "embedded"}</span>
                {resource.mimeType && <span className="mcp-muted"> {resource.mimeType}</span>}
              </span>
            </div>
            {resource.name && <span className="mcp-muted mono">{visibleName(resource.uri)}</span>}
            {!server ? (
              <span className="mcp-muted">The server that made this call is no longer listed, so it cannot be opened.</span>
            ) : resource.kind === "embedded" && resource.text === undefined ? (
              <span className="mcp-muted">Binary content: shown in the debugger's trace.</span>
            ) : (
              <ResourceActions
                server={server}
                uri={() => Promise.resolve(resource.uri)}
                {...(resource.kind === "embedded" ? { embedded: { uri: resource.uri, text: resource.text ?? "", binary: false, ...(resource.mimeType ? { mimeType: resource.mimeType } : {}) } } : {})}
              />
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
