// What a model trained on a template writes for an assistant turn: the template's own rendering
// of that turn, from the end of the generation prompt to the end of the turn. Tests read such
// outputs back with the derived protocol; the page shows one as the format's example.
import { assistantMessage, differingPart, widenToTokens, PROBE_TEXT, probeVariables, type ProbeCall, type TemplateRenderer } from "./probes.ts";

/** The turn `content` + `calls` as the template writes it after its generation prompt, its end-of-turn text removed. */
export function templateAssistantOutput(render: TemplateRenderer, content: string, calls: readonly ProbeCall[], tools?: unknown[]): string {
  const withTools = (variables: Record<string, unknown>) => (tools ? { ...variables, tools } : variables);
  const prompt = render(withTools(probeVariables(undefined, { addGenerationPrompt: true })));
  const full = render(withTools(probeVariables(assistantMessage(content, calls))));
  const plain = render(withTools(probeVariables(assistantMessage(PROBE_TEXT, []))));
  // The turn's end: what the template writes after a plain reply.
  const at = plain.lastIndexOf(PROBE_TEXT);
  const turnEnd = at >= 0 ? plain.slice(at + PROBE_TEXT.length) : "";
  const start = full.startsWith(prompt) ? prompt.length : widenToTokens(full, differingPart(prompt, full).start, full.length).start;
  let output = full.slice(start);
  if (turnEnd.trim() !== "" && output.endsWith(turnEnd)) output = output.slice(0, output.length - turnEnd.length);
  else if (turnEnd.trim() !== "" && output.trimEnd().endsWith(turnEnd.trim())) output = output.trimEnd().slice(0, output.trimEnd().length - turnEnd.trim().length);
  // A turn with calls may end with the turn's last token alone (`<|END_OF_TURN_TOKEN|>` without the reply's own end before it).
  const lastToken = /<[^<>]+>$/.exec(turnEnd.trim())?.[0];
  if (lastToken && output.trimEnd().endsWith(lastToken)) output = output.trimEnd().slice(0, output.trimEnd().length - lastToken.length);
  return output;
}
