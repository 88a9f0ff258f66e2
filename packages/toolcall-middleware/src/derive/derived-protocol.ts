// A protocol made from a derived format (derive-format.ts): the scanner reads the derived
// markers, each call is read as the template writes it, and repair, schema coercion and
// validation happen in the shared core as for every hand-written protocol. The tool section is
// the template's own, rendered for the tools at hand, when a renderer is given.
import { BareCallTracker as BareTracker } from "../parser/bare-call-tracker.ts";
import type { BodyReading, CandidateOutcome } from "../parser/call-candidate.ts";
import type { CallMarker, CallSyntax } from "../parser/call-syntax.ts";
import { findDelimitedCalls } from "../parser/delimited-calls.ts";
import { leadingJsonLength } from "../parser/json-call.ts";
import { ToolCallScanner } from "../parser/scanner.ts";
import { parseJsonLenient, type Repair } from "../repair/json-repair.ts";
import { toolResultEscaper } from "../protocols/escape-tool-result.ts";
import { renderToolResponse } from "../protocols/tool-response.ts";
import { rethrowPending } from "../templates/render-pending.ts";
import { callStructuralTag } from "../protocols/structural-tags.ts";
import { probeId } from "./probes.ts";
import type { JsonSchema, Protocol, StructuralTag, ToolCall, ToolChoice, ToolSpec } from "../types.ts";
import { taggedArgumentsGrammar, type TagPiece } from "../protocols/tagged-arguments-grammar.ts";
import { valueKind, type DerivedFormat, type ValueKind } from "./derive-format.ts";
import { differingPart, PROBE_USER, type TemplateRenderer, widenToTokens } from "./probes.ts";
import { escapeRegExp } from "../text/escape-regexp.ts";

/** The first whitespace-free run of a marker: what the scanner watches for. */
function leadingToken(marker: string): string {
  return marker.split(/\s+/)[0] ?? marker;
}

/** The last whitespace-free run of a marker. */
function trailingToken(marker: string): string {
  const runs = marker.split(/\s+/);
  return runs[runs.length - 1] ?? marker;
}

/** A marker matched with any blanks where it has blanks (a model may break lines differently). */
function looseMarker(marker: string): RegExp {
  return new RegExp(
    marker
      .trim()
      .split(/\s+/)
      .map(escapeRegExp)
      .join("\\s*"),
    "g",
  );
}

/** Finds `marker` in `text` from `from`: exactly, else with blanks loosened. */
function findMarker(text: string, marker: string, from: number): { start: number; end: number } | undefined {
  const exact = text.indexOf(marker, from);
  const pattern = looseMarker(marker);
  pattern.lastIndex = from;
  const loose = pattern.exec(text);
  if (exact >= 0 && (!loose || exact <= loose.index)) return { start: exact, end: exact + marker.length };
  if (loose) return { start: loose.index, end: loose.index + loose[0].length };
  return undefined;
}

/** Removes `marker` (loosely) from the start of `text`, when it is there. */
function stripLeading(text: string, marker: string): string {
  if (marker.trim() === "") return text;
  const found = findMarker(text, marker, 0);
  return found && text.slice(0, found.start).trim() === "" ? text.slice(found.end) : text;
}

/** Removes `marker` (loosely) from the end of `text`, when it is there. */
function stripTrailing(text: string, marker: string): string {
  if (marker.trim() === "") return text;
  const pattern = new RegExp(`${looseMarker(marker).source}\\s*$`);
  const found = pattern.exec(text);
  return found ? text.slice(0, found.index) : text;
}

function schemaTypes(schema: unknown): string[] {
  const type = (schema as JsonSchema | undefined)?.type;
  return typeof type === "string" ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
}

/** Python's literals (True, None, 'text') as JSON, for templates that write values as Python does. */
function pythonToJson(text: string): string {
  return text.replace(/'((?:[^'\\]|\\.)*)'|\bTrue\b|\bFalse\b|\bNone\b/g, (match, quoted: string | undefined) => {
    if (quoted !== undefined) return JSON.stringify(quoted.replace(/\\'/g, "'"));
    return match === "True" ? "true" : match === "False" ? "false" : "null";
  });
}

