// The deepseek-v32 protocol: DeepSeek V3.2's DSML tool calls,
//   <｜DSML｜function_calls>
//   <｜DSML｜invoke name="get_weather">
//   <｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>
//   <｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>
//   </｜DSML｜invoke>
//   </｜DSML｜function_calls>
// `string="true"` values are text as is, `string="false"` ones JSON; both are coerced to the
// tool's schema. An invoke may hold its arguments as one JSON object instead (SGLang reads
// both). Results go back in <function_results><result>…</result></function_results>.
import type { BodyReading, CandidateOutcome } from "../../parser/call-candidate.ts";
import type { CallSyntax } from "../../parser/call-syntax.ts";
import { readCallObject } from "../../parser/json-call.ts";
import { readElements } from "../../parser/markup.ts";
import { readMarkupCallBody } from "../../parser/markup-call.ts";
import { ToolCallScanner } from "../../parser/scanner.ts";
import { parseJsonLenient, type Repair } from "../../repair/json-repair.ts";
import type { JsonSchema, Protocol, ToolCall, ToolSpec } from "../../types.ts";
import { toolResultEscaper } from "../escape-tool-result.ts";
import { encodeMarkerEscapes, protectJson } from "../protect-markers.ts";
import { pythonStyleJson } from "../python-json.ts";
import { callStructuralTag } from "../structural-tags.ts";
import { taggedArgumentsGrammar } from "../tagged-arguments-grammar.ts";
import { joinAssistantTurn } from "../tool-response.ts";

const DSML = "｜DSML｜";
const OPEN = `<${DSML}function_calls>`;
const CLOSE = `</${DSML}function_calls>`;
const RESERVED = [OPEN, CLOSE, `<${DSML}invoke`, `</${DSML}invoke>`, `<${DSML}parameter`, `</${DSML}parameter>`, "<function_results>", "</function_results>", "<result>", "</result>"];
const INVOKE_NAME = new RegExp(`^\\s*<${DSML}invoke\\s+name="([^"]+)"`);

/** The block's markup with the DSML prefix taken off its tags, for the markup reader. */
const plainTags = (body: string) => body.split(`</${DSML}`).join("</").split(`<${DSML}`).join("<");

/** Reads the invokes of a block: `<parameter>` children, or one JSON object as the arguments. */
export function readDsmlCalls(body: string, tools: readonly ToolSpec[]): BodyReading {
  const markup = plainTags(body);
  const invokes = readElements(markup).elements.filter((e) => e.tag === "invoke" && e.name);
  if (invokes.length === 0) return { ok: false, kind: "missing-tool-name", message: `the function calls hold no <${DSML}invoke name="…">` };
  const outcomes: CandidateOutcome[] = [];
  const repairs: Repair[] = [];
  let complete = true;
  for (const invoke of invokes) {
    if (!invoke.closed) complete = false;
    const name = invoke.name!;
    if (invoke.children.length === 0 && invoke.raw.trim().startsWith("{")) {
      const parsed = parseJsonLenient(invoke.raw);
      outcomes.push(parsed.ok ? readCallObject(parsed.value, name) : { ok: false, kind: "invalid-json", name, message: `the arguments of ${name} are not valid JSON: ${parsed.message}` });
      continue;
    }
    if (invoke.children.length === 0 && invoke.raw.trim() !== "") {
      // Words where the parameters belong: not a call of NAME with no arguments.
      outcomes.push({ ok: false, kind: "invalid-call", name, message: `the invoke of ${name} holds text that is neither <${DSML}parameter> tags nor a JSON object` });
      continue;
    }
    const reading = readMarkupCallBody(`<invoke name="${name}">${invoke.raw}</invoke>`, tools);
    if (!reading.ok) outcomes.push({ ok: false, kind: reading.kind, name, message: reading.message });
    else {
      outcomes.push(...reading.outcomes);
      repairs.push(...reading.repairs);
      if (!reading.complete) complete = false;
    }
  }
  return { ok: true, outcomes, repairs, complete };
}

