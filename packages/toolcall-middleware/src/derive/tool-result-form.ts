// How a chat template writes a tool's result back: a conversation with a call is rendered with
// and without the result (a tool message), and with the same text as a user message. Where the
// result sits inside a user turn of the template's own (Qwen's `<tool_response>` in a user turn),
// the text around it inside that turn is the result's form, and the protocol writes it so; where
// the template has a turn of its own for results (Llama's `ipython`), results go to that turn
// and the template writes it.
import { ALPHA_CALL, assistantMessage, commonPrefixLength, PROBE_USER, type TemplateRenderer, widenToTokens } from "./probes.ts";

export const PROBE_RESULT = "PROBE_RESULT_TEXT";

/** A user turn's opening names its role ("user", "User", "human"); a tool turn's does not. */
const USER_ROLE = /user|human/i;

export type ToolResultForm =
  /** The result sits in a user turn, between `open` and `close` (both may be ""). */
  | { role: "user"; open: string; close: string }
  /** The template writes results in a turn of their own (the tool role); `turnOpen` is that turn's start, for the reader. */
  | { role: "tool"; turnOpen: string };

function renderOrUndefined(render: TemplateRenderer, messages: Record<string, unknown>[]): string | undefined {
  try {
    return render({ messages, add_generation_prompt: false, bos_token: "", eos_token: "" });
  } catch {
    return undefined;
  }
}

/**
 * The tool result's form in the template, or undefined when the template does not write results
 * (or will not render them). What a tool result adds to a conversation with a call is set against
 * how the template writes a user turn of the same text: when it opens and ends like that user
 * turn, the rest is the result's own wrapper.
 */
export function deriveToolResultForm(render: TemplateRenderer): ToolResultForm | undefined {
  const user = { role: "user", content: PROBE_USER };
  const call = assistantMessage("", [ALPHA_CALL]);
  const callId = ((call.tool_calls as { id: string }[])[0] ?? { id: "" }).id;
  const base = renderOrUndefined(render, [user, call]);
  const asTool = renderOrUndefined(render, [user, call, { role: "tool", tool_call_id: callId, name: ALPHA_CALL.name, content: PROBE_RESULT }]);
  if (base === undefined || asTool === undefined) return undefined;
  const at = asTool.lastIndexOf(PROBE_RESULT);
  if (at < 0) return undefined;
  // Where the result's turn begins: after what the conversation without it already had (its end-of-conversation text aside).
  const start = widenToTokens(asTool, Math.min(commonPrefixLength(base, asTool), at), at).start;
  const before = asTool.slice(start, at);
  const after = asTool.slice(at + PROBE_RESULT.length);
  const alone = renderOrUndefined(render, [{ role: "user", content: PROBE_RESULT }]);
  const aloneAt = alone?.indexOf(PROBE_RESULT) ?? -1;
  if (alone !== undefined && aloneAt >= 0) {
    const userBefore = alone.slice(0, aloneAt);
    const userAfter = alone.slice(aloneAt + PROBE_RESULT.length);
    // The longest opening of a user turn (one that names the user) in the result's text, and the longest end of one it ends with.
    let openEnd = -1;
    for (let i = 0; i < userBefore.length && openEnd < 0; i++) {
      const opening = userBefore.slice(i);
      const found = before.lastIndexOf(opening);
      if (found >= 0 && USER_ROLE.test(opening)) openEnd = found + opening.length;
    }
    let close = "";
    for (let i = userAfter.length; i > 0; i--) {
      if (after.endsWith(userAfter.slice(0, i))) {
        close = userAfter.slice(0, i);
        break;
      }
    }
    if (openEnd >= 0) return { role: "user", open: before.slice(openEnd), close: after.slice(0, after.length - close.length) };
  }
  return { role: "tool", turnOpen: before };
}
