// The in-browser tools a conversation can offer the model, made from the toolbox with the
// conversation's settings: run_javascript is killed after the conversation's tool timeout, and
// deep_research gets the research settings. The note store is one for the whole page.
import type { ExecutableTool, ToolSpec } from "../middleware/types.ts";
import { createIndexedDbNoteStore, createToolbox, selectTools, type NoteStore } from "../tools/index.ts";
import type { ConversationSettings } from "./conversation.ts";

let notes: NoteStore | null = null;

/** Every tool, for a conversation's settings (enabled or not). */
export function allTools(settings: ConversationSettings): ExecutableTool[] {
  notes ??= createIndexedDbNoteStore();
  return createToolbox({
    notes,
    runJavascript: { timeoutMs: settings.toolTimeoutMs },
    research: {
      systemPrompt: settings.research.systemPrompt,
      fallbackFormat: settings.research.fallbackFormat,
      timeoutMs: settings.research.timeoutMs,
    },
  });
}

/** The tools the model is offered in this conversation. */
export function enabledTools(settings: ConversationSettings): ExecutableTool[] {
  return selectTools(allTools(settings), settings.disabledTools);
}

export function toSpecs(tools: ExecutableTool[]): ToolSpec[] {
  return tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
}
