// The playground's parse, with one more protocol choice: the format derived from a pasted chat
// template. The template runs only in the bounded Jinja renderer; one that cannot be derived
// from leaves its reason on the result, and the page stays as it was.
import { describeDerivedFormat } from "toolcall-middleware/derive/describe-format.ts";
import { runPlayground, TEMPLATE_PROTOCOL, type PlaygroundInput, type PlaygroundResult } from "../../experiments/playground-parse.ts";
import { deriveFromTemplate } from "../../engine/templates/derived-from-template.ts";

export function runPlaygroundInput(input: PlaygroundInput): PlaygroundResult {
  if (input.protocol !== TEMPLATE_PROTOCOL) return runPlayground(input);
  const source = input.template ?? "";
  const derived = deriveFromTemplate(source, "pasted-template");
  if (!derived.ok) {
    const empty = { text: "", reasoning: "", calls: [], errors: [], repairs: [] };
    return { protocol: TEMPLATE_PROTOCOL, events: [], eventCount: 0, result: empty, chunkCount: 0, agrees: true, ms: 0, derivation: { ok: false, lines: [derived.reason] } };
  }
  return { ...runPlayground(input, undefined, derived.protocol), derivation: { ok: true, lines: describeDerivedFormat(derived.format) } };
}
