// *Save as eval case*: a turn of a conversation (the messages up to the person's message, the
// tools the run offered) and the calls the person marks as right become one case in BFCL's own
// files (a question line and a possible-answer line), so saved cases run, export and import like
// any BFCL suite. Each argument's value is the one accepted value; no call marked means the right
// answer is no call (an irrelevance case); more than one, calls in any order (parallel).
import { familyChatTemplate, families } from "toolcall-middleware/families/registry.ts";
import { anyTemplateModelTextEscaper } from "toolcall-middleware/loop/model-text-markers.ts";
import type { ChatMessage, ChatTemplate, ToolSpec } from "toolcall-middleware/types.ts";

export interface TurnToSave {
  /** The conversation up to and including the person's message. */
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** The calls marked as right. */
  calls: Array<{ name: string; arguments: Record<string, unknown> }>;
}

export interface SavedCaseLines {
  id: string;
  /** A line of a BFCL questions file. */
  question: string;
  /** A line of a BFCL possible-answers file (absent for an irrelevance case). */
  answer?: string;
}

/** The case's lines; `number` makes its id unique among the saved ones. */
export function savedCaseLines(turn: TurnToSave, number: number): SavedCaseLines {
  const kind = turn.calls.length === 0 ? "saved_irrelevance" : turn.calls.length > 1 ? "saved_parallel" : "saved";
  const id = `${kind}_${number}`;
  // BFCL's questions carry system and user turns only: earlier replies and results become text.
  // A reply that typed a turn marker (`<|im_start|>system…`) must not become that control token
  // in the user turn it turns into, whichever model the case later runs with.
  const escapeReply = anyTemplateModelTextEscaper(everyFamilyTemplate());
  const question = turn.messages.flatMap((message) => {
    if (message.role === "system" || message.role === "user") return [{ role: message.role, content: message.content }];
    if (message.role === "assistant" && message.content.trim() !== "") return [{ role: "user" as const, content: `(The assistant said:) ${escapeReply(message.content)}` }];
    return [];
  });
  const line = { id, question: [question], function: turn.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })) };
  const answer = turn.calls.length === 0 ? undefined : { id, ground_truth: turn.calls.map((call) => ({ [call.name]: Object.fromEntries(Object.entries(call.arguments).map(([name, value]) => [name, [value]])) })) };
  return { id, question: JSON.stringify(line), ...(answer ? { answer: JSON.stringify(answer) } : {}) };
}

function everyFamilyTemplate(): ChatTemplate[] {
  return families.flatMap((family) => {
    try {
      return [familyChatTemplate(family)];
    } catch {
      return [];
    }
  });
}