const INVOKE_OPEN = `<${DSML}invoke`;
const INVOKE_CLOSE = `</${DSML}invoke>`;

/**
 * A block of invokes; and an invoke written without its block, which SGLang's detector reads as
 * a call too (inside a block an invoke is the block's text: it does not interrupt it).
 */
const dsmlSyntax: CallSyntax = {
  markers: [
    { open: OPEN, close: CLOSE, read: readDsmlCalls, interrupts: true, dropStrayClose: true, nameOf: (head) => INVOKE_NAME.exec(head)?.[1] },
    { open: INVOKE_OPEN, close: INVOKE_CLOSE, bodyPrefix: INVOKE_OPEN, bodySuffix: INVOKE_CLOSE, read: readDsmlCalls, nameOf: (head) => INVOKE_NAME.exec(head)?.[1] },
  ],
};

const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** Whether a parameter of this schema is written as text (`string="true"`). */
function isText(schema: unknown): boolean {
  const type = (schema as JsonSchema | undefined)?.type;
  return type === "string" || type === undefined;
}

function renderInvoke(call: ToolCall): string {
  const params = Object.entries(call.arguments).map(([key, value]) => {
    const text = typeof value === "string";
    return `<${DSML}parameter name="${attribute(key)}" string="${text}">${encodeMarkerEscapes(text ? value : JSON.stringify(value))}</${DSML}parameter>\n`;
  });
  return `<${DSML}invoke name="${attribute(call.name)}">\n${params.join("")}</${DSML}invoke>`;
}

export const deepSeekV32Protocol: Protocol = {
  name: "deepseek-v32",
  label: "DeepSeek V3.2 (<｜DSML｜function_calls>)",
  systemPrompt: (tools) =>
    tools.length === 0
      ? ""
      : [
          "## Tools",
          "",
          `You have access to a set of tools you can use to answer the user's question. You can invoke functions by writing a "${OPEN}" block like the following as part of your reply:`,
          OPEN,
          `<${DSML}invoke name="$FUNCTION_NAME">`,
          `<${DSML}parameter name="$PARAMETER_NAME" string="true|false">$PARAMETER_VALUE</${DSML}parameter>`,
          "...",
          `</${DSML}invoke>`,
          CLOSE,
          "",
          'String parameters are written as they are, without escaping or quotes, with string="true"; numbers, booleans, lists and objects are written as JSON, with string="false".',
          "",
          "Here are the functions available in JSONSchema format:",
          "<functions>",
          ...tools.map((t) => protectJson(pythonStyleJson({ name: t.name, description: t.description, parameters: t.parameters }))),
          "</functions>",
        ].join("\n"),
  renderAssistant: (message) => {
    const calls = message.toolCalls ?? [];
    return joinAssistantTurn(message.content, calls.length > 0 ? [`${OPEN}\n${calls.map(renderInvoke).join("\n")}\n${CLOSE}`] : []);
  },
  renderToolResult: (message, escape = toolResultEscaper(RESERVED)) => `<result>${escape(message.content)}</result>`,
  joinToolResults: (rendered) => `<function_results>\n${rendered.join("\n")}\n</function_results>`,
  reservedMarkers: RESERVED,
  createParser: (tools) => new ToolCallScanner(dsmlSyntax, tools),
  structuralTag: (tools, choice) =>
    callStructuralTag(tools, choice, {
      trigger: OPEN,
      begin: (name) => `${OPEN}\n<${DSML}invoke name="${attribute(name)}">\n`,
      content: (tool) => {
        const properties = (tool.parameters.properties ?? {}) as Record<string, unknown>;
        const grammar = taggedArgumentsGrammar(tool.parameters, (key) => [`<${DSML}parameter name="${attribute(key)}" string="${isText(properties[key])}">`, `</${DSML}parameter>\n`]);
        return { type: "grammar", grammar };
      },
      end: `</${DSML}invoke>\n${CLOSE}`,
    }),
};

