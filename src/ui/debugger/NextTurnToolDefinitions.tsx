// The tool definitions of a log with no step yet: the enabled tools as the protocol chosen for the
// next turn will write them today (not recorded). Loads when the empty debugger's list is opened.
import { useMemo } from "react";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { toolSectionOf } from "./protocol-support.ts";
import { ToolDefinitions } from "./ToolDefinitions.tsx";

export function NextTurnToolDefinitions({ protocol, tools, template }: { protocol: string; tools: ToolSpec[]; template: string }) {
  const section = useMemo(() => (tools.length > 0 ? { ...toolSectionOf(protocol, tools), recorded: false } : null), [protocol, tools]);
  return <ToolDefinitions protocol={protocol} section={section} tools={tools} source="enabled" template={template} />;
}
