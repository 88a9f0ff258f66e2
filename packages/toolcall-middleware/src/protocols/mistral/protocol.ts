// The mistral protocol: Mistral's [TOOL_CALLS] format. Tools are listed in
// [AVAILABLE_TOOLS]…[/AVAILABLE_TOOLS]; a call is [TOOL_CALLS] then a JSON array of
// {"name", "arguments"} (Mistral 7B v0.3, Nemo), or the newer [TOOL_CALLS]NAME[ARGS]{json}
// (Mistral Small 3.2, Magistral, Ministral 3); results go back inside [TOOL_RESULTS]…[/TOOL_RESULTS].
// Reasoning models (Magistral, Ministral 3 Reasoning) think in [THINK]…[/THINK] first.
import { bareJsonCall } from "../../parser/bare-json-call.ts";
import type { BodyReading } from "../../parser/call-candidate.ts";
import { readCallBody } from "../../parser/call-body.ts";
import { THINK_TAGS, type CallSyntax } from "../../parser/call-syntax.ts";
import { leadingJsonLength, readCallObject } from "../../parser/json-call.ts";
import { protectJson } from "../protect-markers.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import { parseJsonLenient } from "../../repair/json-repair.ts";
import type { Protocol, ToolCall } from "../../types.ts";
import { toolResultEscaper } from "../escape-tool-result.ts";
import { pythonStyleJson } from "../python-json.ts";
import { jsonCallStructuralTag } from "../structural-tags.ts";
import { joinAssistantTurn } from "../tool-response.ts";

const TOOL_CALLS = "[TOOL_CALLS]";
/** The close some templates and servers write after the calls (NVIDIA Dynamo's parser reads it). */
const TOOL_CALLS_END = "[/TOOL_CALLS]";
/**
 * `NAME[ARGS]{…}`, `NAME[CALL_ID]id[ARGS]{…}`, or `NAME{…}` (the v11 form as a server shows it
 * when it drops the [ARGS] token, as vLLM's tests have it), or a bare `NAME`.
 */
