// The harmony protocol, gpt-oss's response format (openai/harmony docs/format.md). The tools are
// a `namespace functions { … }` of TypeScript-like types in the developer message; the model
// writes messages on channels: analysis (its reasoning), commentary (calls, and preambles meant
// for the user) and final (the answer):
//   <|channel|>analysis<|message|>Need the weather.<|end|>
//   <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"Paris"}<|call|>
// The recipient may also sit in the role part of the header (`<|start|>assistant to=functions.X
// <|channel|>commentary json<|message|>`). <|call|> and <|return|> are stop tokens, so an engine
// may end the output without them. A result goes back as the tool's own message:
//   <|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{…}<|end|>
import type { BodyReading } from "../../parser/call-candidate.ts";
import type { CallSyntax } from "../../parser/call-syntax.ts";
import { readCallObject } from "../../parser/json-call.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import { parseJsonLenient } from "../../repair/json-repair.ts";
import type { Protocol, ToolCall } from "../../types.ts";
import { toolResultEscaper } from "../escape-tool-result.ts";
import { protectJson } from "../protect-markers.ts";
import { jsonCallStructuralTag } from "../structural-tags.ts";
import { harmonyToolSection } from "./tool-section.ts";

const START = "<|start|>";
const END = "<|end|>";
const MESSAGE = "<|message|>";
const CALL_END = "<|call|>";
const RETURN = "<|return|>";
const ASSISTANT = `${START}assistant`;
const COMMENTARY_TO = "<|channel|>commentary to=";

/** `functions.NAME <|constrain|>json<|message|>{…}`, or with `<|channel|>commentary json` after the name (the header form). */
const HEAD = /^\s*(?:functions\.)?([A-Za-z_][\w.-]*)(?=[\s<])/;

export function readHarmonyCall(body: string): BodyReading {
  const head = HEAD.exec(body);
  if (!head) return { ok: false, kind: "missing-tool-name", message: "the call's recipient is not functions.NAME" };
  const name = head[1]!;
  const message = body.indexOf(MESSAGE);
  if (message < 0) return { ok: true, outcomes: [{ ok: false, kind: "invalid-call", name, message: `the call of ${name} has no ${MESSAGE}` }], repairs: [], complete: false };
  const json = body.slice(message + MESSAGE.length);
  const parsed = parseJsonLenient(json.trim() === "" ? "{}" : json);
  if (!parsed.ok) return { ok: true, outcomes: [{ ok: false, kind: "invalid-json", name, message: `the arguments of ${name} are not valid JSON: ${parsed.message}` }], repairs: [], complete: false };
  return { ok: true, outcomes: [readCallObject(parsed.value, name)], repairs: parsed.repairs, complete: true };
}

const nameOf = (head: string) => /^\s*(?:functions\.)?([A-Za-z_][\w.-]*)(?=[\s<])/.exec(head)?.[1];
const call = (open: string) => ({ open, close: CALL_END, body: "raw" as const, read: readHarmonyCall, interrupts: true, dropStrayClose: true, nameOf });

/**
 * Calls open at their recipient, on the commentary channel (or, as built-in tools are called,
 * the analysis one), with the recipient in the channel or the role part of the header. The
 * analysis channel is reasoning; the other framing tokens are consumed, so the final channel
 * and preambles are the text.
 */
const harmonySyntax: CallSyntax = {
  markers: [
    call(`${ASSISTANT}${COMMENTARY_TO}`),
    call(`${ASSISTANT}<|channel|>analysis to=`),
    call(`${ASSISTANT} to=`),
    call(COMMENTARY_TO),
    call("<|channel|>analysis to="),
    // The first message's role header, begun by the prompt's `<|start|>assistant` (llama.cpp
    // test-chat.cpp, "tool calling in role header").
    { ...call(" to="), atStart: true },
  ],
  reasoning: {
    open: `<|channel|>analysis${MESSAGE}`,
    close: END,
    alsoOpen: [`${ASSISTANT}<|channel|>analysis${MESSAGE}`],
    framing: [END, RETURN, `${ASSISTANT}<|channel|>final${MESSAGE}`, `<|channel|>final${MESSAGE}`, `${ASSISTANT}<|channel|>commentary${MESSAGE}`, `<|channel|>commentary${MESSAGE}`],
  },
};

function renderCall(call: ToolCall): string {
  return `${COMMENTARY_TO}functions.${call.name} <|constrain|>json${MESSAGE}${protectJson(JSON.stringify(call.arguments))}${CALL_END}`;
}

export const harmonyProtocol: Protocol = {
  name: "harmony",
  label: "Harmony (gpt-oss: to=functions.NAME)",
  // The tools in the words of gpt-oss's chat template (tool-section.ts).
  systemPrompt: (tools) => (tools.length === 0 ? "" : harmonyToolSection(tools)),
  // A turn's text before its calls is a commentary preamble; each call is a message of its own.
  renderAssistant: (message) => {
    const calls = message.toolCalls ?? [];
    const text = message.content.trim();
    if (calls.length === 0) return text;
    const parts = text.length > 0 ? [`<|channel|>commentary${MESSAGE}${text}${END}`] : [];
    for (const c of calls) parts.push((parts.length > 0 ? ASSISTANT : "") + renderCall(c));
    return parts.join("");
  },
  // The tool's own message; the escaper breaks every `<|`, so the result cannot end it.
  renderToolResult: (message, escape = toolResultEscaper([])) => `${START}functions.${message.name} to=assistant<|channel|>commentary${MESSAGE}${escape(message.content)}${END}`,
  joinToolResults: (rendered) => rendered.join(""),
  toolResultRole: "tool",
  reservedMarkers: [START, END, MESSAGE, "<|channel|>", "<|constrain|>", CALL_END, RETURN],
  createParser: (tools) => new ToolCallScanner(harmonySyntax, tools),
  structuralTag: (tools, choice) =>
    jsonCallStructuralTag(tools, choice, { trigger: `${COMMENTARY_TO}functions.`, begin: (name) => `${COMMENTARY_TO}functions.${name} <|constrain|>json${MESSAGE}`, end: CALL_END }),
};
