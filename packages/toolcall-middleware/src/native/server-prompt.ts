// Native tool calling hands the tools to the server's chat template. A template without a tools
// section drops them without a word (llama.cpp renders SmolLM2's ChatML with no tools at all), and
// the model then answers a question about tools it never saw. Where the server says what it
// rendered, this finds which tools' names the prompt does not hold.
import { cutOutsidePair } from "../text/surrogate-pairs.ts";
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

/**
 * What a step keeps of the prompt a server says it rendered. The server writes it, so it can be
 * anything: a 16-million-character answer full of bidi controls was recorded whole, saved, and
 * drawn at every load. 1,000,000 characters is ≈ 250k tokens, more than any window a server
 * renders for; past it the text is cut and the step records how many characters were left out.
 */
export const SERVER_PROMPT_CHARS = 1_000_000;

export type ServerPrompt = { text: string; cutChars?: number } | { error: string };

/** `text` kept within `limit` characters (never inside a surrogate pair), with the count left out. */
export function boundServerPrompt(text: string, limit = SERVER_PROMPT_CHARS): { text: string; cutChars?: number } {
  if (text.length <= limit) return { text };
  const end = cutOutsidePair(text, limit);
  return { text: text.slice(0, end), cutChars: text.length - end };
}

/**
 * A recorded server prompt within the bound: an older log, or an import, may carry one longer
 * (a cut one stays as it is; one cut again adds what it leaves out).
 */
export function boundRecordedServerPrompt(serverPrompt: ServerPrompt, limit = SERVER_PROMPT_CHARS): ServerPrompt {
  if ("error" in serverPrompt || serverPrompt.text.length <= limit) return serverPrompt;
  const bounded = boundServerPrompt(serverPrompt.text, limit);
  return { text: bounded.text, cutChars: (bounded.cutChars ?? 0) + (serverPrompt.cutChars ?? 0) };
}

/** Asks the server for the prompt it renders from `request`; a failure is recorded, not thrown. The text is kept within SERVER_PROMPT_CHARS. */
export async function askServerPrompt(native: NativeToolCalling, request: Record<string, unknown>, signal: AbortSignal, limit = SERVER_PROMPT_CHARS): Promise<ServerPrompt | undefined> {
  if (!native.renderPrompt) return undefined;
  try {
    return boundServerPrompt(await native.renderPrompt(request, signal), limit);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
