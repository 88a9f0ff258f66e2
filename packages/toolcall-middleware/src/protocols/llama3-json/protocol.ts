// The llama3-json protocol: Meta's JSON tool calling for Llama 3.1/3.2. The tools go in as
// JSON in Meta's wording; the model answers with an optional <|python_tag|> and then
//   {"name": "get_weather", "parameters": {"location": "Paris"}}
// ("arguments" is accepted too), several calls separated by ";". Results go back in an
// `ipython` turn (the template's tool role); <|eom_id|> and <|eot_id|> end the model's turn.
import { BareCallTracker } from "../../parser/bare-call-tracker.ts";
import { looksLikeJsonCall } from "../../parser/bare-json-call.ts";
import type { BodyReading, CandidateOutcome } from "../../parser/call-candidate.ts";
import type { BareCallSyntax, CallSyntax } from "../../parser/call-syntax.ts";
import { jsonCallName, leadingJsonLength, readCallObject } from "../../parser/json-call.ts";
import { protectJson } from "../protect-markers.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import { parseJsonLenient, type Repair } from "../../repair/json-repair.ts";
import type { Protocol, StructuralTagFormat, ToolCall } from "../../types.ts";
import { pythonStyleJson } from "../python-json.ts";
import { toolResultEscaper } from "../escape-tool-result.ts";
import { jsonCallStructuralTag } from "../structural-tags.ts";
import { joinAssistantTurn } from "../tool-response.ts";
import { toolsAsIndentedJson } from "../tools-intro.ts";

const PYTHON_TAG = "<|python_tag|>";
const TURN_ENDS = ["<|eom_id|>", "<|eot_id|>"];

/** Splits `{…}; {…}` at the semicolons between top-level values (not those inside strings). */
export function splitAtSemicolons(text: string): { text: string; start: number }[] {
  const parts: { text: string; start: number }[] = [];
  let depth = 0;
  let quote = "";
  let escaped = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === ";" && depth === 0) {
      parts.push({ text: text.slice(start, i), start });
      start = i + 1;
    }
  }
  parts.push({ text: text.slice(start), start });
  return parts.filter((p) => p.text.trim() !== "");
}


/**
 * Reads one or more `;`-separated call objects. "parameters" is this format's own key: no
 * repair for it. A call cut off by the end of the output is reported as such while the whole
 * ones before it are calls; prose after the last call is text (vLLM and SGLang read it so).
 */
