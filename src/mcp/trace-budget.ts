// What one tool call's trace may keep in the event log (which is saved and exported): the
// JSON-RPC messages as they were, until they add up to MAX_TRACE_CHARS; past that, long strings
// are cut and then whole messages replaced by a note saying what was left out — as tool results
// are cut at 40,000 characters for the model. A server answering fifty 390k-character blocks
// must not make a 20 MB log.

/** Characters of JSON one call's trace keeps. */
export const MAX_TRACE_CHARS = 200_000;
/** Past the budget, each string is cut to this many characters. */
const CUT_STRING_CHARS = 1_000;

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

function cutStrings(value: unknown): unknown {
  if (typeof value === "string") {
    return value.length > CUT_STRING_CHARS ? `${value.slice(0, CUT_STRING_CHARS)}… (cut: ${value.length - CUT_STRING_CHARS} more characters not kept in the log)` : value;
  }
  if (Array.isArray(value)) return value.map(cutStrings);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutStrings(item)]));
  return value;
}

function field(message: unknown, key: string): unknown {
  return typeof message === "object" && message !== null ? (message as Record<string, unknown>)[key] : undefined;
}

/** Keeps a call's messages within MAX_TRACE_CHARS, cutting with a visible note past it. */
export class TraceBudget {
  private left: number;

  constructor(limit = MAX_TRACE_CHARS) {
    this.left = limit;
  }

  keep(message: unknown): unknown {
    const size = jsonLength(message);
    if (size <= this.left) {
      this.left -= size;
      return message;
    }
    const cut = cutStrings(message);
    const cutSize = jsonLength(cut);
    if (cutSize <= this.left) {
      this.left -= cutSize;
      return cut;
    }
    this.left = 0;
    const method = field(message, "method");
    const id = field(message, "id");
    return {
      ...(typeof method === "string" ? { method } : {}),
      ...(id !== undefined ? { id } : {}),
      note: `This message (${size.toLocaleString("en-US")} characters of JSON) was not kept in the log: this call's messages passed ${MAX_TRACE_CHARS.toLocaleString("en-US")} characters.`,
    };
  }
}
