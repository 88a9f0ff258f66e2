// The minimax-m2 protocol: MiniMax M2's XML tool calls,
//   <minimax:tool_call>
//   <invoke name="get_weather">
//   <parameter name="location">Paris</parameter>
//   </invoke>
//   </minimax:tool_call>
// Values are verbatim text (JSON for numbers, booleans, arrays and objects), coerced to the
// tool's schema as qwen3-coder's are; the tools are listed as JSON in <tools>, as MiniMax M2's
// chat template lists them, and results go back inside <response></response>.
import { readBodyAs } from "../../parser/call-body.ts";
import type { CallSyntax } from "../../parser/call-syntax.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import type { JsonSchema, Protocol, ToolCall } from "../../types.ts";
import { toolResultEscaper } from "../escape-tool-result.ts";
import { encodeMarkerEscapes, protectJson } from "../protect-markers.ts";
import { pythonStyleJson } from "../python-json.ts";
import { callStructuralTag } from "../structural-tags.ts";
import { joinAssistantTurn } from "../tool-response.ts";

const OPEN = "<minimax:tool_call>";
const CLOSE = "</minimax:tool_call>";

const RESERVED = [OPEN, CLOSE, "<invoke", "</invoke>", "<parameter", "</parameter>", "<response>", "</response>"];

const INVOKE_NAME = /^\s*<invoke\s+name="([^"]+)"/;

/** A block is markup: <invoke name="…"> elements with <parameter name="…"> children (a JSON body is read too). */
const minimaxSyntax: CallSyntax = {
  markers: [{ open: OPEN, close: CLOSE, read: readBodyAs(["markup", "json"]), interrupts: true, dropStrayClose: true, nameOf: (head) => INVOKE_NAME.exec(head)?.[1] }],
};

const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** A value written verbatim, a marker in it broken with an exact round trip (encodeMarkerEscapes). */
function renderInvoke(call: ToolCall): string {
  const params = Object.entries(call.arguments).map(
    ([key, value]) => `<parameter name="${attribute(key)}">${encodeMarkerEscapes(typeof value === "string" ? value : JSON.stringify(value))}</parameter>\n`,
  );
  return `<invoke name="${attribute(call.name)}">\n${params.join("")}</invoke>`;
}

/**
 * XGrammar EBNF for a call's parameters, from the tool's schema: each parameter as
 * `<parameter name="KEY">VALUE</parameter>` a line, in the schema's order, required ones
 * always. Text holds no `<`; numbers, integers, booleans and enums are what their schema allows;
 * arrays and objects are JSON text.
 */
export function minimaxArgumentsGrammar(parameters: JsonSchema): string {
  const properties = (parameters.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(parameters.required) ? (parameters.required as string[]) : []);
  const value = (schema: JsonSchema | undefined): string => {
    if (schema && Array.isArray(schema.enum) && schema.enum.length > 0) return `(${schema.enum.map((v) => JSON.stringify(typeof v === "string" ? v : JSON.stringify(v))).join(" | ")})`;
    const types = Array.isArray(schema?.type) ? (schema!.type as string[]) : typeof schema?.type === "string" ? [schema.type] : [];
    if (types.length === 1 && types[0] === "number") return "mm_number";
    if (types.length === 1 && types[0] === "integer") return "mm_integer";
    if (types.length === 1 && types[0] === "boolean") return "mm_boolean";
    return "mm_text";
  };
  const parts = Object.entries(properties).map(([key, schema]) => {
    const element = `${JSON.stringify(`<parameter name="${attribute(key)}">`)} ${value(schema)} ${JSON.stringify("</parameter>\n")}`;
    return required.has(key) ? element : `(${element})?`;
  });
  return [
    `root ::= ${parts.length > 0 ? parts.join(" ") : '""'}`,
    "mm_text ::= [^<]*",
    'mm_number ::= "-"? ("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [+-]? [0-9]+)?',
    'mm_integer ::= "-"? ("0" | [1-9] [0-9]*)',
    'mm_boolean ::= "true" | "false"',
  ].join("\n");
}

export const minimaxM2Protocol: Protocol = {
  name: "minimax-m2",
  label: "MiniMax M2 (<minimax:tool_call><invoke>)",
  systemPrompt: (tools) =>
    tools.length === 0
      ? ""
      : [
          "# Tools",
          "You may call one or more tools to assist with the user query.",
          "Here are the tools available in JSONSchema format:",
          "",
          "<tools>",
          ...tools.map((t) => `<tool>${protectJson(pythonStyleJson({ name: t.name, description: t.description, parameters: t.parameters }))}</tool>`),
          "</tools>",
          "",
          "When making tool calls, use XML format to invoke tools and pass parameters:",
          "",
          OPEN,
          '<invoke name="tool-name-1">',
          '<parameter name="param-key-1">param-value-1</parameter>',
          '<parameter name="param-key-2">param-value-2</parameter>',
          "</invoke>",
          CLOSE,
        ].join("\n"),
  renderAssistant: (message) => {
    const calls = message.toolCalls ?? [];
    return joinAssistantTurn(message.content, calls.length > 0 ? [`${OPEN}\n${calls.map(renderInvoke).join("\n")}\n${CLOSE}`] : []);
  },
  renderToolResult: (message, escape = toolResultEscaper(RESERVED)) => `<response>${escape(message.content)}</response>`,
  reservedMarkers: RESERVED,
  createParser: (tools) => new ToolCallScanner(minimaxSyntax, tools),
  structuralTag: (tools, choice) =>
    callStructuralTag(tools, choice, {
      trigger: OPEN,
      begin: (name) => `${OPEN}\n<invoke name="${attribute(name)}">\n`,
      content: (tool) => ({ type: "grammar", grammar: minimaxArgumentsGrammar(tool.parameters) }),
      end: `</invoke>\n${CLOSE}`,
    }),
};