/** A tagged value as its schema wants it: text for a string, else its JSON (or Python) reading. */
function taggedValue(raw: string, schema: unknown, values: "json" | "python"): unknown {
  if (schemaTypes(schema).length === 1 && schemaTypes(schema)[0] === "string") return raw;
  for (const candidate of values === "python" ? [pythonToJson(raw), raw] : [raw]) {
    try {
      return JSON.parse(candidate);
    } catch {
      // the next reading
    }
  }
  // Left as text; the schema coercion says what it changed.
  return raw;
}

/** The text a derived format writes after a call's name for its index (or its id: the probes' form, nine letters and digits, as Mistral's templates require). */
function indexText(nameIndex: string, index: number): string {
  return nameIndex.replace("{index}", String(index)).replace("{index1}", String(index + 1)).replace("{id}", probeId(index));
}

/** Splits a call's text into its name (index removed) and the text after `afterName`. */
function nameAndRest(text: string, afterName: string, nameIndex: string | undefined, keyOpen?: string): { name: string; rest: string } | undefined {
  let name: string;
  let rest: string;
  if (afterName.trim() === "" && keyOpen !== undefined && findMarker(text, keyOpen, 0)) {
    // Nothing but blanks between the name and the first argument's tag (`<tool_call>f<arg_key>…`).
    const found = findMarker(text, keyOpen, 0)!;
    name = text.slice(0, found.start).trim();
    rest = text.slice(found.start);
  } else if (afterName.trim() === "") {
    const match = /^\s*([A-Za-z_][\w.-]*)/.exec(text);
    if (!match) return undefined;
    name = match[1]!;
    rest = text.slice(match[0].length);
  } else {
    const found = findMarker(text, afterName, 0);
    if (!found) return undefined;
    name = text.slice(0, found.start).trim();
    rest = text.slice(found.end);
  }
  if (nameIndex) {
    const pattern = new RegExp(`${escapeRegExp(nameIndex).replace(/\\\{index1?\\\}/, "\\d+").replace(/\\\{id\\\}/, "[A-Za-z0-9]+")}$`);
    name = name.replace(pattern, "");
  }
  if (!/^[A-Za-z_][\w.-]*$/.test(name)) return undefined;
  return { name, rest };
}

/** Reads one call's text (its markers removed) as the format writes it. */
function readOneCall(text: string, format: DerivedFormat, tools: readonly ToolSpec[], repairs: Repair[]): CandidateOutcome {
  const shape = format.call;
  if (shape.kind === "json-object") {
    const parsed = parseJsonLenient(text.trim());
    if (!parsed.ok) return { ok: false, kind: "invalid-json", message: `the call is not valid JSON: ${parsed.message}` };
    repairs.push(...parsed.repairs.map(({ kind, message, before, after }) => ({ kind, message, before, after })));
    return readCallObject(parsed.value, shape.nameKey, shape.argumentsKey);
  }
  const split = nameAndRest(text, shape.afterName, shape.nameIndex, shape.kind === "name-then-tagged" ? shape.keyOpen : undefined);
  if (!split) return { ok: false, kind: "missing-tool-name", message: "the call does not begin with a tool's name" };
  const { name, rest } = split;
  if (shape.kind === "name-then-json") {
    const body = rest.replace(/^\s+/, "");
    if (body === "") return { ok: true, call: { name, arguments: {}, repairs: [] } };
    const length = leadingJsonLength(body);
    const json = length !== undefined && length > 0 ? body.slice(0, length) : body;
    const parsed = parseJsonLenient(json);
    if (!parsed.ok) return { ok: false, kind: "invalid-json", name, message: `the arguments of ${name} are not valid JSON: ${parsed.message}` };
    repairs.push(...parsed.repairs.map(({ kind, message, before, after }) => ({ kind, message, before, after })));
    return { ok: true, call: { name, arguments: parsed.value, repairs: [] } };
  }
  const properties = ((tools.find((t) => t.name === name)?.parameters as JsonSchema | undefined)?.properties ?? {}) as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  let at = 0;
  for (;;) {
    const keyOpen = findMarker(rest, shape.keyOpen, at);
    if (!keyOpen) break;
    const keyValue = findKeyValue(rest, shape.keyValue, shape.keyValueEnd, keyOpen.end);
    if (!keyValue) return { ok: false, kind: "invalid-call", name, message: `an argument of ${name} has a key without its value` };
    const key = rest.slice(keyOpen.end, keyValue.start).trim();
    const valueClose = findMarker(rest, shape.valueClose, keyValue.end);
    if (!valueClose) return { ok: false, kind: "invalid-call", name, message: `the value of ${key} in ${name} is not closed` };
    args[key] = taggedValue(rest.slice(keyValue.end, valueClose.start), properties[key], shape.values);
    at = valueClose.end;
  }
  return { ok: true, call: { name, arguments: args, repairs: [] } };
}

