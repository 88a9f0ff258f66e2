// The one-click CPU model starts with the tools its suggested message needs. A 135M-parameter
// model in the page reads every offered tool's definition before each message: all the built-in
// tools are ≈ 1,200–1,400 tokens, a minute or two of reading on a 2-core CPU, and a model that
// small does no better with more tools to choose from. Every tool stays one click away.
import type { Conversations } from "./conversation-store.ts";
import type { ToolCatalog } from "./tool-catalog.ts";

/** The tools the suggested message ("What is 17 * 23?") needs. */
export const SMALL_MODEL_TOOLS: readonly string[] = ["calculator"];
export const SMALL_MODEL_SUGGESTION = "What is 17 * 23?";

/** In a conversation nothing was said in yet, offers only SMALL_MODEL_TOOLS (a conversation with history keeps its tools). */
export function startWithFewTools(stores: { conversations: Pick<Conversations, "store" | "conversationActions">; tools: Pick<ToolCatalog, "allTools"> }): void {
  const active = stores.conversations.store.getState().active;
  if (!active || active.events.length > 0) return;
  const others = stores.tools.allTools(active.settings).map((t) => t.name).filter((name) => !SMALL_MODEL_TOOLS.includes(name));
  stores.conversations.conversationActions.updateSettings({ disabledTools: others });
}

/** Whether the conversation offers only the small model's tools (the chat then says so, with a way back to all). */
export function offersOnlySmallModelTools(disabledTools: readonly string[], allToolNames: readonly string[]): boolean {
  const disabled = new Set(disabledTools);
  const on = allToolNames.filter((name) => !disabled.has(name));
  return on.length > 0 && on.length < allToolNames.length && on.every((name) => SMALL_MODEL_TOOLS.includes(name));
}
