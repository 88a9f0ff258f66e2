// Turns the protocol-independent conversation into the plain role/text messages a chat template
// renders. The protocol decides how calls and results look; the conversation stays the same, so
// a conversation can switch protocols between turns and its history is rewritten in the new one.
import { toolResultEscaper } from "../protocols/escape-tool-result.ts";
import { allReservedMarkers } from "../protocols/registry.ts";
import type { ChatMessage, ChatTemplate, Protocol, TemplateMessage, ToolSpec } from "../types.ts";

/** Sent when the caller gives no system prompt: templates' own defaults differ between models. */
export const DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant.";

export interface RenderConversationInput {
  /** The user's system prompt; `undefined` means the default one, `""` means none. */
  systemPrompt?: string;
  tools: ToolSpec[];
  protocol: Protocol;
  messages: ChatMessage[];
  /** The chat template's control tokens: a tool result must not be able to write one. */
  controlTokens?: readonly string[];
}

/**
 * The exact prompt of the next step: the conversation as template messages (tool results escaped
 * against this template's control tokens), then the template's text with the generation prompt.
 * The loop and the render-prompt command both render through here, so they cannot drift apart.
 */
export function renderPrompt(input: Omit<RenderConversationInput, "controlTokens"> & { template: ChatTemplate }): { templateMessages: TemplateMessage[]; prompt: string } {
  const { template, ...conversation } = input;
  const templateMessages = renderConversation({ ...conversation, controlTokens: template.controlTokens });
  return { templateMessages, prompt: template.render(templateMessages, { addGenerationPrompt: true }) };
}

export function renderConversation({ systemPrompt, tools, protocol, messages, controlTokens = [] }: RenderConversationInput): TemplateMessage[] {
  const leadingSystem: string[] = [];
  let start = 0;
  while (messages[start]?.role === "system") {
    leadingSystem.push(messages[start]!.content);
    start += 1;
  }
  const userSystem = systemPrompt ?? (leadingSystem.length > 0 ? undefined : DEFAULT_SYSTEM_PROMPT);
  const systemParts = [userSystem, ...leadingSystem, tools.length > 0 ? protocol.systemPrompt(tools) : undefined];
  const systemText = systemParts.filter((part): part is string => typeof part === "string" && part.trim() !== "").join("\n\n");

  const rendered: TemplateMessage[] = systemText ? [{ role: "system", content: systemText }] : [];
  // A result is escaped against everything that could end its turn or forge a call: the
  // template's control tokens and the markers of every protocol (the model may know several).
  const escape = toolResultEscaper([...controlTokens, ...allReservedMarkers(), ...(protocol.reservedMarkers ?? [])]);
  // By default results are sent as a user turn because many templates (Qwen's in WebLLM) have
  // no tool role; the results of one assistant turn share a single user turn, in call order.
  // A protocol trained on a tool turn (Llama 3's ipython) gives each result a turn of its own.
  const resultRole = protocol.toolResultRole ?? "user";
  let toolResults: string[] = [];
  const flushToolResults = () => {
    if (toolResults.length > 0 && resultRole === "user") {
      rendered.push({ role: "user", content: protocol.joinToolResults ? protocol.joinToolResults(toolResults) : toolResults.join("\n") });
    } else for (const content of toolResults) rendered.push({ role: "tool", content });
    toolResults = [];
  };
  for (const message of messages.slice(start)) {
    if (message.role === "tool") {
      toolResults.push(protocol.renderToolResult(message, escape));
      continue;
    }
    flushToolResults();
    if (message.role === "assistant") {
      // The reasoning travels beside the turn: whether the model sees it again is the template's call.
      const reasoning = message.reasoning ? { reasoning: message.reasoning } : {};
      // The turn as generated (where it was generated in this protocol): the same tokens again.
      const generated = generatedTurn(message, protocol.name);
      rendered.push({ role: "assistant", content: protocol.renderAssistant(message), ...reasoning, ...generated });
    }
    else rendered.push({ role: message.role, content: message.content });
  }
  flushToolResults();
  return rendered;
}

/** An assistant turn's raw output; a turn recorded without one was its text alone. */
function generatedTurn(message: Extract<ChatMessage, { role: "assistant" }>, protocol: string): { generated?: string } {
  if (message.rawOutput !== undefined) return message.protocol === protocol ? { generated: message.rawOutput } : {};
  return message.toolCalls?.length || message.reasoning ? {} : { generated: message.content };
}