/** The text between a key and its value: `keyValue`, or `keyValue WORD keyValueEnd`. */
function findKeyValue(text: string, keyValue: string, keyValueEnd: string | undefined, from: number): { start: number; end: number } | undefined {
  if (keyValueEnd === undefined) return keyValue === "" ? { start: from, end: from } : findMarker(text, keyValue, from);
  const pattern = new RegExp(`${escapeRegExp(keyValue)}[\\w-]*${escapeRegExp(keyValueEnd)}`, "g");
  pattern.lastIndex = from;
  const found = pattern.exec(text);
  return found ? { start: found.index, end: found.index + found[0].length } : undefined;
}

function readCallObject(value: unknown, nameKey: string, argumentsKey: string): CandidateOutcome {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, kind: "invalid-call", message: "the call is not a JSON object" };
  const object = value as Record<string, unknown>;
  if (nameKey === "") {
    const entries = Object.entries(object);
    if (entries.length !== 1) return { ok: false, kind: "invalid-call", message: "the call object does not hold one tool's name as its one key" };
    return { ok: true, call: { name: entries[0]![0], arguments: entries[0]![1] as unknown, repairs: [] } };
  }
  const name = object[nameKey];
  if (typeof name !== "string" || name.trim() === "") return { ok: false, kind: "missing-tool-name", message: `the call object has no "${nameKey}"` };
  let args: unknown = object[argumentsKey] ?? {};
  if (typeof args === "string") {
    const parsed = parseJsonLenient(args);
    if (!parsed.ok) return { ok: false, kind: "invalid-json", name, message: `the arguments of ${name} are a string that is not JSON` };
    args = parsed.value;
  }
  return { ok: true, call: { name: name.trim(), arguments: args, repairs: [] } };
}

/**
 * The JSON values of a text: one array, or objects one after the other (a line each, or with
 * commas: a section whose `[` and `]` are its markers' own).
 */
function jsonValues(text: string): { ok: true; values: unknown[] } | { ok: false; message: string } {
  const values: unknown[] = [];
  let rest = text.trim();
  if (rest.startsWith("[") && rest.endsWith("]")) {
    const parsed = parseJsonLenient(rest);
    if (parsed.ok && Array.isArray(parsed.value)) return { ok: true, values: parsed.value };
  }
  rest = rest.replace(/^\[/, "").replace(/\]$/, "");
  for (;;) {
    rest = rest.replace(/^[\s,]+/, "");
    if (rest === "") return { ok: true, values };
    const length = leadingJsonLength(rest);
    const piece = length !== undefined && length > 0 ? rest.slice(0, length) : rest;
    const parsed = parseJsonLenient(piece);
    if (!parsed.ok) return { ok: false, message: parsed.message };
    values.push(parsed.value);
    rest = rest.slice(piece.length);
  }
}

