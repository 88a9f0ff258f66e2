// How a tool result is written back for the protocols here: inside <tool_response> tags, the
// wording of the Qwen chat templates (which send it as a user turn), escaped so it stays inert.
import type { ChatMessage } from "../types.ts";
import { escapeToolResult } from "./escape-tool-result.ts";

export function renderToolResponse(message: Extract<ChatMessage, { role: "tool" }>, extraTags: readonly string[] | "all" = []): string {
  return `<tool_response>\n${escapeToolResult(message.content, extraTags)}\n</tool_response>`;
}

/** Joins an assistant turn's text and its rendered calls the way the Qwen templates do. */
export function joinAssistantTurn(content: string, renderedCalls: string[]): string {
  const parts = content.length > 0 ? [content, ...renderedCalls] : renderedCalls;
  return parts.join("\n");
}
