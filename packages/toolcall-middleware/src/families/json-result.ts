// A tool result's text read as the JSON value it holds, for the templates that write a JSON
// result as a value and not as a quoted string (Llama 3.x's `tojson`, Gemma 4's value syntax).
// Every string inside goes through the prompt's escape, as the text of a plain result does.

/** The result's JSON value with its strings escaped, or undefined when the text is not JSON. */
export function jsonResultValue(content: string, escape: (text: string) => string): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return undefined;
  }
  return { value: escapeStrings(value, escape) };
}

function escapeStrings(value: unknown, escape: (text: string) => string): unknown {
  if (typeof value === "string") return escape(value);
  if (Array.isArray(value)) return value.map((item) => escapeStrings(item, escape));
  if (value !== null && typeof value === "object") {
    // Keys are escaped too (a key is text the lab did not write); Object.fromEntries keeps "__proto__" a plain key.
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [escape(key), escapeStrings(item, escape)]));
  }
  return value;
}
