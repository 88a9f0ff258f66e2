// The chat templates prompt mode can render for a model on a server, by name, without the
// templates themselves: the server pane's chooser and what a served model's name points to (the
// light family index). server-templates.ts renders with them.
import { familyEntryOfServerModel, familyEntryOfTemplateName, familyIndexEntries } from "./family-index.ts";

/** A family's template name ("qwen3", "llama-3_1", "mistral", …). */
export type ServerTemplateName = string;

export const serverTemplateLabels: Record<ServerTemplateName, string> = Object.fromEntries(familyIndexEntries.map((family) => [family.templateName, family.templateLabel]));

export const serverTemplateNames: ServerTemplateName[] = familyIndexEntries.map((family) => family.templateName);

/** The template a served model's name points to, or undefined when the family is not clear. */
export function inferServerTemplate(modelName: string): ServerTemplateName | undefined {
  return familyEntryOfServerModel(modelName)?.templateName;
}

/** Whether a template has a thinking switch (the family declares it): the server pane shows it then. */
export function serverTemplateHasThinkingSwitch(name: ServerTemplateName | undefined): boolean {
  const family = name === undefined ? undefined : familyEntryOfTemplateName(name);
  return family?.thinking !== undefined;
}
