// The pythonic protocol: calls as a Python list of function calls with keyword arguments,
//   [get_weather(location="Paris", days=2), get_time(timezone='UTC')]
// the form of Llama 3.2's pythonic tool calling, Llama 4 and many small models (LFM2), either as
// the whole output or inside <|python_start|>…<|python_end|> (Llama 4). Values are Python
// literals: either quote style, numbers, True/False/None, lists, dicts.
import type { BareCallSyntax, CallSyntax } from "../../parser/call-syntax.ts";
import { firstCallNamesTool, PythonicCallTracker, readPythonicCalls } from "../../parser/pythonic-calls.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import type { Protocol, ToolCall } from "../../types.ts";
import { toolResultEscaper } from "../escape-tool-result.ts";
import { callStructuralTag } from "../structural-tags.ts";
import { joinAssistantTurn } from "../tool-response.ts";
import { pythonLiteral } from "./python-literal.ts";
import { toolsAsIndentedJson } from "../tools-intro.ts";

const START = "<|python_start|>";
const END = "<|python_end|>";

/**
 * A call list may stand anywhere in the text, as SGLang reads it: after prose, and several
 * lists in one output. `[see above]` is prose (ruled out before `[name(`); a list that begins
 * like a call but does not read is an error when it names one of the tools (a mismatched
 * bracket, a list cut off), and text otherwise.
 */
const bareCallList: BareCallSyntax = {
  startsWith: "[",
  placement: "anywhere",
  tracker: () => new PythonicCallTracker(),
  read: (text, tools) => {
    const reading = readPythonicCalls(text);
    // A list none of whose calls reads (`[print(x)]`) is prose unless it names one of the tools.
    const readsAny = reading.ok && reading.outcomes.some((outcome) => outcome.ok);
    return readsAny || firstCallNamesTool(text, tools) ? reading : undefined;
  },
  nameOf: (head) => /^\s*\[\s*([A-Za-z_][\w.]*)\s*\(/.exec(head)?.[1],
  describe: () => "a call list",
  // The prompt asks for exactly this form.
  ownForm: true,
};

/**
 * A call list is the whole output, or sits inside <|python_start|>…<|python_end|>. Lenient
 * reading: one call without the brackets around the list, inside the tags.
 */
const pythonicSyntax: CallSyntax = {
  markers: [{ open: START, close: END, body: "python", read: (body) => readPythonicCalls(body), interrupts: true, dropStrayClose: true, nameOf: (head) => /^\s*\[?\s*([A-Za-z_][\w.]*)\s*\(/.exec(head)?.[1] }],
  bare: bareCallList,
};

/** The `[` that begins a call list: `[name(`. */
const CALL_LIST_START = /\[(?=\s*[A-Za-z_][\w.]*\s*\()/g;

export { pythonLiteral };

export function renderPythonicCall(call: ToolCall): string {
  const args = Object.entries(call.arguments).map(([k, v]) => `${k}=${pythonLiteral(v)}`);
  return `${call.name}(${args.join(", ")})`;
}

/** Keyword arguments with Python literals, for XGrammar (EBNF). */
const PYTHON_ARGUMENTS_GRAMMAR = String.raw`root ::= (kwarg ("," ws kwarg)*)?
kwarg ::= [A-Za-z_] [A-Za-z0-9_]* "=" value
value ::= string | number | "True" | "False" | "None" | list | dict
string ::= "'" ([^'\\\n] | "\\" [^\n])* "'" | "\"" ([^"\\\n] | "\\" [^\n])* "\""
number ::= "-"? [0-9]+ ("." [0-9]+)? ([eE] [+-]? [0-9]+)?
list ::= "[" ws (value ws ("," ws value ws)*)? "]"
dict ::= "{" ws (string ws ":" ws value ws ("," ws string ws ":" ws value ws)*)? "}"
ws ::= [ \n\t]*`;

export const pythonicProtocol: Protocol = {
  name: "pythonic",
  label: "Pythonic ([f(a=1), g(b='x')])",
  systemPrompt: (tools) =>
    tools.length === 0
      ? ""
      : [
          "You are an expert in composing functions. You are given a question and a set of possible functions. Based on the question, make one or more function calls to achieve the purpose.",
          "If none of the functions can be used, say so and answer normally. If the question lacks parameters a function requires, ask for them.",
          "",
          "To call functions, reply with nothing but a list in this format:",
          "[func_name1(param_name1=value1, param_name2=value2), func_name2(param=value)]",
          "Values are Python literals: 'strings', numbers, True, False, None, [lists] and {dicts}.",
          "",
          "Here is a list of functions in JSON format that you can invoke:",
          "",
          toolsAsIndentedJson(tools),
        ].join("\n"),
  // Inside the tags, so that the calls are read back even after the turn's text.
  renderAssistant: (message) => {
    const calls = message.toolCalls ?? [];
    return joinAssistantTurn(message.content, calls.length > 0 ? [`${START}[${calls.map(renderPythonicCall).join(", ")}]${END}`] : []);
  },
  // A call list is read anywhere in the output: one in a result is broken (`[` as `&#91;`), so
  // that a model echoing the result back does not call what the result wrote.
  renderToolResult: (message, escape = toolResultEscaper([])) => escape(message.content).replace(CALL_LIST_START, "&#91;"),
  toolResultRole: "tool",
  reservedMarkers: [START, END],
  createParser: (tools) => new ToolCallScanner(pythonicSyntax, tools),
  structuralTag: (tools, choice) =>
    callStructuralTag(tools, choice, {
      trigger: START,
      begin: (name) => `${START}[${name}(`,
      content: () => ({ type: "grammar", grammar: PYTHON_ARGUMENTS_GRAMMAR }),
      end: `)]${END}`,
    }),
};