/** Reads the text between the scanner's open and close: a section of calls, or one call. */
function readBody(body: string, format: DerivedFormat, tools: readonly ToolSpec[], opened: string, closed: string): BodyReading {
  const repairs: Repair[] = [];
  const inner = stripTrailing(stripLeading(body, opened), closed);
  const inSection = format.sectionOpen !== "";
  if (!inSection || format.callOpen === "") {
    if (format.call.kind === "json-object") {
      const items = jsonValues(inSection ? inner : stripTrailing(inner, format.callClose));
      if (!items.ok) return { ok: false, kind: "invalid-json", message: `the calls are not valid JSON: ${items.message}` };
      if (items.values.length === 0) return { ok: false, kind: "missing-tool-name", message: "the section holds no call" };
      const shape = format.call;
      return { ok: true, outcomes: items.values.map((item) => readCallObject(item, shape.nameKey, shape.argumentsKey)), repairs, complete: true };
    }
    const text = inSection ? inner : stripTrailing(inner, format.callClose);
    return { ok: true, outcomes: [readOneCall(text, format, tools, repairs)], repairs, complete: true };
  }
  const open = format.callOpen;
  const close = format.callClose;
  const outcomes: CandidateOutcome[] = [];
  if (close !== "" && format.call.kind !== "name-then-tagged") {
    const { first, calls } = findDelimitedCalls(inner, open, close);
    if (first < 0) return { ok: false, kind: "missing-tool-name", message: `the section holds no ${open}` };
    for (const call of calls) outcomes.push(readOneCall(inner.slice(call.start, call.end), format, tools, repairs));
  } else {
    let at = findMarker(inner, open, 0);
    if (!at) return { ok: false, kind: "missing-tool-name", message: `the section holds no ${open}` };
    while (at) {
      const next = findMarker(inner, open, at.end);
      const end = close !== "" ? findMarker(inner, close, at.end) : undefined;
      const stop = end && (!next || end.start < next.start) ? end.start : (next?.start ?? inner.length);
      outcomes.push(readOneCall(inner.slice(at.end, stop), format, tools, repairs));
      at = next;
    }
  }
  return { ok: true, outcomes, repairs, complete: true };
}

/** The scanner's view of the format: which marker opens the calls, which closes them. */
export function derivedSyntax(format: DerivedFormat): CallSyntax {
  let outer = format.sectionOpen !== "" ? { open: format.sectionOpen, close: format.sectionClose } : { open: format.callOpen, close: format.callClose };
  // A JSON array's brackets are the body's (`[TOOL_CALLS]` + `[{…}, {…}]`): followed as JSON, a `]` inside an argument is not the end.
  const jsonArray = format.call.kind === "json-object" && outer.open.endsWith("[") && outer.close.startsWith("]");
  if (jsonArray) outer = { open: outer.open.slice(0, -1), close: outer.close.slice(1) };
  // The reply's framing (derive-format.ts) is consumed where it stands outside a call, with the reasoning tags or alone.
  const framing = format.framing && format.framing.length > 0 ? { framing: format.framing } : {};
  const reasoning = format.reasoning
    ? { open: format.reasoning.open, close: format.reasoning.close, ...framing }
    : format.framing && format.framing.length > 0
      ? { open: "", close: "", ...framing }
      : null;
  if (outer.open === "") {
    // A call object with nothing around it (Llama 3.1's `{"name": …, "parameters": …}`): the whole output is the call.
    return {
      markers: [],
      bare: {
        startsWith: "{[",
        tracker: () => new BareTracker(),
        read: (text, tools) => {
          const reading = readBody(text, format, tools, "", "");
          return reading.ok && reading.outcomes.every((o) => o.ok) ? reading : undefined;
        },
        describe: () => "a call object",
        ownForm: true,
      },
      reasoning,
    };
  }
  const open = leadingToken(outer.open);
  const close = outer.close === "" ? undefined : trailingToken(outer.close);
  const marker: CallMarker = {
    open,
    ...(close !== undefined ? { close } : {}),
    // A JSON section is followed as JSON, so a `]` inside an argument is not its end.
    body: format.call.kind === "json-object" ? "json" : "raw",
    ...(jsonArray && close === undefined ? { endsWithValue: true } : {}),
    read: (body, tools) => readBody(body, format, tools, outer.open.slice(open.length), close !== undefined ? outer.close.slice(0, outer.close.length - close.length) : ""),
    interrupts: true,
    dropStrayClose: close !== undefined,
  };
  return { markers: [marker], reasoning };
}

/** One call as the format writes it. */
export function writeDerivedCall(format: DerivedFormat, call: ToolCall, index: number): string {
  const shape = format.call;
  let unit: string;
  if (shape.kind === "json-object") {
    const args = shape.argumentsAsString ? JSON.stringify(JSON.stringify(call.arguments)) : JSON.stringify(call.arguments);
    unit =
      shape.nameKey === ""
        ? `{${JSON.stringify(call.name)}: ${JSON.stringify(call.arguments)}}`
        : `{${JSON.stringify(shape.nameKey)}: ${JSON.stringify(call.name)}, ${JSON.stringify(shape.argumentsKey)}: ${args}}`;
  } else {
    const name = call.name + (shape.nameIndex ? indexText(shape.nameIndex, index) : "");
    if (shape.kind === "name-then-json") unit = `${name}${shape.afterName}${JSON.stringify(call.arguments)}`;
    else
      unit = `${name}${shape.afterName}${Object.entries(call.arguments)
        .map(([key, value]) => {
          const typed = shape.keyValueEnd === undefined ? "" : `${shape.typeWords?.[valueKind(value)] ?? ""}${shape.keyValueEnd}`;
          return `${shape.keyOpen}${key}${shape.keyValue}${typed}${typeof value === "string" ? value : JSON.stringify(value)}${shape.valueClose}`;
        })
        .join("")}`;
  }
  return `${format.callOpen}${unit}${format.callClose}`;
}

