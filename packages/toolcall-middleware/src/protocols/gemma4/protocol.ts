// The gemma4 protocol, the format Gemma 4 was trained on (its chat template, llama.cpp
// models/templates/gemma4.jinja): each tool as `<|tool>declaration:NAME{description:…,
// parameters:{…}}<tool|>` in the system turn, a call as
//   <|tool_call>call:get_weather{days:3,location:<|"|>Paris<|"|>}<tool_call|>
// (strings between <|"|>, other values bare), thinking between <|channel>thought and <channel|>,
// and a result as `<|tool_response>response:NAME{value:<|"|>…<|"|>}<tool_response|>` in a tool turn.
import type { CallSyntax } from "../../parser/call-syntax.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import type { Protocol, ToolCall } from "../../types.ts";
import { toolResultEscaper } from "../escape-tool-result.ts";
import { callStructuralTag } from "../structural-tags.ts";
import { gemmaArguments, gemmaArgumentsGrammar, gemmaCallName, gemmaDeclaration, readGemmaCall } from "./gemma-calls.ts";

const CALL = "<|tool_call>";
const CALL_END = "<tool_call|>";
/** Gemma 4's string delimiter: it never reaches a value. */
const QUOTE = '<|"|>';

const gemma4Syntax: CallSyntax = {
  markers: [
    {
      open: CALL,
      close: CALL_END,
      body: "raw",
      // A <tool_call|> inside a <|"|> string is the string's text, as vLLM and SGLang's streaming path read it.
      stringDelimiter: QUOTE,
      read: (body, tools) => readGemmaCall(body, tools, QUOTE),
      interrupts: true,
      dropStrayClose: true,
      nameOf: gemmaCallName,
    },
  ],
  reasoning: { open: "<|channel>thought", close: "<channel|>" },
};

export function renderGemma4Call(call: ToolCall): string {
  return `${CALL}call:${call.name}${gemmaArguments(call.arguments, QUOTE)}${CALL_END}`;
}

export const gemma4Protocol: Protocol = {
  name: "gemma4",
  label: 'Gemma 4 (<|tool_call>call:f{a:<|"|>x<|"|>})',
  systemPrompt: (tools) => tools.map((tool) => `<|tool>${gemmaDeclaration(tool, QUOTE)}<tool|>`).join(""),
  // The template writes a turn's calls before its text.
  renderAssistant: (message) => (message.toolCalls ?? []).map(renderGemma4Call).join("") + message.content.trim(),
  // The escaper breaks every `<|`, the delimiter's included: a result cannot end its string.
  renderToolResult: (message, escape = toolResultEscaper([])) => `<|tool_response>response:${message.name}{value:${QUOTE}${escape(message.content)}${QUOTE}}<tool_response|>`,
  joinToolResults: (rendered) => rendered.join(""),
  toolResultRole: "tool",
  reservedMarkers: [CALL, CALL_END, "<|tool_response>", "<tool_response|>", "<|tool>", "<tool|>", QUOTE, "<|channel>", "<channel|>", "<|turn>", "<turn|>"],
  createParser: (tools) => new ToolCallScanner(gemma4Syntax, tools),
  structuralTag: (tools, choice) =>
    callStructuralTag(tools, choice, {
      trigger: CALL,
      begin: (name) => `${CALL}call:${name}{`,
      content: (tool) => ({ type: "grammar", grammar: gemmaArgumentsGrammar(tool.parameters, QUOTE) }),
      end: `}${CALL_END}`,
    }),
};
