// The replay engine's chat template (Qwen3's, like its transcripts), apart from the registry: the
// lab's first screen shows the replay engine's prompts before the other families' templates load.
import { chatTemplateFromConv, type ModelChatTemplate } from "./conv-template.ts";
import { qwen3 } from "./qwen3.ts";

export function replayChatTemplate(settings: { enableThinking?: boolean } = {}): ModelChatTemplate {
  return chatTemplateFromConv(qwen3.conv!.template, qwen3.conv!.extras, settings);
}