/** An assistant turn's calls as the format writes them: in their section, one after another. */
export function writeDerivedCalls(format: DerivedFormat, calls: readonly ToolCall[]): string {
  if (calls.length === 0) return "";
  const separator = format.separator === "," ? ", " : format.separator || "\n";
  const body = calls.map((call, index) => writeDerivedCall(format, call, index)).join(separator);
  return `${format.sectionOpen}${body}${format.sectionClose}`;
}

/** The kinds of value a schema allows (integers and numbers alike); empty when it does not say. */
function schemaKinds(schema: JsonSchema | undefined): ValueKind[] {
  const kinds = schemaTypes(schema).map((type): ValueKind | undefined =>
    type === "integer" || type === "number" ? "number" : type === "string" || type === "boolean" || type === "array" || type === "object" || type === "null" ? type : undefined,
  );
  return kinds.every((kind) => kind !== undefined) ? [...new Set(kinds as ValueKind[])] : [];
}

/**
 * The word a tagged format writes between keyValue and keyValueEnd for a value of this schema:
 * the word the template wrote for a probe value of that kind; several words where the schema
 * allows several kinds; any word where the probes did not show one (the reader ignores it).
 */
function typeWordPiece(schema: JsonSchema | undefined, typeWords: Partial<Record<ValueKind, string>> | undefined): TagPiece {
  const kinds = schemaKinds(schema);
  const words = kinds.map((kind) => typeWords?.[kind]);
  if (kinds.length > 0 && words.every((word) => word !== undefined)) return { oneOf: [...new Set(words as string[])] };
  return { anyWord: true };
}

/** The grammar of a tool's arguments in a tagged format: each as keyOpen KEY keyValue [WORD keyValueEnd] VALUE valueClose, in the schema's order. */
function taggedArgumentsOf(shape: Extract<DerivedFormat["call"], { kind: "name-then-tagged" }>, tool: ToolSpec): string {
  return taggedArgumentsGrammar(
    tool.parameters,
    (key, schema) => [
      shape.keyValueEnd === undefined ? [shape.keyOpen + key + shape.keyValue] : [shape.keyOpen + key + shape.keyValue, typeWordPiece(schema, shape.typeWords), shape.keyValueEnd],
      shape.valueClose,
    ],
    { booleans: shape.values },
  );
}

/**
 * The structural tag (constrained decoding) of a derived format: text is free until the call's
 * opening marker, then the call is one tool's, written as writeDerivedCall writes it — its
 * arguments one JSON object matching the tool's schema, or tagged one by one, each value as its
 * schema allows (tagged-arguments-grammar.ts). One call in its section, as the hand-written
 * protocols' tags have it. Undefined, with the reason, where a format cannot be held to a grammar
 * this way: no fixed text opens a call (nothing to trigger on), the arguments are a JSON string,
 * or a tagged value's close does not begin with `<` (a value's text is any text without `<`).
 */
