// The lab's in-browser tools. Their names and parameters are a contract: tests, saved
// transcripts and users' prompts rely on them.
import type { ExecutableTool } from "toolcall-middleware/types.ts";
import { createCalculatorTool } from "./calculator/calculator-tool.ts";
import { createFetchUrlTool, type FetchUrlOptions } from "./fetch-url/fetch-url.ts";
import { createRunJavascriptTool, type RunJavascriptOptions } from "./javascript/run-javascript.ts";
import type { NoteStore } from "./notes/note-store.ts";
import { createNoteTools } from "./notes/note-tools.ts";
import { createDeepResearchTool, type DeepResearchDependencies, type DeepResearchSettings } from "./research/deep-research.ts";
import { createCurrentTimeTool, type CurrentTimeOptions } from "./time/current-time.ts";
import { createConvertUnitsTool } from "./units/convert-units.ts";

export { CalculatorError } from "./calculator/calculator-functions.ts";
export { createCalculatorTool } from "./calculator/calculator-tool.ts";
export { createCurrentTimeTool, timeInZone, TimeZoneError } from "./time/current-time.ts";
export { createConvertUnitsTool, UnitConversionError } from "./units/convert-units.ts";
export { createRunJavascriptTool, DEFAULT_JAVASCRIPT_TIMEOUT_MS } from "./javascript/run-javascript.ts";
export { JavascriptError, JavascriptTimeoutError } from "./javascript/sandbox-host.ts";
export { createFetchUrlTool, FetchUrlError } from "./fetch-url/fetch-url.ts";
export { createNoteTools } from "./notes/note-tools.ts";
export { createIndexedDbNoteStore, NoteStoreError, type NoteStore } from "./notes/note-store.ts";
export {
  createDeepResearchTool,
  DEEP_RESEARCH_SAFE_ERROR,
  DEFAULT_RESEARCH_TIMEOUT_MS,
  type DeepResearchSettings,
} from "./research/deep-research.ts";
export { DELIVERABLE_FORMATS, type DeliverableFormat } from "./research/deliverable.ts";

/** Every tool's name, in the order the toolbox lists them. */
export const TOOL_NAMES = [
  "calculator",
  "get_current_time",
  "convert_units",
  "run_javascript",
  "fetch_url",
  "remember",
  "recall",
  "deep_research",
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolboxOptions {
  currentTime?: CurrentTimeOptions;
  runJavascript?: RunJavascriptOptions;
  fetchUrl?: FetchUrlOptions;
  /** The note store of remember/recall; IndexedDB by default. */
  notes?: NoteStore;
  research?: DeepResearchSettings;
  researchDependencies?: DeepResearchDependencies;
}

/** A fresh set of all the tools, in TOOL_NAMES order. */
export function createToolbox(options: ToolboxOptions = {}): ExecutableTool[] {
  const notes = createNoteTools(options.notes);
  return [
    createCalculatorTool(),
    createCurrentTimeTool(options.currentTime),
    createConvertUnitsTool(),
    createRunJavascriptTool(options.runJavascript),
    createFetchUrlTool(options.fetchUrl),
    notes.remember,
    notes.recall,
    createDeepResearchTool(options.research, options.researchDependencies),
  ];
}

/** The tools a conversation offers: all but those switched off (unknown names are ignored). */
export function selectTools(tools: ExecutableTool[], disabled: Iterable<string>): ExecutableTool[] {
  const off = new Set(disabled);
  return tools.filter((tool) => !off.has(tool.name));
}
