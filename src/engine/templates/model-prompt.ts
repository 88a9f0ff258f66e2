// The prompt a WebLLM model is sent for the next step of a conversation: the loop's own
// rendering (renderPrompt: renderConversation, then the model's template) for a model id from the list. The
// render-prompt command prints it; a test checks it equals the prompt the loop records.
import { renderPrompt } from "../../middleware/loop/render-conversation.ts";
import type { ChatMessage, Protocol, TemplateMessage, ToolSpec } from "../../middleware/types.ts";
import type { ModelChatTemplate } from "../../families/conv-template.ts";
import { chatTemplateForModel } from "../../families/registry.ts";

export interface ModelPromptInput {
  modelId: string;
  protocol: Protocol;
  /** Qwen3's thinking switch; families without one ignore it, as the app does. */
  thinking?: boolean;
  tools: ToolSpec[];
  messages: ChatMessage[];
  /** The conversation's system prompt; undefined means the loop's default. */
  systemPrompt?: string;
}

export interface ModelPrompt {
  prompt: string;
  templateMessages: TemplateMessage[];
  template: ModelChatTemplate;
}

export class UnknownModelTemplateError extends Error {
  override name = "UnknownModelTemplateError";
}

export function renderModelPrompt({ modelId, protocol, thinking, tools, messages, systemPrompt }: ModelPromptInput): ModelPrompt {
  const template = chatTemplateForModel(modelId, thinking === undefined ? {} : { enableThinking: thinking });
  if (!template) throw new UnknownModelTemplateError(`No conversation template is known for model "${modelId}".`);
  const { prompt, templateMessages } = renderPrompt({ ...(systemPrompt !== undefined ? { systemPrompt } : {}), tools, protocol, messages, template });
  return { prompt, templateMessages, template };
}
