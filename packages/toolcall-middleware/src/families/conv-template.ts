// Renders a conversation the way WebLLM's chat path does from a model's mlc-chat-config.json
// `conv_template`, so that the prompt we send through the raw completion path (and show in the
// debugger) is exactly the text the model was configured to read.
import type { ChatTemplate, TemplateMessage } from "../types.ts";
import { chatTurnsOf } from "./chat-path.ts";
import { EMPTY_THINK_BLOCK, type ConvTemplate, type ConvTemplateExtras, type ConvTurns, type FamilyRules, type RenderOptions, type TurnWriter } from "./conv-types.ts";

export { EMPTY_THINK_BLOCK, type ConvTemplate, type ConvTemplateExtras, type ConvTurns, type FamilyRules, type RenderOptions, type TurnWriter };

const PLACEHOLDER = {
  system: "{system_message}",
  user: "{user_message}",
  assistant: "{assistant_message}",
  tool: "{tool_message}",
  function: "{function_string}",
} as const;

// `String.replace` with a string replacement would interpret `$&`, `$1`… inside user text;
// a replacer function inserts the text literally.
const fill = (template: string, placeholder: string, text: string) => template.replace(placeholder, () => text);

/**
 * The roles a conversation uses with this template: a tool result becomes a user turn when the
 * template has no tool role (Qwen's own template does the same, wrapping results in
 * <tool_response>), and a system message after the first turn becomes a user turn.
 */
export function templateRole(conv: ConvTemplate, message: TemplateMessage, index: number): "system" | "user" | "assistant" | "tool" {
  if (message.role === "system") return index === 0 ? "system" : "user";
  if (message.role === "tool") return conv.roles.tool !== undefined ? "tool" : "user";
  return message.role;
}

/** A user turn that only carries tool results; Qwen3's template does not count it as a query. */
function isToolResultTurn(message: TemplateMessage): boolean {
  const text = message.content;
  return message.role === "tool" || (message.role === "user" && text.startsWith("<tool_response>") && text.endsWith("</tool_response>"));
}

/** Index of the last user message that is a real query, or the last index when there is none. */
function lastQueryIndex(messages: TemplateMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user" && !isToolResultTurn(message)) return i;
  }
  return messages.length - 1;
}

const trimNewlines = (text: string) => text.replace(/^\n+|\n+$/g, "");

/** Qwen3's think block: reasoning without its outer newlines, then the reply. */
function withThinkBlock(reasoning: string, content: string): string {
  return `<think>\n${trimNewlines(reasoning)}\n</think>\n\n${content.replace(/^\n+/, "")}`;
}

/**
 * Whether an assistant turn is written as the model generated it: where the family would write
 * the same thing — its reasoning kept (Qwen3's turns after the last query) or none to drop — and
 * the family's trimming would change nothing.
 */
function writesGenerated(message: TemplateMessage, keepsReasoning: boolean, rules: FamilyRules): message is TemplateMessage & { generated: string } {
  const generated = message.generated;
  if (generated === undefined) return false;
  if (rules.trimContent && generated !== generated.trim()) return false;
  return keepsReasoning || (!message.reasoning && !generated.includes("<think>"));
}

export function convTurns(conv: ConvTemplate, messages: TemplateMessage[], rules: FamilyRules = {}): ConvTurns {
  if (conv.seps.length === 0) throw new Error(`Conversation template "${conv.name}" has no separators`);
  const first = messages[0];
  const hasSystem = first?.role === "system";
  const systemText = hasSystem ? first.content : conv.system_message;
  // A family without a system role gets the system text in its first turn (below), untrimmed.
  const systemTurn = rules.trimContent ? systemText.trim() : systemText;
  // A family's tool framing may open the system turn (Llama 3.1's "Environment: ipython\n"), before its preamble.
  const header = hasSystem ? (first.header ?? "") : "";
  const systemMessage = rules.systemInFirstTurn || rules.writeTurn ? "" : header + (rules.systemPreamble?.(new Date()) ?? "") + systemTurn;
  const systemPrompt =
    systemMessage === "" && conv.render_empty_system_message === false ? "" : fill(conv.system_template, PLACEHOLDER.system, systemMessage);
  const queryIndex = rules.thinkBlocksAfterLastQuery ? lastQueryIndex(messages) : Infinity;

  const offset = hasSystem ? 1 : 0;
  const lastUser = messages.findLastIndex((message, i) => i >= offset && message.role === "user");
  const turns = messages.slice(offset).map((message, i) => {
    const index = i + offset;
    const role = templateRole(conv, message, index) as "user" | "assistant" | "tool";
    const keepsReasoning = index > queryIndex;
    let text: string;
    // A family that writes its turns itself writes replies from the message (Mistral v0.3's calls with their ids).
    if (role === "assistant" && !rules.writeTurn && writesGenerated(message, keepsReasoning, rules)) {
      // A reply whose prompt opened its think block (Qwen3.5, thinking on) was generated after that opener.
      const opened = rules.thinkingOpener !== undefined && message.reasoning !== undefined && !message.generated.startsWith("<think>");
      text = opened ? rules.thinkingOpener + message.generated : message.generated;
    } else {
      text = rules.trimContent ? message.content.trim() : message.content;
      if (role === "assistant" && keepsReasoning && (message.reasoning || rules.emptyThinkBlocks || index === messages.length - 1)) {
        text = withThinkBlock(message.reasoning ?? "", text);
      }
    }
    if (rules.systemInFirstTurn && i === 0 && systemText !== "") text = `${systemText}\n\n${text}`;
    if (rules.writeTurn) {
      text = rules.writeTurn({ role, text, ...(message.header ? { header: message.header } : {}), first: i === 0, lastUser: index === lastUser, system: hasSystem ? first.content : "" });
    }
    // A family that writes its turns itself has placed the header already.
    return { role, text, ...(message.header && role === "user" && !rules.writeTurn ? { header: message.header } : {}) };
  });
  return { systemPrompt, systemMessage, turns };
}

