// The glm45 protocol: GLM-4.5/4.6's tool calls,
//   <tool_call>get_weather
//   <arg_key>city</arg_key>
//   <arg_value>Beijing</arg_value>
//   </tool_call>
// and GLM-4.7's form without the line breaks (`<tool_call>get_weather<arg_key>…`). Values are
// verbatim text, coerced to the tool's schema (JSON for numbers, booleans, arrays, objects, as
// SGLang's glm4_moe detector reads them); tools are listed in the wording of GLM's template.
import type { BodyReading, CandidateOutcome } from "../../parser/call-candidate.ts";
import type { CallSyntax } from "../../parser/call-syntax.ts";
import { decodeMarkerEscapes, readElements } from "../../parser/markup.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import { parseJsonLenient, type Repair } from "../../repair/json-repair.ts";
import type { JsonSchema, Protocol, ToolCall, ToolSpec } from "../../types.ts";
import { encodeMarkerEscapes } from "../protect-markers.ts";
import { callStructuralTag } from "../structural-tags.ts";
import { taggedArgumentsGrammar } from "../tagged-arguments-grammar.ts";
import { joinAssistantTurn, renderToolResponse } from "../tool-response.ts";
import { qwenToolsIntro } from "../tools-intro.ts";

const NAME = /^\s*([A-Za-z_][\w.-]*)/;

function schemaTypes(schema: unknown): Set<string> {
  const type = (schema as JsonSchema | undefined)?.type;
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  return new Set();
}

/** A value as its schema wants it: text for strings, JSON (or JSON with its quotes escaped, as GLM-4.6 writes it) otherwise. */
function argumentValue(raw: string, schema: unknown): unknown {
  const text = decodeMarkerEscapes(raw);
  const types = schemaTypes(schema);
  if (types.size === 1 && types.has("string")) return text;
  for (const candidate of [text, text.replace(/\\"/g, '"')]) {
    const parsed = parseJsonLenient(candidate);
    if (parsed.ok && parsed.repairs.length === 0) return parsed.value;
  }
  // Left to schema coercion, which reports what it changed.
  return text;
}

/** Reads `NAME <arg_key>k</arg_key><arg_value>v</arg_value>…`, the body of one <tool_call>. */
export function readGlmCall(body: string, tools: readonly ToolSpec[]): BodyReading {
  const name = NAME.exec(body)?.[1];
  if (!name) return { ok: false, kind: "missing-tool-name", message: "the call does not begin with the tool's name" };
  const schema = tools.find((t) => t.name === name)?.parameters;
  const properties = (schema?.properties ?? {}) as Record<string, unknown>;
  const { elements } = readElements(body.slice(body.indexOf(name) + name.length));
  const args: Record<string, unknown> = {};
  const repairs: Repair[] = [];
  let key: string | undefined;
  let complete = true;
  for (const element of elements) {
    if (!element.closed) complete = false;
    if (element.tag === "arg_key" && !element.closed) {
      // The key never closed (`<arg_key>date</tool_call>`): the call is not what the model meant.
      return { ok: true, outcomes: [{ ok: false, kind: "invalid-call", name, message: `the call of ${name} has an <arg_key> that is not closed` }], repairs, complete: false };
    }
    if (element.tag === "arg_key") key = decodeMarkerEscapes(element.raw).trim();
    else if (element.tag === "arg_value") {
      if (key === undefined) {
        repairs.push({ kind: "ignored-text", message: "ignored an <arg_value> without its <arg_key>", before: element.raw, after: "" });
        continue;
      }
      args[key] = argumentValue(element.raw, properties[key]);
      key = undefined;
    }
  }
  if (key !== undefined) complete = false;
  const outcome: CandidateOutcome = { ok: true, call: { name, arguments: args, repairs: [] } };
  return { ok: true, outcomes: [outcome], repairs, complete };
}

const glmSyntax: CallSyntax = {
  markers: [
    {
      open: "<tool_call>",
      close: "</tool_call>",
      body: "raw",
      read: readGlmCall,
      interrupts: true,
      dropStrayClose: true,
      // vLLM: "incomplete tool calls should not be extracted".
      requiresClose: true,
      nameOf: (head) => /^\s*([A-Za-z_][\w.-]*)\s*(?:<|\n)/.exec(head)?.[1],
    },
  ],
};

/** GLM-4.5's form, a line each; a value's markers broken with an exact round trip. */
export function renderGlmCall(call: ToolCall): string {
  const args = Object.entries(call.arguments).map(
    ([key, value]) => `<arg_key>${encodeMarkerEscapes(key)}</arg_key>\n<arg_value>${encodeMarkerEscapes(typeof value === "string" ? value : JSON.stringify(value))}</arg_value>\n`,
  );
  return `<tool_call>${call.name}\n${args.join("")}</tool_call>`;
}

export const glm45Protocol: Protocol = {
  name: "glm45",
  label: "GLM-4.5 (<tool_call>NAME<arg_key>…)",
  systemPrompt: (tools) =>
    tools.length === 0
      ? ""
      : [
          qwenToolsIntro(tools),
          "",
          "For each function call, output the function name and arguments within the following XML format:",
          "<tool_call>{function-name}",
          "<arg_key>{arg-key-1}</arg_key>",
          "<arg_value>{arg-value-1}</arg_value>",
          "<arg_key>{arg-key-2}</arg_key>",
          "<arg_value>{arg-value-2}</arg_value>",
          "...",
          "</tool_call>",
        ].join("\n"),
  renderAssistant: (message) => joinAssistantTurn(message.content, (message.toolCalls ?? []).map(renderGlmCall)),
  renderToolResult: (message, escape) => renderToolResponse(message, escape),
  reservedMarkers: ["<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", "<tool_response>", "</tool_response>", "<tools>", "</tools>", "<think>", "</think>"],
  createParser: (tools) => new ToolCallScanner(glmSyntax, tools),
  structuralTag: (tools, choice) =>
    callStructuralTag(tools, choice, {
      trigger: "<tool_call>",
      begin: (name) => `<tool_call>${name}\n`,
      content: (tool) => ({ type: "grammar", grammar: taggedArgumentsGrammar(tool.parameters, (key) => [`<arg_key>${key}</arg_key>\n<arg_value>`, "</arg_value>\n"]) }),
      end: "</tool_call>",
    }),
};
