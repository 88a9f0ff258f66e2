// The reference server ships JavaScript only; this names the one module the tests import.
declare module "@modelcontextprotocol/server-everything/dist/server/index.js" {
  import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
  export function createServer(): { server: McpServer; cleanup: (sessionId?: string) => void };
}