export function derivedStructuralTag(format: DerivedFormat): { tag: (tools: readonly ToolSpec[], choice: ToolChoice) => StructuralTag } | { reason: string } {
  const shape = format.call;
  if (shape.kind === "json-object" && shape.argumentsAsString) return { reason: "its arguments are written as a JSON string" };
  if (shape.kind === "name-then-tagged" && !shape.valueClose.trimStart().startsWith("<")) return { reason: "a tagged value's close does not begin with `<`, so a value's text cannot be told from its end" };
  const opening = (format.sectionOpen + format.callOpen).replace(/^\s+/, "");
  if (opening === "") return { reason: "no fixed text opens a call" };
  const trigger = leadingToken(opening);
  const head = (name: string): string => {
    if (shape.kind === "json-object") {
      return shape.nameKey === "" ? `{${JSON.stringify(name)}: ` : `{${JSON.stringify(shape.nameKey)}: ${JSON.stringify(name)}, ${JSON.stringify(shape.argumentsKey)}: `;
    }
    const index = shape.nameIndex ? indexText(shape.nameIndex, 0) : "";
    return `${name}${index}${shape.afterName}`;
  };
  const tail = shape.kind === "json-object" ? "}" : "";
  return {
    tag: (tools, choice) =>
      callStructuralTag(tools, choice, {
        trigger,
        begin: (name) => opening + head(name),
        ...(shape.kind === "name-then-tagged" ? { content: (tool: ToolSpec) => ({ type: "grammar" as const, grammar: taggedArgumentsOf(shape, tool) }) } : {}),
        end: tail + format.callClose + format.sectionClose,
      }),
  };
}

export interface DerivedProtocolOptions {
  /** The protocol's registry name ("template:granite.jinja"). */
  name: string;
  label?: string;
  /** The template's renderer: the tool section is then the template's own rendering of the tools. */
  render?: TemplateRenderer;
}

const SYSTEM_PROBE = "PROBE_SYSTEM_PROMPT";

/** The text the template adds when the tools are offered (its tool section), or undefined where it adds none or will not render. */
export function templateToolSection(render: TemplateRenderer, tools: readonly ToolSpec[]): string | undefined {
  const asOpenAi = tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
  const variables = (withTools: boolean) => ({
    messages: [
      { role: "system", content: SYSTEM_PROBE },
      { role: "user", content: PROBE_USER },
    ],
    ...(withTools ? { tools: asOpenAi } : {}),
    add_generation_prompt: false,
    bos_token: "",
    eos_token: "",
  });
  try {
    const without = render(variables(false));
    const withTools = render(variables(true));
    const diff = differingPart(without, withTools);
    const { start, end } = widenToTokens(withTools, diff.start, diff.end);
    const section = withTools.slice(start, end).replace(SYSTEM_PROBE, "").trim();
    return section === "" ? undefined : section;
  } catch (error) {
    // Not rendered yet (the template renders in a worker): the caller settles and asks again.
    rethrowPending(error);
    return undefined;
  }
}

/** A protocol that reads (and writes) calls in a derived format. */
export function derivedProtocol(format: DerivedFormat, options: DerivedProtocolOptions): Protocol {
  const syntax = derivedSyntax(format);
  const constrained = derivedStructuralTag(format);
  const resultForm = format.toolResult;
  const markers = [
    format.sectionOpen,
    format.sectionClose,
    format.callOpen,
    format.callClose,
    format.reasoning?.open ?? "",
    format.reasoning?.close ?? "",
    ...(format.framing ?? []),
    ...(resultForm?.role === "user" ? [resultForm.open, resultForm.close] : []),
  ]
    .map((m) => m.trim())
    .filter((m) => m.length > 1);
  return {
    name: options.name,
    label: options.label ?? `Derived from the template (${options.name})`,
    systemPrompt: (tools) => {
      if (tools.length === 0) return "";
      const own = options.render ? templateToolSection(options.render, tools) : undefined;
      if (own !== undefined) return own;
      return [
        "You can call these tools:",
        JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))),
        "",
        "To call a tool, write the call in this format:",
        format.example,
      ].join("\n");
    },
    renderAssistant: (message) => [message.content.trim(), writeDerivedCalls(format, message.toolCalls ?? [])].filter((p) => p !== "").join("\n"),
    // A result is written the way the template writes it: inside its user turn with the template's own wrapper, or in its tool turn.
    ...(resultForm?.role === "user"
      ? { renderToolResult: (message, escape = toolResultEscaper(markers)) => `${resultForm.open}${escape(message.content)}${resultForm.close}`, toolResultRole: "user" as const }
      : resultForm?.role === "tool"
        ? { renderToolResult: (message, escape = toolResultEscaper(markers)) => escape(message.content), toolResultRole: "tool" as const }
        : { renderToolResult: (message, escape) => renderToolResponse(message, escape) }),
    reservedMarkers: [...new Set(markers)],
    createParser: (tools) => new ToolCallScanner(syntax, tools),
    ...("tag" in constrained ? { structuralTag: constrained.tag } : {}),
  };
}
