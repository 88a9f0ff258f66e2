// Turns the protocol-independent conversation into the plain role/text messages a chat template
// renders. The protocol decides how calls and results look; the conversation stays the same, so
// a conversation can switch protocols between turns and its history is rewritten in the new one.
import { promptEscaper, renderToolSection } from "../protocols/escape-tool-definitions.ts";
import { modelTextEscaper } from "./model-text-markers.ts";
import type { ChatMessage, ChatTemplate, Protocol, TemplateMessage, ToolFraming, ToolSpec } from "../types.ts";

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
  /** Escapes what the model wrote against markers it may not write (model-text-markers.ts); none by default. */
  escapeModelText?: (text: string) => string;
  /** The family's own writing of its trained protocol (used when `protocol` is that one). */
  framing?: ToolFraming;
}

/**
 * The exact prompt of the next step: the conversation as template messages (tool results escaped
 * against this template's control tokens), then the template's text with the generation prompt.
 * The loop and the render-prompt command both render through here, so they cannot drift apart.
 */
export function renderPrompt(input: Omit<RenderConversationInput, "controlTokens" | "escapeModelText"> & { template: ChatTemplate }): { templateMessages: TemplateMessage[]; prompt: string } {
  const { template, ...conversation } = input;
  const escapeModelText = modelTextEscaper(template, conversation.protocol);
  const templateMessages = renderConversation({ ...conversation, controlTokens: template.controlTokens, escapeModelText, ...(template.toolFraming ? { framing: template.toolFraming } : {}) });
  return { templateMessages, prompt: template.render(templateMessages, { addGenerationPrompt: true }) };
}

/**
 * The text the next step's prompt starts with, whatever the next message says: the prompt
 * rendered (by renderPrompt itself) for two different next messages, up to where they part. An
 * engine can read it into its prompt cache before the message is written.
 */
export function promptBeforeNextMessage(input: Parameters<typeof renderPrompt>[0]): string {
  const next = (content: string) => renderPrompt({ ...input, messages: [...input.messages, { role: "user", content }] }).prompt;
  const a = next("A");
  const b = next("B");
  let shared = 0;
  while (shared < a.length && a.charCodeAt(shared) === b.charCodeAt(shared)) shared += 1;
  return a.slice(0, shared);
}

