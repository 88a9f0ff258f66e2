// The chat templates prompt mode can render for a model on a server: every family's, named as
// steps record them. The lab renders the prompt itself and sends it raw to /v1/completions, so it
// must use the template the served model was trained on: inferred from the model's name where the
// family is clear (inferServerTemplate), chosen by the person otherwise. The names alone are
// server-template-names.ts (the page's first screen reads them before the templates load).
import type { ChatTemplate } from "../types.ts";
import { familyChatTemplate, familyOfTemplateName } from "./registry.ts";
import type { ServerTemplateName } from "./server-template-names.ts";

export { inferServerTemplate, serverTemplateHasThinkingSwitch, serverTemplateLabels, serverTemplateNames, type ServerTemplateName } from "./server-template-names.ts";

export function serverChatTemplate(name: ServerTemplateName, settings: { enableThinking?: boolean } = {}): ChatTemplate {
  const family = familyOfTemplateName(name);
  if (!family) throw new Error(`No chat template named "${name}"`);
  return familyChatTemplate(family, settings);
}
