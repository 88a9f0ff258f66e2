// A tool's result is text the model did not write and we do not control (a web page, a file,
// an error message). Written back into the prompt, it must not be able to close the block it
// sits in, open a tool call, or end the turn: so the `<` of every protocol tag and of every
// control token in it is written as `&lt;`. Other text, including other tags, is left alone.

/** Tags the protocols use to delimit calls and results, and turn markers of common templates. */
const PROTOCOL_TAGS = [
  "tool_response",
  "tool_call",
  "tool_name",
  "tools",
  "think",
  "function",
  "parameter",
  "invoke",
  "start_of_turn",
  "end_of_turn",
  "s",
];

const CONTROL_TOKEN = /<\|/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Any opening or closing tag. */
const ANY_TAG = /<(\/?)(?=[A-Za-z_])/g;

/**
 * Escapes `content` so that it is inert inside a tool-result block. `tags` says which tags:
 * the protocols' own (and `extraTags`), or "all" for a protocol where any tag naming a tool is
 * a call (xml), since the tools of the conversation are not known when a result is rendered.
 */
export function escapeToolResult(content: string, extraTags: readonly string[] | "all" = []): string {
  const withoutTokens = content.replace(CONTROL_TOKEN, "&lt;|");
  if (extraTags === "all") return withoutTokens.replace(ANY_TAG, "&lt;$1");
  const names = [...PROTOCOL_TAGS, ...extraTags].map(escapeRegExp).join("|");
  // `<tag`, `</tag` followed by the end of the name (`>`, `=`, `/`, a blank or the end).
  const tag = new RegExp(`<(/?)(${names})(?=[\\s>=/]|$)`, "g");
  return withoutTokens.replace(tag, "&lt;$1$2");
}
