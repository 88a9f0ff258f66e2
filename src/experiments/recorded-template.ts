// A branch's template as its recorded step had it (the step's view in the debugger, or its
// step-start event): the template's name, its control tokens and the model's own chat template,
// so that the branch's steps record what the original did.
import type { ChatTemplate } from "toolcall-middleware/types.ts";

/** What a recorded step says of its template. */
export interface RecordedTemplate {
  template: string;
  controlTokens?: readonly string[];
  modelChatTemplate?: string;
}

/** The branch's template; `controlTokens` stand in where the step recorded none. */
export function templateOfRecordedStep(step: RecordedTemplate, controlTokens: readonly string[] = []): Pick<ChatTemplate, "name" | "controlTokens" | "modelChatTemplate"> {
  return { name: step.template, controlTokens: [...(step.controlTokens ?? controlTokens)], ...(step.modelChatTemplate !== undefined ? { modelChatTemplate: step.modelChatTemplate } : {}) };
}