const NAMED_ARGS = /^\s*([A-Za-z_][\w.-]*)(?:(?:\[CALL_ID\][^[]*)?\[ARGS\]|\s*(?=\{)|\s*$)/;
const JSON_NAME = /^\s*\[?\s*\{\s*"name"\s*:\s*"([^"\\]+)"/;

const cutOff = (name?: string): BodyReading => ({
  ok: true,
  outcomes: [{ ok: false, kind: "unfinished-tool-call", message: `the call${name ? ` of ${name}` : ""} was cut off before it was complete`, ...(name ? { name } : {}) }],
  repairs: [],
  complete: true,
});

/**
 * Reads what follows [TOOL_CALLS]: a JSON array (or object) of calls, or NAME[ARGS]{json}. It
 * is also given a body cut off by the end of the output and says so; prose after the calls
 * (as SGLang reads it) is text.
 */
export function readMistralCalls(body: string, tools: Parameters<typeof readCallBody>[1]): BodyReading {
  // A [TOOL_CALLS] with nothing after it: the output stopped where the call was to begin.
  if (body.trim() === "") return cutOff();
  const named = NAMED_ARGS.exec(body);
  if (!named) {
    const length = leadingJsonLength(body);
    if (length === -1) return cutOff();
    if (length === undefined || body.slice(length).trim() === "") return readCallBody(body, tools);
    return { ...withRest(readCallBody(body.slice(0, length), tools)), textAfter: length };
  }
  const name = named[1]!;
  const json = body.slice(named[0].length);
  // `NAME[ARGS]` and nothing after it: the arguments were cut off (vLLM reads no call there).
  if (json.trim() === "" && named[0].includes("[ARGS]")) return cutOff(name);
  if (json.trim() === "") {
    // `NAME` alone: a call object without arguments, read as {} (the tool's schema decides).
    const repairs = [{ kind: "missing-arguments", message: `the call of ${name} has no arguments; read as {}`, before: "", after: "{}" }];
    return { ok: true, outcomes: [{ ok: true, call: { name, arguments: {}, repairs } }], repairs: [], complete: true };
  }
  const length = leadingJsonLength(json);
  if (length === -1) return cutOff(name);
  const args = length === undefined ? json : json.slice(0, length);
  const parsed = parseJsonLenient(args);
  if (!parsed.ok) return { ok: false, kind: "invalid-json", message: `the arguments of ${name} are not valid JSON: ${parsed.message}` };
  const reading: BodyReading = { ok: true, outcomes: [readCallObject(parsed.value, name)], repairs: [], complete: true };
  return length !== undefined && json.slice(length).trim() !== "" ? { ...reading, textAfter: named[0].length + length } : reading;
}

/** A reading whose calls text follows: only a successful one can say where the text begins. */
function withRest(reading: BodyReading): Extract<BodyReading, { ok: true }> {
  return reading.ok ? reading : { ok: true, outcomes: [{ ok: false, kind: reading.kind, message: reading.message }], repairs: [], complete: true };
}

/**
 * A call runs from [TOOL_CALLS] to the next one or the end of the output. Lenient readings: a
 * whole output that is one JSON call object without [TOOL_CALLS] is a call (bareJsonCall).
 */
const mistralSyntax: CallSyntax = {
  markers: [
    {
      open: TOOL_CALLS,
      ends: ["</s>", TOOL_CALLS_END],
      body: "json",
      read: readMistralCalls,
      readsCutOff: true,
      interrupts: true,
      nameOf: (head) => (NAMED_ARGS.exec(head) ?? JSON_NAME.exec(head))?.[1],
    },
  ],
  bare: bareJsonCall,
  // Magistral and Ministral 3 Reasoning think in [THINK]…[/THINK] (control tokens of tokenizer
  // v13); Magistral Small 2506 wrote its thinking between plain-text <think> tags.
  reasoning: { open: "[THINK]", close: "[/THINK]", alsoPairs: [THINK_TAGS] },
};

function renderCallObject(call: ToolCall): string {
  return `{"name": ${JSON.stringify(call.name)}, "arguments": ${pythonStyleJson(call.arguments)}}`;
}

export const mistralProtocol: Protocol = {
  name: "mistral",
  label: "Mistral ([TOOL_CALLS][…])",
  systemPrompt: (tools) =>
    tools.length === 0
      ? ""
      : [
          `[AVAILABLE_TOOLS]${protectJson(pythonStyleJson(tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }))))}[/AVAILABLE_TOOLS]`,
          "",
          'To call tools, reply with [TOOL_CALLS] followed by a JSON array of calls, each {"name": tool name, "arguments": {argument name: value}}:',
          '[TOOL_CALLS][{"name": "example_tool", "arguments": {"example_argument": "value"}}]',
          "If no tool fits, answer in plain text.",
        ].join("\n"),
  renderAssistant: (message) => {
    const calls = message.toolCalls ?? [];
    return joinAssistantTurn(message.content, calls.length > 0 ? [TOOL_CALLS + protectJson(`[${calls.map(renderCallObject).join(", ")}]`)] : [], "");
  },
  renderToolResult: (message, escape = toolResultEscaper([])) => `[TOOL_RESULTS]${escape(message.content)}[/TOOL_RESULTS]`,
  joinToolResults: (rendered) => rendered.join(""),
  reservedMarkers: [TOOL_CALLS, TOOL_CALLS_END, "[ARGS]", "[CALL_ID]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CONTENT]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[INST]", "[/INST]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[THINK]", "[/THINK]"],
  createParser: (tools) => new ToolCallScanner(mistralSyntax, tools),
  structuralTag: (tools, choice) => {
    const list = jsonCallStructuralTag(tools, choice, { trigger: TOOL_CALLS, begin: (name) => `${TOOL_CALLS}[{"name": ${JSON.stringify(name)}, "arguments": `, end: "}]" });
    // Mistral Small 3.2 and Ministral 3 write NAME[ARGS]{…} (tokenizer v11 and later): a call in
    // that form is allowed too, ending where its arguments end.
    const named = jsonCallStructuralTag(tools, choice, { trigger: TOOL_CALLS, begin: (name) => `${TOOL_CALLS}${name}[ARGS]`, end: "" });
    if (list.format.type !== "triggered_tags" || named.format.type !== "triggered_tags") return list;
    return { ...list, format: { ...list.format, tags: [...list.format.tags, ...named.format.tags] } };
  },
};