export function renderConversation({ systemPrompt, tools, protocol, messages, controlTokens = [], escapeModelText = (text) => text, framing: anyFraming }: RenderConversationInput): TemplateMessage[] {
  const framing = anyFraming?.protocol === protocol.name ? anyFraming : undefined;
  const toolSection = renderToolSection(protocol, tools, controlTokens, framing);
  const toolsInFirstUser = framing?.placement === "first-user" && toolSection !== "";
  const toolsBeforeLastUser = framing?.placement === "last-user" && toolSection !== "";
  const toolsBeforeFirstUser = framing?.placement === "before-first-user" && toolSection !== "";
  const renderAssistant = framing?.renderAssistant ?? protocol.renderAssistant;
  const renderToolResult = framing?.renderToolResult ?? protocol.renderToolResult;
  const leadingSystem: string[] = [];
  let start = 0;
  while (messages[start]?.role === "system") {
    leadingSystem.push(messages[start]!.content);
    start += 1;
  }
  const userSystem = systemPrompt ?? (leadingSystem.length > 0 ? undefined : DEFAULT_SYSTEM_PROMPT);
  // With tools and no system text, some templates write a default of their own (Qwen2.5).
  const noSystem = (userSystem === undefined || userSystem.trim() === "") && leadingSystem.every((text) => text.trim() === "");
  const defaultSystem = noSystem && toolSection !== "" ? framing?.defaultSystem : undefined;
  const toolsFirst = framing?.placement === "system-start";
  const toolsElsewhere = toolsInFirstUser || toolsFirst || toolsBeforeLastUser || toolsBeforeFirstUser;
  const systemParts = [defaultSystem ?? userSystem, ...leadingSystem];
  const joined = systemParts.filter((part): part is string => typeof part === "string" && part.trim() !== "").join("\n\n");
  const systemJoin = framing?.systemJoin ?? "\n\n";
  const leadingTools = toolsFirst && toolSection.trim() !== "" ? toolSection : "";
  const trailingTools = toolsElsewhere || toolSection.trim() === "" ? "" : toolSection;
  const systemText = [leadingTools, joined, trailingTools].filter((part) => part !== "").join(systemJoin);
  const header = framing?.systemHeader && toolSection !== "" ? framing.systemHeader : undefined;

  const rendered: TemplateMessage[] = systemText || header ? [{ role: "system", content: systemText, ...(header ? { header } : {}) }] : [];
  let toolsPlaced = !toolsInFirstUser && !toolsBeforeFirstUser;
  // A result is escaped against everything that could end its turn or forge a call: the
  // template's control tokens and the markers of every protocol (the model may know several).
  const escape = promptEscaper(controlTokens, protocol);
  // By default results are sent as a user turn because many templates (Qwen's in WebLLM) have
  // no tool role; the results of one assistant turn share a single user turn, in call order.
  // A protocol trained on a tool turn (Llama 3's ipython) gives each result a turn of its own,
  // unless the family's template joins them in one (Hermes).
  const resultRole = framing?.toolResultRole ?? protocol.toolResultRole ?? "user";
  const lastUser = toolsBeforeLastUser ? messages.findLastIndex((message, i) => i >= start && message.role === "user") : -1;
  let toolResults: string[] = [];
  const flushToolResults = () => {
    if (toolResults.length > 0 && framing?.joinToolResults) {
      rendered.push({ role: resultRole, content: framing.joinToolResults(toolResults) });
    } else if (toolResults.length > 0 && resultRole === "user") {
      rendered.push({ role: "user", content: protocol.joinToolResults ? protocol.joinToolResults(toolResults) : toolResults.join("\n") });
    } else for (const content of toolResults) rendered.push({ role: "tool", content });
    toolResults = [];
  };
  for (const [i, message] of messages.entries()) {
    if (i < start) continue;
    if (message.role === "tool") {
      toolResults.push(renderToolResult(message, escape));
      continue;
    }
    flushToolResults();
    if (message.role === "assistant") {
      // What the model wrote goes back escaped against turn and result markers it typed as
      // characters (a forged turn once re-tokenized); a reply without one is unchanged.
      // The reasoning travels beside the turn: whether the model sees it again is the template's call.
      const reasoning = message.reasoning ? { reasoning: escapeModelText(message.reasoning) } : {};
      // The turn as generated (where it was generated in this protocol): the same tokens again.
      const { generated } = generatedTurn(message, protocol.name);
      rendered.push({
        role: "assistant",
        content: escapeModelText(renderAssistant(message)),
        ...reasoning,
        ...(generated !== undefined ? { generated: escapeModelText(generated) } : {}),
      });
    } else {
      // A user turn a server wrote (an MCP prompt's message) is escaped like a tool result; the
      // person's own text goes as typed.
      const content = message.role === "user" && message.source ? escape(message.content) : message.content;
      if (i === lastUser) {
        rendered.push({ role: "user", content, header: toolSection });
      } else if (message.role === "user" && !toolsPlaced) {
        // The family's template puts the tool section in front of the first user message: in its
        // text, or before its turn (as the turn's header).
        rendered.push(toolsBeforeFirstUser ? { role: "user", content, header: toolSection } : { role: "user", content: toolSection + content });
        toolsPlaced = true;
      } else rendered.push({ role: message.role, content });
    }
  }
  flushToolResults();
  return rendered;
}

/** An assistant turn's raw output; a turn recorded without one was its text alone. */
function generatedTurn(message: Extract<ChatMessage, { role: "assistant" }>, protocol: string): { generated?: string } {
  if (message.rawOutput !== undefined) return message.protocol === protocol ? { generated: message.rawOutput } : {};
  return message.toolCalls?.length || message.reasoning ? {} : { generated: message.content };
}
