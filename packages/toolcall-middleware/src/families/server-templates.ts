// The chat templates prompt mode can render for a model on a server: every family's, named as
// steps record them. The lab renders the prompt itself and sends it raw to /v1/completions, so it
// must use the template the served model was trained on: inferred from the model's name where the
// family is clear (familyOfServerModel), chosen by the person otherwise.
import type { ChatTemplate } from "../types.ts";
import { familyChatTemplate, familyOfServerModel, familyOfTemplateName, serverTemplateFamilies } from "./registry.ts";

/** A family's template name ("qwen3", "llama-3_1", "mistral", …). */
export type ServerTemplateName = string;

export const serverTemplateLabels: Record<ServerTemplateName, string> = Object.fromEntries(serverTemplateFamilies.map((family) => [family.templateName, family.templateLabel]));

export const serverTemplateNames: ServerTemplateName[] = serverTemplateFamilies.map((family) => family.templateName);

/** The template a served model's name points to, or undefined when the family is not clear. */
export function inferServerTemplate(modelName: string): ServerTemplateName | undefined {
  return familyOfServerModel(modelName)?.templateName;
}

export function serverChatTemplate(name: ServerTemplateName, settings: { enableThinking?: boolean } = {}): ChatTemplate {
  const family = familyOfTemplateName(name);
  if (!family) throw new Error(`No chat template named "${name}"`);
  return familyChatTemplate(family, settings);
}

/** Whether a template has a thinking switch (the family declares it): the server pane shows it then. */
export function serverTemplateHasThinkingSwitch(name: ServerTemplateName | undefined): boolean {
  const family = name === undefined ? undefined : familyOfTemplateName(name);
  return family?.thinking !== undefined;
}
