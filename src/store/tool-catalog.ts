// The in-browser tools a conversation can offer the model, made from the toolbox with the
// conversation's settings: run_javascript is killed after the conversation's tool timeout, and
// deep_research gets the research settings. The note store is one for the whole page. The tools
// of connected MCP servers follow the built-in ones.
import type { McpServers, McpServerView } from "../mcp/mcp-servers.ts";
import { mcpExecutableTools } from "../mcp/mcp-tools.ts";
import type { ExecutableTool, ToolSpec } from "toolcall-middleware/types.ts";
import { createIndexedDbNoteStore, createToolbox, selectTools, type NoteStore } from "../tools/index.ts";
import type { ConversationSettings } from "../domain/conversation.ts";

/** The page's tools: one note store for the whole page (opened on first use), the page's MCP servers. */
export function createToolCatalog({ mcp }: { mcp: McpServers }) {
  const notes: NoteStore = createIndexedDbNoteStore();

  /** Every tool, for a conversation's settings (enabled or not); MCP servers as they are now by default, or as `mcpServers` lists them. */
  function allTools(settings: ConversationSettings, mcpServers?: readonly McpServerView[]): ExecutableTool[] {
    const builtIn = createToolbox({
      notes,
      runJavascript: { timeoutMs: settings.toolTimeoutMs },
      research: {
        systemPrompt: settings.research.systemPrompt,
        fallbackFormat: settings.research.fallbackFormat,
        timeoutMs: settings.research.timeoutMs,
      },
    });
    const builtInNames = builtIn.map((tool) => tool.name);
    return [...builtIn, ...mcpExecutableTools(mcp, builtInNames, settings.toolTimeoutMs, mcpServers)];
  }

  /** The tools the model is offered in this conversation. */
  function enabledTools(settings: ConversationSettings, mcpServers?: readonly McpServerView[]): ExecutableTool[] {
    return selectTools(allTools(settings, mcpServers), settings.disabledTools);
  }

  return { allTools, enabledTools };
}

export type ToolCatalog = ReturnType<typeof createToolCatalog>;

export function toSpecs(tools: ExecutableTool[]): ToolSpec[] {
  return tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
}
