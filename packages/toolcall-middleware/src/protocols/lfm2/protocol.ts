// The lfm2 protocol, the format Liquid's LFM2 models were trained on: the tools as a JSON list
// after "List of tools:" inside <|tool_list_start|>…<|tool_list_end|> (the chat template's
// wording), calls inside <|tool_call_start|>…<|tool_call_end|> as a pythonic list
//   <|tool_call_start|>[get_weather(location="Paris")]<|tool_call_end|>
// or as a JSON list of {"name", "arguments"}, and results in a tool turn between
// <|tool_response_start|> and <|tool_response_end|>.
import type { BodyReading } from "../../parser/call-candidate.ts";
import { firstNonBlank } from "../../parser/call-body.ts";
import type { CallSyntax } from "../../parser/call-syntax.ts";
import { jsonCallName, readJsonCallBody } from "../../parser/json-call.ts";
import { readPythonicCalls } from "../../parser/pythonic-calls.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import { EchoedCallsFilter } from "./echoed-calls.ts";
import type { Protocol, ToolCall } from "../../types.ts";
import { toolResultEscaper } from "../escape-tool-result.ts";
import { protectJson } from "../protect-markers.ts";
import { pythonStyleJson } from "../python-json.ts";
import { jsonCallStructuralTag } from "../structural-tags.ts";
import { joinAssistantTurn } from "../tool-response.ts";

const CALL_START = "<|tool_call_start|>";
const CALL_END = "<|tool_call_end|>";
const RESPONSE_START = "<|tool_response_start|>";
const RESPONSE_END = "<|tool_response_end|>";

/** `[{…}, …]` (or one `{…}`) is the JSON form; anything else the pythonic one. */
function isJsonForm(body: string): boolean {
  const first = firstNonBlank(body);
  return first === "{" || (first === "[" && firstNonBlank(body.slice(body.indexOf("[") + 1)) === "{");
}

export function readLfm2Calls(body: string): BodyReading {
  // Between its tags a quoted string may hold raw line breaks (vLLM and SGLang read them so).
  return isJsonForm(body) ? readJsonCallBody(body) : readPythonicCalls(body, { multilineStrings: true });
}

const PYTHONIC_NAME = /^\s*\[?\s*([A-Za-z_][\w.]*)\s*\(/;

const lfm2Syntax: CallSyntax = {
  markers: [
    {
      open: CALL_START,
      close: CALL_END,
      body: "python",
      read: readLfm2Calls,
      interrupts: true,
      dropStrayClose: true,
      nameOf: (head) => (isJsonForm(head) ? jsonCallName(head.replace(/^\s*\[/, "")) : PYTHONIC_NAME.exec(head)?.[1]),
    },
  ],
};

function renderCallObject(call: ToolCall): string {
  return `{"name": ${JSON.stringify(call.name)}, "arguments": ${pythonStyleJson(call.arguments)}}`;
}

export const lfm2Protocol: Protocol = {
  name: "lfm2",
  label: "LFM2 (<|tool_call_start|>[f(a=1)])",
  systemPrompt: (tools) =>
    tools.length === 0
      ? ""
      : `List of tools: <|tool_list_start|>[${tools.map((t) => protectJson(JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }))).join(", ")}]<|tool_list_end|>`,
  // The JSON form, as llama.cpp's LFM2 template writes calls back (the model reads both forms).
  renderAssistant: (message) => {
    const calls = message.toolCalls ?? [];
    return joinAssistantTurn(message.content, calls.length > 0 ? [`${CALL_START}[${protectJson(calls.map(renderCallObject).join(", "))}]${CALL_END}`] : [], "");
  },
  renderToolResult: (message, escape = toolResultEscaper([])) => `${RESPONSE_START}${escape(message.content)}${RESPONSE_END}`,
  toolResultRole: "tool",
  reservedMarkers: [CALL_START, CALL_END, RESPONSE_START, RESPONSE_END, "<|tool_list_start|>", "<|tool_list_end|>"],
  createParser: (tools) => new EchoedCallsFilter(new ToolCallScanner(lfm2Syntax, tools), CALL_END),
  // Constrained to the JSON form, whose arguments XGrammar checks against the tool's schema.
  structuralTag: (tools, choice) =>
    jsonCallStructuralTag(tools, choice, { trigger: CALL_START, begin: (name) => `${CALL_START}[{"name": ${JSON.stringify(name)}, "arguments": `, end: `}]${CALL_END}` }),
};
