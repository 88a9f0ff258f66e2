// The prompt as WebLLM's chat path builds it. That path renders `messages` with the model's
// conv_template itself and keeps its KV cache when a request extends the conversation it saw, so
// step n+1 of a tool loop prefills only what is new. For the debugger's prompt to stay exactly
// what the engine tokenizes, the lab (1) loads the model with its own conv_template (the one it
// renders with), the prefix WebLLM would add as token ids (system_prefix_token_ids) written as
// text at the start of the system turn instead, and (2) sends each turn's text exactly as its
// template writes it (convTurns), so WebLLM's formatter puts the same roles and separators
// around the same text. Both are checked against WebLLM's own Conversation code in the tests.
import type { ChatTurns } from "../types.ts";
import type { ConvTemplate, ConvTurns } from "./conv-types.ts";

/**
 * The conv_template to load a model with (WebLLM's chatOpts), so that its chat path writes the
 * lab's prompt: the lab's template, with the prefix written as text. (Gemma's template writes
 * <bos> as text and also lists it as a prefix id: WebLLM's chat path would start with two.)
 */
export type ChatPathConvTemplate = Omit<ConvTemplate, "system_prefix_token_ids">;

export function chatPathConvTemplate(conv: ConvTemplate, prefixText: string): ChatPathConvTemplate {
  const { system_prefix_token_ids: _prefixIds, ...rest } = conv;
  return { ...rest, system_template: prefixText + conv.system_template };
}

/**
 * The chat turns for a rendered conversation, or undefined where WebLLM's chat path cannot say
 * the same prompt: it must end with a user or tool turn, and a template that writes no empty
 * system turn would lose the prefix text with it.
 */
export function chatTurnsOf(conv: ConvTemplate, turns: ConvTurns, prefixText: string, enableThinking: boolean | undefined): ChatTurns | undefined {
  const last = turns.turns.at(-1);
  if (!last || last.role === "assistant") return undefined;
  if (prefixText !== "" && turns.systemPrompt === "") return undefined;
  // A turn's header stands between turns, where WebLLM's formatter writes nothing.
  if (turns.turns.some((turn) => turn.header !== undefined)) return undefined;
  // WebLLM's cache ends an assistant turn where the model stopped; what the template writes after
  // it is the rest of the assistant's role template (Ministral 3's `</s>`) and the separator of
  // that turn (all templates here have one separator).
  const lastAssistant = turns.turns.findLastIndex((turn) => turn.role === "assistant");
  const assistantTemplate = conv.role_templates?.assistant ?? "";
  const afterReply = assistantTemplate.includes("{assistant_message}") ? assistantTemplate.slice(assistantTemplate.indexOf("{assistant_message}") + "{assistant_message}".length) : "";
  const turnEnd = afterReply + (conv.seps[Math.max(0, lastAssistant) % conv.seps.length] ?? "");
  return {
    system: turns.systemMessage,
    turns: turns.turns.map(({ role, text }) => ({ role, content: text })),
    ...(enableThinking !== undefined ? { enableThinking } : {}),
    turnEnd,
    userRole: conv.roles.user,
  };
}
