// The opening of the tool section in the wording Qwen2.5 and Qwen3 were trained on: tools as
// one JSON object a line inside <tools></tools>.
import type { ToolSpec } from "../types.ts";
import { pythonStyleJson } from "./python-json.ts";

export function toolsAsJsonLines(tools: readonly ToolSpec[]): string {
  return tools
    .map((t) => pythonStyleJson({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }))
    .join("\n");
}

export function qwenToolsIntro(tools: readonly ToolSpec[]): string {
  return [
    "# Tools",
    "",
    "You may call one or more functions to assist with the user query.",
    "",
    "You are provided with function signatures within <tools></tools> XML tags:",
    "<tools>",
    toolsAsJsonLines(tools),
    "</tools>",
  ].join("\n");
}
