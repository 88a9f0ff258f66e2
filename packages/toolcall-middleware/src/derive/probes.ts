// The probe conversations a chat template is rendered with to learn its tool-call format, and
// the text pieces compared between renderings. The template itself is run by the caller's
// renderer (the page's and the command line's is the bounded Jinja renderer): the middleware
// never executes a template on its own, it only reads what the renderer gave back.

/** Renders a chat template with these variables (messages, tools, add_generation_prompt, …); throws when it will not. */
export type TemplateRenderer = (variables: Record<string, unknown>) => string;

/** The probe tools: names and values that appear nowhere in a template, so each can be found in its output. */
export const PROBE_TOOLS = [
  {
    type: "function",
    function: {
      name: "probe_alpha",
      description: "First probe tool.",
      parameters: { type: "object", properties: { first_arg: { type: "string", description: "A text." }, second_arg: { type: "string", description: "Another text." } }, required: ["first_arg"] },
    },
  },
  {
    type: "function",
    function: {
      name: "probe_beta",
      description: "Second probe tool.",
      parameters: {
        type: "object",
        properties: {
          count_arg: { type: "integer", description: "A number." },
          flag_arg: { type: "boolean", description: "A flag." },
          list_arg: { type: "array", description: "A list." },
          object_arg: { type: "object", description: "An object." },
        },
      },
    },
  },
] as const;

export const PROBE_USER = "PROBE_USER_MESSAGE";
export const PROBE_TEXT = "PROBE_REPLY_TEXT";
export const PROBE_REASONING = "PROBE_REASONING_TEXT";

/** One call's arguments of string values (the first call), and of every other JSON type (the second). */
export const ALPHA_ARGS = { first_arg: "VALUE_ONE", second_arg: "VALUE_TWO" };
export const BETA_ARGS = { count_arg: 42, flag_arg: true, list_arg: [1, "x"], object_arg: { inner_key: "inner" } };

export interface ProbeCall {
  name: string;
  arguments: Record<string, unknown>;
}

export const ALPHA_CALL: ProbeCall = { name: "probe_alpha", arguments: ALPHA_ARGS };
export const BETA_CALL: ProbeCall = { name: "probe_beta", arguments: BETA_ARGS };

/**
 * Call ids of nine alphanumeric characters (Mistral's templates refuse any other), the index
 * last so that two calls' ids differ in one character only.
 */
export function probeId(index: number): string {
  return `${PROBE_ID_PREFIX}${index}`;
}

/** The probe ids' fixed part: where it shows in a derived format, the template writes the call's id there. */
export const PROBE_ID_PREFIX = "call0000";

/** An assistant message as templates read it (OpenAI's shape, arguments as an object). */
export function assistantMessage(content: string, calls: readonly ProbeCall[], reasoning?: string): Record<string, unknown> {
  return {
    role: "assistant",
    content,
    ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
    ...(calls.length > 0
      ? { tool_calls: calls.map((call, index) => ({ id: probeId(index), type: "function", function: { name: call.name, arguments: call.arguments } })) }
      : {}),
  };
}

/** The variables of one render: the user's probe message, then `assistant`, tools offered. */
export function probeVariables(assistant: Record<string, unknown> | undefined, options: { tools?: boolean; addGenerationPrompt?: boolean; system?: string } = {}): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [];
  if (options.system !== undefined) messages.push({ role: "system", content: options.system });
  messages.push({ role: "user", content: PROBE_USER });
  if (assistant) messages.push(assistant);
  return {
    messages,
    ...(options.tools === false ? {} : { tools: PROBE_TOOLS }),
    add_generation_prompt: options.addGenerationPrompt ?? false,
    bos_token: "",
    eos_token: "",
  };
}

/** The part of `b` that differs from `a`: their common prefix and suffix removed (the suffix never overlaps the prefix). */
export function differingPart(a: string, b: string): { start: number; end: number; prefix: number; suffix: number } {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return { start: prefix, end: b.length - suffix, prefix, suffix };
}

const OPENERS = "<[";
const CLOSERS = ">]";

/** Whether `text` ends inside a bracketed token (`…<|tool_call`): a `<` or `[` after the last `>` or `]`. */
export function endsInsideToken(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    if (CLOSERS.includes(text[i]!)) return -1;
    if (OPENERS.includes(text[i]!)) return i;
  }
  return -1;
}

/** Where the first token that `text` closes without opening it (`_end|>…`) ends, or -1. */
export function startsInsideToken(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (OPENERS.includes(text[i]!)) return -1;
    if (CLOSERS.includes(text[i]!)) return i + 1;
  }
  return -1;
}

/**
 * Widens a differing span of `text` to whole bracketed tokens: a diff that begins inside
 * `<|START_ACTION|>` (the common prefix took `<|START_`) begins at its `<`.
 */
export function widenToTokens(text: string, start: number, end: number): { start: number; end: number } {
  const open = endsInsideToken(text.slice(Math.max(0, start - 64), start));
  if (open >= 0) start = Math.max(0, start - 64) + open;
  const close = startsInsideToken(text.slice(end, end + 64));
  if (close >= 0) end += close;
  return { start, end };
}

export function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export function commonSuffixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}
