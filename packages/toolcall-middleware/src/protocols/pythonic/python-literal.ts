// A value as a Python literal, with markers in strings broken: the pythonic protocol writes calls
// with it, and a family that writes pythonic calls in its own template (LFM2.5) uses it without
// loading the protocol and its parser.
import { protectPythonString } from "../protect-markers.ts";

/** A value as a Python literal. */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "None";
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const body = value
      .replace(/\\/g, "\\\\")
      .replace(quote === "'" ? /'/g : /"/g, `\\${quote}`)
      .replace(/\n/g, "\\n")
      .replace(/\r/g, "\\r")
      .replace(/\t/g, "\\t");
    // A marker inside the string is broken (`\x3c`), so the history cannot show a forged call.
    return `${quote}${protectPythonString(body)}${quote}`;
  }
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pythonLiteral(k)}: ${pythonLiteral(v)}`)
      .join(", ")}}`;
  }
  return pythonLiteral(String(value));
}
