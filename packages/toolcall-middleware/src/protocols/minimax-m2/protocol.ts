// The minimax-m2 protocol: MiniMax M2's XML tool calls,
//   <minimax:tool_call>
//   <invoke name="get_weather">
//   <parameter name="location">Paris</parameter>
//   </invoke>
//   </minimax:tool_call>
// Values are verbatim text (JSON for numbers, booleans, arrays and objects), coerced to the
// tool's schema as qwen3-coder's are; the tools are listed as JSON in <tools>, as MiniMax M2's
// chat template lists them, and results go back inside <response></response>.
import { isPlainObject, type BodyReading } from "../../parser/call-candidate.ts";
import { firstNonBlank, readBodyAs } from "../../parser/call-body.ts";
import type { CallSyntax } from "../../parser/call-syntax.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import type { Protocol, ToolCall, ToolSpec } from "../../types.ts";
import { toolResultEscaper } from "../escape-tool-result.ts";
import { encodeMarkerEscapes, protectJson } from "../protect-markers.ts";
import { pythonStyleJson } from "../python-json.ts";
import { callStructuralTag } from "../structural-tags.ts";
import { taggedArgumentsGrammar } from "../tagged-arguments-grammar.ts";
import { joinAssistantTurn } from "../tool-response.ts";

const OPEN = "<minimax:tool_call>";
const CLOSE = "</minimax:tool_call>";

const RESERVED = [OPEN, CLOSE, "<invoke", "</invoke>", "<parameter", "</parameter>", "<response>", "</response>"];

const INVOKE_NAME = /^\s*<invoke\s+name="([^"]+)"/;

/** Whether a parameter's schema allows null (`"type": [..., "null"]`, an `anyOf`/`oneOf` branch, `nullable`). */
function allowsNull(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null")) || schema.nullable === true) return true;
  return [schema.anyOf, schema.oneOf].some((branches) => Array.isArray(branches) && branches.some(allowsNull));
}

const readJsonOrMarkup = readBodyAs(["markup", "json"]);

/**
 * Reads a block. A parameter written as the bare text `null` is null where its schema allows
 * null, even when it also allows a string (vLLM test_anyof_nullable_param_null_value, SGLang's
 * MiniMax M2 detector): the markup has no other way to write null.
 */
function readMinimaxBlock(body: string, tools: readonly ToolSpec[]): BodyReading {
  const reading = readJsonOrMarkup(body, tools);
  if (!reading.ok || firstNonBlank(body) !== "<") return reading;
  for (const outcome of reading.outcomes) {
    if (!outcome.ok || !isPlainObject(outcome.call.arguments)) continue;
    const properties = tools.find((t) => t.name === outcome.call.name)?.parameters.properties;
    if (!isPlainObject(properties)) continue;
    const args = outcome.call.arguments;
    for (const [key, value] of Object.entries(args)) if (value === "null" && allowsNull(properties[key])) args[key] = null;
  }
  return reading;
}

/** A block is markup: <invoke name="…"> elements with <parameter name="…"> children (a JSON body is read too). */
const minimaxSyntax: CallSyntax = {
  markers: [{ open: OPEN, close: CLOSE, read: readMinimaxBlock, interrupts: true, dropStrayClose: true, nameOf: (head) => INVOKE_NAME.exec(head)?.[1] }],
};

const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** A value written verbatim, a marker in it broken with an exact round trip (encodeMarkerEscapes). */
function renderInvoke(call: ToolCall): string {
  const params = Object.entries(call.arguments).map(
    ([key, value]) => `<parameter name="${attribute(key)}">${encodeMarkerEscapes(typeof value === "string" ? value : JSON.stringify(value))}</parameter>\n`,
  );
  return `<invoke name="${attribute(call.name)}">\n${params.join("")}</invoke>`;
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
      content: (tool) => ({ type: "grammar", grammar: taggedArgumentsGrammar(tool.parameters, (key) => [`<parameter name="${attribute(key)}">`, "</parameter>\n"]) }),
      end: `</invoke>\n${CLOSE}`,
    }),
};
