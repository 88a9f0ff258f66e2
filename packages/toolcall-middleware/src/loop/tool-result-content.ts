// What the model is given back for a tool's return value: strings as they are, anything else as
// JSON; values JSON cannot represent are described rather than lost. Every result is bounded: a
// tool (or code the model wrote) can return megabytes, which would fill the prompt, the event
// log and every save of the conversation.
import { cutOutsidePair } from "../text/surrogate-pairs.ts";

/** The most characters of one tool's result (or error) that the model, the log and the saves get. */
export const MAX_TOOL_RESULT_CHARS = 40_000;

export interface ToolResultContent {
  content: string;
  /** The value for the event log, when it survives JSON (the log is stored and exported) and was not cut. */
  loggable?: unknown;
}

export function toolResultContent(result: unknown, maxChars = MAX_TOOL_RESULT_CHARS): ToolResultContent {
  const whole = wholeContent(result);
  if (whole.content.length <= maxChars) return whole;
  // Cut: the log keeps the same cut text the model got, never the whole value.
  return { content: cutWithNote(whole.content, maxChars, "result") };
}

function wholeContent(result: unknown): ToolResultContent {
  if (typeof result === "string") return { content: result, loggable: result };
  if (result === undefined) return { content: "(the tool returned no result)" };
  try {
    const json = JSON.stringify(result);
    if (json === undefined) return { content: String(result) };
    return { content: json, loggable: JSON.parse(json) as unknown };
  } catch (error) {
    return { content: `(the tool returned a value that is not JSON: ${describeError(error)})` };
  }
}

/**
 * `text` cut to `maxChars` (never inside a surrogate pair) with a note the model and the person
 * both see; `text` itself when it fits.
 */
export function cutWithNote(text: string, maxChars = MAX_TOOL_RESULT_CHARS, what = "text"): string {
  if (text.length <= maxChars) return text;
  const end = cutOutsidePair(text, maxChars);
  return `${text.slice(0, end)}\n… [cut at ${end} characters: the ${what} had ${text.length}]`;
}

/** A readable one-line description of anything thrown; never throws itself. */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) {
      const text = error.message ? `${error.name}: ${error.message}` : error.name;
      // Engine failures say what to do about them; that advice belongs in the step's error text.
      const suggestion = (error as { suggestion?: unknown }).suggestion;
      return typeof suggestion === "string" && suggestion !== "" && !text.includes(suggestion) ? `${text} ${suggestion}` : text;
    }
    if (typeof error === "string") return error;
    try {
      return JSON.stringify(error) ?? String(error);
    } catch {
      return String(error);
    }
  } catch {
    return "a value that cannot be read (touching it throws)";
  }
}
