// The in-browser tools a conversation can offer the model. Tools that hold resources (the
// JavaScript sandbox's worker, the note store) are made once and reused; deep_research is made
// per run from the conversation's research settings.
import type { ExecutableTool, ToolSpec } from "../middleware/types.ts";
import { createCalculatorTool } from "../tools/calculator/calculator-tool.ts";
import { createFetchUrlTool } from "../tools/fetch-url/fetch-url.ts";
import { createRunJavascriptTool } from "../tools/javascript/run-javascript.ts";
import { createNoteTools } from "../tools/notes/note-tools.ts";
import { createDeepResearchTool } from "../tools/research/deep-research.ts";
import { createCurrentTimeTool } from "../tools/time/current-time.ts";
import { createConvertUnitsTool } from "../tools/units/convert-units.ts";
import type { ConversationSettings } from "./conversation.ts";

let shared: ExecutableTool[] | null = null;
const javascriptByTimeout = new Map<number, ExecutableTool>();

function sharedTools(): ExecutableTool[] {
  if (!shared) {
    const notes = createNoteTools();
    shared = [createCalculatorTool(), createCurrentTimeTool(), createConvertUnitsTool(), createFetchUrlTool(), notes.remember, notes.recall] as ExecutableTool[];
  }
  return shared;
}

/** run_javascript is killed after the conversation's tool timeout. */
function javascriptTool(timeoutMs: number): ExecutableTool {
  let tool = javascriptByTimeout.get(timeoutMs);
  if (!tool) {
    tool = createRunJavascriptTool({ timeoutMs }) as ExecutableTool;
    javascriptByTimeout.set(timeoutMs, tool);
  }
  return tool;
}

/** Every tool, for a conversation's settings (enabled or not). */
export function allTools(settings: ConversationSettings): ExecutableTool[] {
  const research = createDeepResearchTool({
    systemPrompt: settings.research.systemPrompt,
    fallbackFormat: settings.research.fallbackFormat,
    timeoutMs: settings.research.timeoutMs,
  }) as ExecutableTool;
  return [...sharedTools(), javascriptTool(settings.toolTimeoutMs), research];
}

/** The tools the model is offered in this conversation. */
export function enabledTools(settings: ConversationSettings): ExecutableTool[] {
  const off = new Set(settings.disabledTools);
  return allTools(settings).filter((tool) => !off.has(tool.name));
}

export function toSpecs(tools: ExecutableTool[]): ToolSpec[] {
  return tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
}
