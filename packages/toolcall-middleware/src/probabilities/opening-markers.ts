// How a protocol's calls open, as the texts that trigger its structural tag (the constrained
// decoder's own list of call openers): `<tool_call>` for Hermes, `[TOOL_CALLS]` for Mistral,
// both `<|python_tag|>{"name": "` and `{"name": "` for Llama 3 JSON.
import type { Protocol, ToolSpec } from "../types.ts";

const PROBE_TOOLS: ToolSpec[] = [{ name: "tool", description: "", parameters: { type: "object", properties: {} } }];

export function openingMarkers(protocol: Protocol, tools: readonly ToolSpec[] = PROBE_TOOLS): string[] {
  const tag = protocol.structuralTag?.(tools.length > 0 ? [...tools] : PROBE_TOOLS, "auto");
  const format = tag?.format as { triggers?: unknown } | undefined;
  const triggers = Array.isArray(format?.triggers) ? format.triggers.filter((t): t is string => typeof t === "string" && t !== "") : [];
  return [...new Set(triggers)];
}
