// The prompt a model is sent for the next step of a conversation: the loop's own rendering
// (renderPrompt: renderConversation, then the model's template) for a WebLLM model id from the
// list or a server model name, both resolved through the family registry. The render-prompt
// command prints it; a test checks it equals the prompt the loop records.
import { renderPrompt } from "../loop/render-conversation.ts";
import type { ChatMessage, ChatTemplate, Protocol, TemplateMessage, ToolSpec } from "../types.ts";
import { chatTemplateForModel, familyChatTemplate, familyOfModel, familyOfServerModel } from "./registry.ts";
import { thinkingDefaultOn } from "./family-lookup.ts";
import type { ModelFamily } from "./types.ts";

export interface ModelPromptInput {
  /** A WebLLM model id from the list, or a model name as a server lists it (e.g. "Qwen/Qwen3-8B"). */
  modelId: string;
  protocol: Protocol;
  /** The thinking switch; families without one ignore it, as the app does; undefined: the family's default for the model. */
  thinking?: boolean;
  tools: ToolSpec[];
  messages: ChatMessage[];
  /** The conversation's system prompt; undefined means the loop's default. */
  systemPrompt?: string;
}

export interface ModelPrompt {
  prompt: string;
  templateMessages: TemplateMessage[];
  template: ChatTemplate;
}

export class UnknownModelTemplateError extends Error {
  override name = "UnknownModelTemplateError";
}

/** The template of a WebLLM model id, else of the family a server model name points to. */
export function templateForModel(model: string, settings: { enableThinking?: boolean } = {}): { template: ChatTemplate; family?: ModelFamily } | undefined {
  const family = familyOfModel(model);
  // Nobody set the switch: the family's default for this model (Qwen3.5: off for 0.8B and 2B).
  const withDefault = settings.enableThinking === undefined && family?.thinking ? { ...settings, enableThinking: thinkingDefaultOn(family.thinking, model) } : settings;
  const webllm = chatTemplateForModel(model, withDefault);
  if (webllm) return { template: webllm };
  const served = familyOfServerModel(model);
  return served ? { template: familyChatTemplate(served, withDefault), family: served } : undefined;
}

export function renderModelPrompt({ modelId, protocol, thinking, tools, messages, systemPrompt }: ModelPromptInput): ModelPrompt {
  const template = templateForModel(modelId, thinking === undefined ? {} : { enableThinking: thinking })?.template;
  if (!template) throw new UnknownModelTemplateError(`No model family is known for model "${modelId}".`);
  const { prompt, templateMessages } = renderPrompt({ ...(systemPrompt !== undefined ? { systemPrompt } : {}), tools, protocol, messages, template });
  return { prompt, templateMessages, template };
}
