// The hermes protocol (Hermes 2 Pro, Qwen2.5, Qwen3): tools as JSON in <tools>, each call as
// {"name": ..., "arguments": {...}} inside <tool_call></tool_call>, results in <tool_response>.
import { ToolCallScanner } from "../parser/scanner.ts";
import type { Protocol, ToolCall } from "../types.ts";
import { pythonStyleJson } from "./python-json.ts";
import { joinAssistantTurn, renderToolResponse } from "./tool-response.ts";
import { qwenToolsIntro } from "./tools-intro.ts";

export function renderHermesCall(call: ToolCall): string {
  return `<tool_call>\n{"name": ${JSON.stringify(call.name)}, "arguments": ${pythonStyleJson(call.arguments)}}\n</tool_call>`;
}

export const hermesProtocol: Protocol = {
  name: "hermes",
  label: "Hermes (JSON in <tool_call>)",
  systemPrompt: (tools) =>
    tools.length === 0
      ? ""
      : [
          qwenToolsIntro(tools),
          "",
          "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:",
          "<tool_call>",
          '{"name": <function-name>, "arguments": <args-json-object>}',
          "</tool_call>",
        ].join("\n"),
  renderAssistant: (message) => joinAssistantTurn(message.content, (message.toolCalls ?? []).map(renderHermesCall)),
  renderToolResult: (message) => renderToolResponse(message),
  createParser: (tools) => new ToolCallScanner({ tools }),
};
