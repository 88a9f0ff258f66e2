// MCP servers' tools as tools the loop can run, beside the built-in ones: each under the name
// it is offered by (prefixed on a clash), its call going to its server with the turn's signal
// and the tool timeout, its result turned into what the model reads.
import type { ExecutableTool } from "toolcall-middleware/types.ts";
import type { McpServers, McpServerView } from "./mcp-servers.ts";
import { modelReadableResult } from "./tool-result.ts";
import { offeredToolNames, type OfferedName } from "./tool-names.ts";
import { asksBeforeRunning, toToolSpec, type McpToolDefinition } from "./tool-schema.ts";

/** A tool's isError result: the server's own words go back to the model as an error. */
export class McpToolError extends Error {
  override name = "McpToolError";
}

/** The SDK's own timer is a backstop: the loop's tool timeout decides and aborts the call. */
const SDK_TIMEOUT_MARGIN_MS = 5_000;

export interface OfferedMcpTool extends OfferedName {
  server: McpServerView;
  definition: McpToolDefinition;
}

function serverLabel(server: McpServerView): string {
  return server.serverName ?? new URL(server.url).host;
}

/** Every MCP tool on offer, with its offered name, given the built-in tools' names. */
export function offeredMcpTools(builtInNames: readonly string[], servers: readonly McpServerView[]): OfferedMcpTool[] {
  const withTools = servers.filter((server) => server.tools.length > 0);
  const names = offeredToolNames(
    builtInNames,
    withTools.map((server) => ({ serverId: server.id, serverName: serverLabel(server), toolNames: server.tools.map((tool) => tool.name) })),
  );
  // By id and name, not by searching: a server may offer thousands of tools.
  const byServer = new Map(withTools.map((server) => [server.id, { server, definitions: new Map(server.tools.map((tool) => [tool.name, tool])) }]));
  return names.flatMap((offered) => {
    const entry = byServer.get(offered.serverId);
    const definition = entry?.definitions.get(offered.remoteName);
    return entry && definition ? [{ ...offered, server: entry.server, definition }] : [];
  });
}

export function mcpExecutableTools(
  mcp: McpServers,
  builtInNames: readonly string[],
  toolTimeoutMs: number,
  servers: readonly McpServerView[] = mcp.store.getState().servers,
): ExecutableTool[] {
  return offeredMcpTools(builtInNames, servers).map(({ server, definition, name, remoteName }) => ({
    ...toToolSpec(definition, name),
    execute: async (args, context) => {
      const result = await mcp.callServerTool(server.id, remoteName, args, context, toolTimeoutMs + SDK_TIMEOUT_MARGIN_MS, {
        destructive: asksBeforeRunning(definition),
        // A sampling request the server makes while this call runs is a nested run under it.
        sample: async (params, signal) => (await import("./sampling-run.ts")).runSampling(params, context, signal),
      });
      const readable = modelReadableResult(result);
      if (readable.isError) throw new McpToolError(readable.text);
      return readable.text;
    },
  }));
}

/** Which server each offered MCP tool comes from, by offered name (for marking it in the UI). */
export function mcpToolServers(builtInNames: readonly string[], servers: readonly McpServerView[]): Map<string, string> {
  return new Map(offeredMcpTools(builtInNames, servers).map((tool) => [tool.name, serverLabel(tool.server)]));
}
