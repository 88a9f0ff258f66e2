// Marks a tool that comes from an MCP server with the server's name. The caller works out which
// server each tool comes from once for its whole list (see mcpToolServers), not once per tool.
import "./mcp.css";

export function McpToolBadge({ server }: { server: string | undefined }) {
  if (!server) return null;
  return (
    <span className="mcp-origin" data-testid="mcp-tool-origin" title={`From the MCP server ${server}`}>
      MCP · {server}
    </span>
  );
}
