// Chooses how to read a call body by its first character: JSON (`{`, `[`, a ``` fence) or
// markup (`<`). Every protocol reads both, so a model that drifts into another protocol's
// format inside the right tags still gets its call through.
import type { ToolSpec } from "../types.ts";
import type { BodyReading } from "./call-candidate.ts";
import { readJsonCallBody } from "./json-call.ts";
import { readMarkupCallBody } from "./markup-call.ts";

export function readCallBody(body: string, tools: readonly ToolSpec[], knownName?: string): BodyReading {
  const first = firstNonBlank(body);
  if (first === "<") return readMarkupCallBody(body, tools, knownName);
  if (first === "{" || first === "[" || first === "`") return readJsonCallBody(body, knownName);
  if (first === "" && knownName !== undefined) {
    return { ok: true, outcomes: [{ ok: true, call: { name: knownName, arguments: {}, repairs: [] } }], repairs: [], complete: true };
  }
  if (first === "") return { ok: false, kind: "missing-tool-name", message: "the call is empty" };
  return { ok: false, kind: "invalid-json", message: "the call is neither a JSON object nor tags" };
}

export function firstNonBlank(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return text[i]!;
  }
  return "";
}
