// What the model is given back for a tool's return value: strings as they are, anything else as
// JSON; values JSON cannot represent are described rather than lost.

export interface ToolResultContent {
  content: string;
  /** The value for the event log, when it survives JSON (the log is stored and exported). */
  loggable?: unknown;
}

export function toolResultContent(result: unknown): ToolResultContent {
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

/** A readable one-line description of anything thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const text = error.message ? `${error.name}: ${error.message}` : error.name;
    // Engine failures say what to do about them; that advice belongs in the step's error text.
    const suggestion = (error as { suggestion?: unknown }).suggestion;
    return typeof suggestion === "string" && suggestion !== "" ? `${text} ${suggestion}` : text;
  }
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
