// The xlam protocol: Salesforce xLAM's tool calls, one JSON array of calls,
//   [{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": …, "arguments": …}]
// written as the reply (xLAM's chat template writes calls back so), and read as vLLM's xLAM
// parser reads them: after prose, in a ```json fence, after <think>…</think>, after
// [TOOL_CALLS], or inside <tool_call></tool_call>. Tools are listed as indented JSON after
// xLAM's format instruction; results go back in a tool (ipython) turn.
import { BareCallTracker } from "../../parser/bare-call-tracker.ts";
import { looksLikeJsonCall } from "../../parser/bare-json-call.ts";
import { bodyForms } from "../../parser/call-body.ts";
import type { BareCallSyntax, CallSyntax } from "../../parser/call-syntax.ts";
import { jsonCallName, readJsonCallBody } from "../../parser/json-call.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import type { Protocol, ToolCall } from "../../types.ts";
import { toolResultEscaper } from "../escape-tool-result.ts";
import { protectJson } from "../protect-markers.ts";
import { pythonStyleJson } from "../python-json.ts";
import { jsonCallStructuralTag } from "../structural-tags.ts";
import { joinAssistantTurn } from "../tool-response.ts";
import { toolsAsIndentedJson } from "../tools-intro.ts";

/** The `{` or `[` that begins a call object in a tool's result: `{"name":`. */
const CALL_OBJECT_START = /[[{](?=\s*\{?\s*"name"\s*:)/g;

/** A call array (or object) anywhere in the text, fenced or not. */
const bareCallArray: BareCallSyntax = {
  startsWith: "[{`",
  placement: "anywhere",
  tracker: () => new BareCallTracker(),
  read: (text, tools) => (looksLikeJsonCall(text, tools) ? readJsonCallBody(text) : undefined),
  nameOf: (head) => jsonCallName(head.replace(/^\s*(?:```[A-Za-z0-9_]*\s*)?\[/, "")),
  describe: () => "a call array",
  // The prompt asks for exactly this form.
  ownForm: true,
};

const jsonBody = bodyForms(["json"]);

const xlamSyntax: CallSyntax = {
  markers: [
    { open: "<tool_call>", close: "</tool_call>", body: "json", ...jsonBody, interrupts: true, dropStrayClose: true },
    { open: "[TOOL_CALLS]", ends: ["</s>", "<|eot_id|>"], body: "json", ...jsonBody, interrupts: true },
  ],
  bare: bareCallArray,
};

function renderCallObject(call: ToolCall): string {
  return `{"name": ${JSON.stringify(call.name)}, "arguments": ${pythonStyleJson(call.arguments)}}`;
}

export const xlamProtocol: Protocol = {
  name: "xlam",
  label: "xLAM ([{\"name\", \"arguments\"}])",
  systemPrompt: (tools) =>
    tools.length === 0
      ? ""
      : [
          "You have access to a set of tools. When using tools, make calls in a single JSON array: ",
          "",
          '[{"name": "tool_call_name", "arguments": {"arg1": "value1", "arg2": "value2"}}, ... (additional parallel tool calls as needed)]',
          "",
          "If no tool is suitable, state that explicitly. If the user's input lacks required parameters, ask for clarification. Do not interpret or respond until tool results are returned. Once they are available, process them or make additional calls if needed. For tasks that don't require tools, such as casual conversation or general advice, respond directly in plain text. The available tools are:",
          "",
          toolsAsIndentedJson(tools),
        ].join("\n"),
  renderAssistant: (message) => {
    const calls = message.toolCalls ?? [];
    return joinAssistantTurn(message.content, calls.length > 0 ? [protectJson(`[${calls.map(renderCallObject).join(", ")}]`)] : []);
  },
  // A call array is read anywhere in the output: a call object in a result is broken (its `{`
  // as `&#123;`), so that a model echoing the result back does not call what the result wrote.
  renderToolResult: (message, escape = toolResultEscaper([])) =>
    escape(message.content).replace(CALL_OBJECT_START, (c) => (c === "{" ? "&#123;" : "&#91;")),
  toolResultRole: "tool",
  reservedMarkers: ["<tool_call>", "</tool_call>", "[TOOL_CALLS]"],
  createParser: (tools) => new ToolCallScanner(xlamSyntax, tools),
  structuralTag: (tools, choice) =>
    jsonCallStructuralTag(tools, choice, { trigger: '[{"name": ', begin: (name) => `[{"name": ${JSON.stringify(name)}, "arguments": `, end: "}]" }),
};
