// Native tool calling hands the tools to the server's chat template. A template without a tools
// section drops them without a word (llama.cpp renders SmolLM2's ChatML with no tools at all), and
// the model then answers a question about tools it never saw. Where the server says what it
// rendered, this finds which tools' names the prompt does not hold.
import type { NativeToolCalling } from "../types.ts";

/** The names of the request's tools (OpenAI's `tools: [{ type: "function", function: { name } }]`). */
export function requestToolNames(request: Record<string, unknown>): string[] {
  const tools = request.tools;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) => {
    const name = (tool as { function?: { name?: unknown } } | null)?.function?.name;
    return typeof name === "string" ? [name] : [];
  });
}

/** The texts of the request's messages (a string content, or the text parts of one). */
export function requestMessageTexts(request: Record<string, unknown>): string[] {
  const messages = request.messages;
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message: unknown) => {
    const content = (message as { content?: unknown } | null)?.content;
    if (typeof content === "string") return [content];
    if (!Array.isArray(content)) return [];
    return content.flatMap((part: unknown) => {
      const text = (part as { text?: unknown } | null)?.text;
      return typeof text === "string" ? [text] : [];
    });
  });
}

/**
 * The tools whose names do not occur in the prompt the server rendered, outside the
 * conversation's own words: a user who writes "use the calculator" does not put the calculator
 * tool in the prompt.
 */
export function toolsLeftOut(prompt: string, toolNames: readonly string[], messageTexts: readonly string[] = []): string[] {
  let rest = prompt;
  for (const text of [...messageTexts].sort((a, b) => b.length - a.length)) if (text !== "") rest = rest.split(text).join("\u0000");
  return toolNames.filter((name) => !rest.includes(name));
}

/** Asks the server for the prompt it renders from `request`; a failure is recorded, not thrown. */
export async function askServerPrompt(native: NativeToolCalling, request: Record<string, unknown>, signal: AbortSignal): Promise<{ text: string } | { error: string } | undefined> {
  if (!native.renderPrompt) return undefined;
  try {
    return { text: await native.renderPrompt(request, signal) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
