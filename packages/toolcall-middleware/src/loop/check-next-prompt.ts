// Before a message is sent: will the prompt it makes fit the model's context window? Counted
// with the engine's own tokenizer, like the loop's budget; where the prompt does not fit (or
// leaves almost no room for a reply), it says what the tool section and the history cost, so
// the person knows what to cut. Nothing is estimated: an engine that cannot count gives no check.
import type { ChatMessage, ChatTemplate, Engine, Protocol, ToolSpec } from "../types.ts";
import { renderPrompt } from "./render-conversation.ts";
import { settleRender } from "../templates/render-pending.ts";

export interface NextPromptInput {
  engine: Engine;
  template: ChatTemplate;
  protocol: Protocol;
  tools: ToolSpec[];
  /** The conversation so far, the draft message last. */
  messages: ChatMessage[];
  systemPrompt?: string;
}

/** Below this many tokens of room a reply is cut almost at once. */
export const TIGHT_ROOM_TOKENS = 256;

export type NextPromptCheck =
  | { kind: "unknown" }
  | { kind: "fits"; promptTokens: number; contextWindow: number }
  | {
      kind: "no-room" | "tight";
      promptTokens: number;
      contextWindow: number;
      /** What the tool section costs (0 without tools). */
      toolTokens: number;
      /** What the messages before the draft cost. */
      historyTokens: number;
    };

/** The prompt, awaited where the template renders in a worker. */
function render(input: NextPromptInput, tools: ToolSpec[], messages: ChatMessage[], signal: AbortSignal | undefined): Promise<string> {
  return settleRender(() => renderPrompt({ ...(input.systemPrompt !== undefined ? { systemPrompt: input.systemPrompt } : {}), tools, protocol: input.protocol, messages, template: input.template }).prompt, signal);
}

export async function checkNextPrompt(input: NextPromptInput, signal?: AbortSignal): Promise<NextPromptCheck> {
  const { engine } = input;
  const contextWindow = engine.contextWindowSize;
  const count = engine.countPromptTokens;
  if (contextWindow === undefined || !count) return { kind: "unknown" };
  const promptTokens = await count(await render(input, input.tools, input.messages, signal), signal);
  const room = contextWindow - promptTokens;
  if (room >= TIGHT_ROOM_TOKENS) return { kind: "fits", promptTokens, contextWindow };
  const draftOnly = input.messages.slice(-1);
  const [withoutTools, withoutHistory] = await Promise.all([
    input.tools.length > 0 ? render(input, [], input.messages, signal).then((prompt) => count(prompt, signal)) : Promise.resolve(promptTokens),
    input.messages.length > 1 ? render(input, input.tools, draftOnly, signal).then((prompt) => count(prompt, signal)) : Promise.resolve(promptTokens),
  ]);
  return { kind: room <= 0 ? "no-room" : "tight", promptTokens, contextWindow, toolTokens: promptTokens - withoutTools, historyTokens: promptTokens - withoutHistory };
}

/** What to do about a prompt that does not fit, most effective first. */
export function adviceFor(check: Extract<NextPromptCheck, { kind: "no-room" | "tight" }>, toolCount: number): string[] {
  const n = (value: number) => value.toLocaleString("en-US");
  const advice: { tokens: number; text: string }[] = [];
  if (toolCount > 0) advice.push({ tokens: check.toolTokens, text: `Turn off tools you do not need: the ${toolCount} tool definitions cost ${n(check.toolTokens)} tokens.` });
  if (check.historyTokens > 0) advice.push({ tokens: check.historyTokens, text: `Start a new conversation or shorten this one: the earlier messages cost ${n(check.historyTokens)} tokens.` });
  advice.sort((a, b) => b.tokens - a.tokens);
  return [...advice.map((a) => a.text), `Load a model with a larger context window (this one holds ${n(check.contextWindow)} tokens).`];
}