export function renderConvTemplate(conv: ConvTemplate, messages: TemplateMessage[], options: RenderOptions, prefixText = "", rules: FamilyRules = {}): string {
  const { systemPrompt, turns } = convTurns(conv, messages, rules);
  const contentSep = conv.role_content_sep ?? ": ";
  const emptySep = conv.role_empty_sep ?? ": ";
  let out = prefixText + systemPrompt;
  turns.forEach(({ role, text, header = "" }, i) => {
    const roleString = conv.roles[role] ?? conv.roles.user;
    let body = text;
    const roleTemplate = conv.role_templates?.[role];
    if (roleTemplate !== undefined) body = fill(roleTemplate, PLACEHOLDER[role], text).replace(PLACEHOLDER.function, "");
    const rolePrefix = conv.add_role_after_system_message === false && systemPrompt !== "" && i === 0 ? "" : roleString + contentSep;
    out += header + rolePrefix + body + conv.seps[i % conv.seps.length];
  });
  if (options.addGenerationPrompt) {
    out += options.enableThinking === false ? conv.roles.assistant + contentSep + EMPTY_THINK_BLOCK : conv.roles.assistant + emptySep + (rules.thinkingOpener ?? "");
  }
  return out;
}

export interface ModelChatTemplate extends ChatTemplate {
  conv: ConvTemplate;
  /** Text the prompt starts with (the tokens WebLLM's chat path would add as system_prefix_token_ids). */
  prefixText: string;
  supportsThinkingToggle: boolean;
  /** Renders with thinking on or off (Qwen3); the plain `render` uses the template's setting. */
  renderWith: (messages: TemplateMessage[], options: RenderOptions) => string;
}

/** A ChatTemplate for the middleware, from a conv_template. */
export function chatTemplateFromConv(conv: ConvTemplate, extras: ConvTemplateExtras, settings: { enableThinking?: boolean } = {}): ModelChatTemplate {
  const supportsThinkingToggle = extras.supportsThinkingToggle ?? false;
  const enableThinking = supportsThinkingToggle ? settings.enableThinking : undefined;
  const writer = extras.writer;
  const renderWith = (messages: TemplateMessage[], options: RenderOptions) =>
    writer ? writer.render(messages, { ...options, enableThinking: supportsThinkingToggle ? options.enableThinking : undefined }) : renderConvTemplate(
      conv,
      messages,
      { ...options, enableThinking: supportsThinkingToggle ? options.enableThinking : undefined },
      extras.prefixText ?? "",
      extras.rules,
    );
  const stop = [...new Set([...conv.stop_str, ...(extras.extraStop ?? [])].filter(Boolean))];
  const toolFraming = extras.toolFraming;
  const prefixText = extras.prefixText ?? "";
  // Thinking on (or left to the template, whose default is on) and a template that opens the think block itself.
  const opener = enableThinking !== false ? extras.rules?.thinkingOpener : undefined;
  return {
    name: supportsThinkingToggle && enableThinking === false ? `${conv.name} (thinking off)` : conv.name,
    conv,
    prefixText,
    // WebLLM's chat path opens a reply with the role alone (or Qwen3's empty think block): a prompt
    // that ends inside an opened think block takes the raw path.
    chatTurns: (messages) =>
      writer ? writer.chatTurns(messages, enableThinking) : opener ? undefined : chatTurnsOf(conv, convTurns(conv, messages, extras.rules), prefixText, enableThinking),
    ...(opener ? { opensReasoning: opener.trim() } : {}),
    supportsThinkingToggle,
    stop,
    controlTokens: extras.controlTokens,
    ...(toolFraming ? { toolFraming } : {}),
    renderWith,
    render: (messages, options) => renderWith(messages, { ...options, ...(enableThinking === undefined ? {} : { enableThinking }) }),
  };
}
