// What the debugger needs from the protocol registry and the templates: a protocol's tool
// section (to find and fold it in the prompt, and to show tools as the model saw them) and a
// template's control tokens (to draw them as chips).
import { chatmlTemplate } from "../../middleware/templates/chatml.ts";
import type { ToolSpec } from "../../middleware/types.ts";

const TEMPLATE_CONTROL_TOKENS: Record<string, readonly string[]> = {
  [chatmlTemplate.name]: chatmlTemplate.controlTokens,
};

export function controlTokensOf(templateName: string): readonly string[] {
  return TEMPLATE_CONTROL_TOKENS[templateName] ?? [];
}

/** The protocol's tool section for these tools, or an explanation of why there is none. */
export function toolSectionOf(_protocol: string, _tools: ToolSpec[]): { text: string } | { error: string } {
  return { error: "The protocol registry is not available yet." };
}

export type ToolShape = { id: string; label: string } & ({ text: string } | { error: string });

/** The tools in the request shapes of the big APIs, as JSON text. */
export function toolShapesOf(_tools: ToolSpec[]): ToolShape[] {
  return [
    { id: "openai", label: "OpenAI", error: "The converters are not available yet." },
    { id: "anthropic", label: "Anthropic", error: "The converters are not available yet." },
    { id: "gemini", label: "Gemini", error: "The converters are not available yet." },
  ];
}
