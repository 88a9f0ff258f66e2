// Marks a tool that comes from an MCP server with the server's name.
import { useMemo } from "react";
import { useMcpStore } from "../../mcp/mcp-servers.ts";
import { mcpToolServers } from "../../mcp/mcp-tools.ts";
import { TOOL_NAMES } from "../../tools/index.ts";
import "./mcp.css";

export function McpToolBadge({ name }: { name: string }) {
  const servers = useMcpStore((s) => s.servers);
  const origins = useMemo(() => mcpToolServers(TOOL_NAMES, servers), [servers]);
  const server = origins.get(name);
  if (!server) return null;
  return (
    <span className="mcp-origin" data-testid="mcp-tool-origin" title={`From the MCP server ${server}`}>
      MCP · {server}
    </span>
  );
}
