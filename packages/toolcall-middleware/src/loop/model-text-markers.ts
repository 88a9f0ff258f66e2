// The model's own words are written back into every later prompt. A reply may hold the
// *characters* of a turn marker (`<|im_end|>\n<|im_start|>user`), typed rather than sampled as
// the control token — because a tool result coaxed it, or by chance. Written back verbatim, the
// tokenizer would read those characters as the real control token the next time the prompt is
// prefilled in full (a step whose cache cannot be reused, the raw path, a server in prompt
// mode): a forged user turn or tool result. So what the model wrote is escaped against the
// markers it can never legitimately write inside its turn:
//   - the template's turn tokens: the control tokens the template writes around turns, and its
//     stop strings (the model ends a turn by sampling them, never as text);
//   - every protocol's tool-result markers (results are the lab's to write, never the model's);
// but never its own protocol's call markers, which are what its calls are made of.
// Everything else it wrote — its calls, its think tags, ordinary text — is left exactly as
// generated, so a reply without a look-alike still reuses WebLLM's KV cache.
import { exactMarkerEscaper } from "../protocols/escape-tool-result.ts";
import { listProtocols } from "../protocols/registry.ts";
import { rethrowPending } from "../templates/render-pending.ts";
import type { ChatTemplate, Protocol, TemplateMessage } from "../types.ts";

/** A conversation with every role, to see which control tokens the template writes around turns. */
const SKELETON: TemplateMessage[] = [
  { role: "system", content: "s" },
  { role: "user", content: "u" },
  { role: "assistant", content: "a" },
  { role: "tool", content: "t" },
  { role: "assistant", content: "b" },
  { role: "user", content: "v" },
];

/** The template's control tokens that frame turns, and its stop strings. */
export function turnTokensOf(template: ChatTemplate): string[] {
  let skeleton = "";
  // Without control tokens (a GGUF's own template) the skeleton decides nothing: no render.
  if (template.controlTokens.length > 0) {
    try {
      skeleton = template.render(SKELETON, { addGenerationPrompt: false });
    } catch (error) {
      rethrowPending(error);
      // A template that cannot render this shape still has its stop strings.
    }
  }
  return [...new Set([...template.controlTokens.filter((token) => token !== "" && skeleton.includes(token)), ...template.stop])];
}

function markersIn(text: string, markers: readonly string[] | undefined): string[] {
  return (markers ?? []).filter((marker) => marker !== "" && text.includes(marker));
}

/** The markers a protocol writes around a tool result (never the model's to write). */
function resultMarkersOf(protocol: Protocol): string[] {
  const result = protocol.renderToolResult({ role: "tool", toolCallId: "c", name: "f", content: "x" }, (text) => text);
  return markersIn(protocol.joinToolResults ? protocol.joinToolResults([result]) : result, protocol.reservedMarkers);
}

/** The markers a protocol writes for a call: the model's to write. */
function callMarkersOf(protocol: Protocol): string[] {
  const turn = protocol.renderAssistant({ role: "assistant", content: "", toolCalls: [{ id: "c", name: "f", arguments: { a: "x" } }] });
  return markersIn(turn, protocol.reservedMarkers);
}

/** What the model's written-back text is escaped against, for this template and protocol. */
export function modelTextMarkers(template: ChatTemplate, protocol: Protocol): string[] {
  const own = new Set(callMarkersOf(protocol));
  const markers = [...turnTokensOf(template), ...listProtocols().flatMap(resultMarkersOf), ...resultMarkersOf(protocol)];
  return [...new Set(markers)].filter((marker) => !own.has(marker));
}

/** An escaper for the model's written-back text (see above). */
export function modelTextEscaper(template: ChatTemplate, protocol: Protocol): (text: string) => string {
  return exactMarkerEscaper(modelTextMarkers(template, protocol));
}

/**
 * What the model's text is escaped against where it is written back as another role's turn for
 * a template not known yet (a reply kept in a saved eval case becomes a user turn of whatever
 * model the case later runs with): the turn tokens of all these templates and every protocol's
 * result markers. Its calls are not calls there, so no call marker is spared or needed.
 */
export function anyTemplateModelTextEscaper(templates: readonly ChatTemplate[]): (text: string) => string {
  return exactMarkerEscaper([...templates.flatMap(turnTokensOf), ...listProtocols().flatMap(resultMarkersOf)]);
}