export function readLlamaJsonCalls(body: string): BodyReading {
  const parts = splitAtSemicolons(body);
  if (parts.length === 0) return { ok: false, kind: "missing-tool-name", message: "the call is empty" };
  const repairs: Repair[] = [];
  const outcomes: CandidateOutcome[] = [];
  let textAfter: number | undefined;
  const queue = [...parts];
  while (queue.length > 0 && textAfter === undefined) {
    let part = queue.shift()!;
    const length = leadingJsonLength(part.text);
    if (length === -1) {
      outcomes.push({ ok: false, kind: "unfinished-tool-call", message: "the call was cut off before it was complete" });
      break;
    }
    if (length !== undefined && part.text.slice(length).trim() !== "") {
      const rest = part.text.slice(length);
      // Calls one a line (vLLM reads a newline as a separator too); else prose: the calls end here.
      if (/^[ \t]*\r?\n\s*\{/.test(rest)) queue.unshift({ text: rest, start: part.start + length });
      else textAfter = part.start + length;
      part = { text: part.text.slice(0, length), start: part.start };
    }
    const parsed = parseJsonLenient(part.text);
    if (!parsed.ok) return { ok: false, kind: "invalid-json", message: `the call is not valid JSON: ${parsed.message}` };
    for (const r of parsed.repairs) repairs.push(r.span ? { ...r, span: { start: r.span.start + part.start, end: r.span.end + part.start } } : r);
    for (const item of Array.isArray(parsed.value) ? parsed.value : [parsed.value]) {
      const outcome = readCallObject(item);
      if (outcome.ok) outcome.call.repairs = outcome.call.repairs.filter((r) => r.kind !== "parameters-key");
      outcomes.push(outcome);
    }
  }
  return { ok: true, outcomes, repairs, complete: true, ...(textAfter !== undefined ? { textAfter } : {}) };
}

/** The JSON values of `{…}; {…}` or of values one a line (a fenced or unreadable part is kept whole). */
function jsonValues(text: string): string[] {
  return splitAtSemicolons(text).flatMap((part) => {
    const values: string[] = [];
    let rest = part.text;
    for (;;) {
      const length = leadingJsonLength(rest);
      if (length === undefined || length < 0 || rest.slice(length).trim() === "") return [...values, rest];
      values.push(rest.slice(0, length));
      rest = rest.slice(length);
    }
  });
}

/** Without <|python_tag|>: an output that is nothing but `;`-separated call objects. */
const bareLlamaJson: BareCallSyntax = {
  startsWith: "{`",
  // At the start of the output, prose may follow (as vLLM and SGLang read it). Not after prose:
  // a tool's JSON result quoted in an answer would then be a call.
  placement: "start",
  tracker: () => new BareCallTracker({ separator: ";", newlineSeparates: true }),
  read: (text, tools) => (jsonValues(text).every((value) => looksLikeJsonCall(value, tools)) ? readLlamaJsonCalls(text) : undefined),
  describe: () => "call objects",
  // The prompt asks for exactly this form.
  ownForm: true,
};

/**
 * A call is JSON after <|python_tag|>, to the end of the turn; or the whole output is call
 * objects without the tag, as Meta's docs show it. Lenient readings: "arguments" for
 * "parameters", a ``` fence around the JSON, an OpenAI-shaped call object.
 */
const llama3JsonSyntax: CallSyntax = {
  markers: [{ open: PYTHON_TAG, ends: TURN_ENDS, body: "json", read: readLlamaJsonCalls, interrupts: true, nameOf: jsonCallName, readsCutOff: true }],
  bare: bareLlamaJson,
};

export function renderLlama3JsonCall(call: ToolCall): string {
  return protectJson(`{"name": ${JSON.stringify(call.name)}, "parameters": ${pythonStyleJson(call.arguments)}}`);
}

export const llama3JsonProtocol: Protocol = {
  name: "llama3-json",
  label: "Llama 3 JSON (<|python_tag|>{…})",
  systemPrompt: (tools) =>
    tools.length === 0
      ? ""
      : [
          "Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.",
          "",
          'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}. Do not use variables.',
          'To call several functions, separate the JSON objects with "; ". If no function fits, answer in plain text.',
          "",
          toolsAsIndentedJson(tools),
        ].join("\n"),
  renderAssistant: (message) => {
    const calls = message.toolCalls ?? [];
    return joinAssistantTurn(message.content, calls.length > 0 ? [PYTHON_TAG + calls.map(renderLlama3JsonCall).join("; ")] : []);
  },
  // The ipython turn carries the result as it is; the escaper keeps it from ending the turn.
  renderToolResult: (message, escape = toolResultEscaper([])) => escape(message.content),
  toolResultRole: "tool",
  reservedMarkers: [PYTHON_TAG, ...TURN_ENDS, "<|start_header_id|>", "<|end_header_id|>"],
  createParser: (tools) => new ToolCallScanner(llama3JsonSyntax, tools),
  // A call may open with <|python_tag|> (as the history writes it) or without (as Meta's docs show it).
  structuralTag: (tools, choice) => {
    const tag = (prefix: string) => jsonCallStructuralTag(tools, choice, { trigger: `${prefix}{"name": "`, begin: (name) => `${prefix}{"name": ${JSON.stringify(name)}, "parameters": `, end: "}" });
    const [tagged, bare] = [tag(PYTHON_TAG).format, tag("").format] as Extract<StructuralTagFormat, { type: "triggered_tags" }>[];
    return { type: "structural_tag", format: { ...bare!, triggers: [...tagged!.triggers, ...bare!.triggers], tags: [...tagged!.tags, ...bare!.tags] } };
  },
};
