// Learns a template's tool-call format from the template alone: it is rendered with probe
// conversations (no call, one call, two calls, arguments of every JSON type, with and without
// reasoning), the renderings are compared, and the markers are read off the differences:
// the section around the calls, each call's start and end, where the name sits, whether the
// arguments are a JSON object or tagged, the reasoning markers. What cannot be decided is said,
// never guessed: the result is a format or a "cannot derive: …" reason.
import { deriveToolResultForm, type ToolResultForm } from "./tool-result-form.ts";
import { leadingJsonLength } from "../parser/json-call.ts";
import {
  ALPHA_ARGS,
  ALPHA_CALL,
  assistantMessage,
  BETA_CALL,
  commonPrefixLength,
  commonSuffixLength,
  differingPart,
  endsInsideToken,
  PROBE_ID_PREFIX,
  PROBE_REASONING,
  PROBE_TEXT,
  PROBE_USER,
  probeVariables,
  startsInsideToken,
  widenToTokens,
  type ProbeCall,
  type TemplateRenderer,
} from "./probes.ts";
import { escapeRegExp } from "../text/escape-regexp.ts";

/** How one call is written between its start and end markers. */
export type DerivedCallShape =
  /** One JSON object holds the name and the arguments: `{"name": "f", "arguments": {…}}`; with nameKey "" the name is the object's one key: `{"f": {…}}`. */
  | { kind: "json-object"; nameKey: string; argumentsKey: string; argumentsAsString: boolean }
  /** The name, then `afterName`, then the arguments as a JSON object. */
  | { kind: "name-then-json"; afterName: string; nameIndex?: string }
  /** The name, then `afterName`, then each argument as `keyOpen KEY keyValue VALUE valueClose`. */
  | {
      kind: "name-then-tagged";
      afterName: string;
      nameIndex?: string;
      keyOpen: string;
      keyValue: string;
      /** When the text between key and value varies with the value's type (` string="true">`, ` type="integer"`): it is keyValue, a word, keyValueEnd. */
      keyValueEnd?: string;
      valueClose: string;
      values: "json" | "python";
      /** With keyValueEnd: the word the template writes for a value of each JSON type (`string`: "true", `number`: "false"), as the probes showed it. */
      typeWords?: Partial<Record<ValueKind, string>>;
    };

/** A JSON value's kind as tagged formats tell them apart (integers and other numbers alike). */
export type ValueKind = "string" | "number" | "boolean" | "array" | "object" | "null";

export function valueKind(value: unknown): ValueKind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const kind = typeof value;
  return kind === "string" || kind === "number" || kind === "boolean" ? kind : "object";
}

/**
 * The word between keyValue and keyValueEnd for each kind of value, from the key-to-value texts
 * and the values they precede; undefined where one kind is given two words (the word then says
 * something else than the value's kind).
 */
function typeWordsOf(texts: readonly string[], values: readonly unknown[], shape: { keyValue: string; keyValueEnd?: string }): Partial<Record<ValueKind, string>> | undefined {
  if (shape.keyValueEnd === undefined) return undefined;
  const words: Partial<Record<ValueKind, string>> = {};
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    const word = text.slice(shape.keyValue.length, text.length - shape.keyValueEnd.length);
    const kind = valueKind(values[i]);
    if (words[kind] !== undefined && words[kind] !== word) return undefined;
    words[kind] = word;
  }
  return words;
}

export interface DerivedFormat {
  /** Text around all the calls of a turn ("" when each call stands alone). */
  sectionOpen: string;
  sectionClose: string;
  /** Text around each call ("" when the section holds a JSON array of call objects). */
  callOpen: string;
  callClose: string;
  /** Text between two calls. */
  separator: string;
  call: DerivedCallShape;
  /** The template refuses a second call in one turn, or writes only the first. */
  oneCallPerTurn: boolean;
  /**
   * Reasoning markers, when the template writes a message's reasoning, or an empty block, or
   * opens reasoning in its generation prompt when thinking is on. `generationPromptOpens`: the
   * generation prompt with thinking on (`enable_thinking`) ends with `open`.
   */
  reasoning?: { open: string; close: string; generationPromptOpens: boolean };
  /**
   * Texts the template writes around a reply that are not the reply (Cohere's `<|START_TEXT|>`,
   * `<|END_TEXT|>`; a turn's end written after it): read as framing, never as text.
   */
  framing?: string[];
  /** Two probe calls as the template writes them, for the reader to see. */
  example: string;
  /** How the template writes a tool's result back, where it writes one. */
  toolResult?: ToolResultForm;
}

export type Derivation = { ok: true; format: DerivedFormat } | { ok: false; reason: string };

const cannot = (reason: string): Derivation => ({ ok: false, reason: `cannot derive: ${reason}` });

/** What a probe render gave: its text, or why the template would not render it. */
function tryRender(render: TemplateRenderer, variables: Record<string, unknown>): { ok: true; text: string } | { ok: false; message: string } {
  try {
    return { ok: true, text: render(variables) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** The calls' text in a rendering with `calls`, against the same turn without calls. */
function callSection(render: TemplateRenderer, calls: readonly ProbeCall[]): { ok: true; text: string } | { ok: false; message: string } {
  // Against a turn with no text (some templates refuse an empty turn without calls: then against a turn of text, the text kept before the calls).
  let without = tryRender(render, probeVariables(assistantMessage("", [])));
  let withCalls = tryRender(render, probeVariables(assistantMessage("", calls)));
  if (!without.ok || !withCalls.ok) {
    without = tryRender(render, probeVariables(assistantMessage(PROBE_TEXT, [])));
    if (!without.ok) return without;
    withCalls = tryRender(render, probeVariables(assistantMessage(PROBE_TEXT, calls)));
    if (!withCalls.ok) return withCalls;
  }
  const diff = differingPart(without.text, withCalls.text);
  const { start, end } = widenToTokens(withCalls.text, diff.start, diff.end);
  return { ok: true, text: withCalls.text.slice(start, end) };
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A JSON value that starts at `start` of `text`: its end and value, if it parses. */
function jsonValueAt(text: string, start: number): { end: number; value: unknown } | undefined {
  const length = leadingJsonLength(text.slice(start));
  if (length === undefined || length <= 0) return undefined;
  try {
    return { end: start + length, value: JSON.parse(text.slice(start, start + length)) };
  } catch {
    return undefined;
  }
}

/** One call found in a rendering: where it begins and ends, and how it is written. */
interface FoundCall {
  start: number;
  end: number;
  shape: DerivedCallShape;
  /** For a name outside JSON: the text between the name and the arguments. */
  afterName?: string;
  /** For tagged arguments: the text between each key and its value, as written. */
  keyValues?: string[];
}

/** Finds `call` in `text` from `from`: a JSON object holding it, or its name followed by its arguments (JSON or tagged). */
function findCall(text: string, call: ProbeCall, from: number): FoundCall | { error: string } {
  const keys = Object.keys(call.arguments);
  const firstKey = text.indexOf(`"${keys[0]}"`, from);
  if (firstKey >= 0) {
    // The arguments object: the nearest `{` before the first key whose JSON value is the arguments.
    for (let brace = text.lastIndexOf("{", firstKey); brace >= from; brace = text.lastIndexOf("{", brace - 1)) {
      const args = jsonValueAt(text, brace);
      if (!args || !deepEqual(args.value, call.arguments)) continue;
      // The same object inside a call object ({"name": …, "arguments": {…}}), or after the name.
      for (let outer = text.lastIndexOf("{", brace - 1); outer >= from; outer = text.lastIndexOf("{", outer - 1)) {
        const object = jsonValueAt(text, outer);
        if (!object || object.end < args.end || typeof object.value !== "object" || object.value === null) continue;
        const entries = Object.entries(object.value as Record<string, unknown>);
        if (entries.length === 1 && entries[0]![0] === call.name && deepEqual(entries[0]![1], call.arguments))
          return { start: outer, end: object.end, shape: { kind: "json-object", nameKey: "", argumentsKey: "", argumentsAsString: false } };
        const nameKey = entries.find(([, v]) => v === call.name)?.[0];
        const argsEntry = entries.find(([, v]) => deepEqual(v, call.arguments) || (typeof v === "string" && safeParse(v, call.arguments)));
        if (nameKey && argsEntry) return { start: outer, end: object.end, shape: { kind: "json-object", nameKey, argumentsKey: argsEntry[0], argumentsAsString: typeof argsEntry[1] === "string" } };
      }
      const name = text.lastIndexOf(call.name, brace);
      if (name < from) return { error: `the arguments of ${call.name} are written as JSON, but its name is not before them` };
      return { start: name, end: args.end, shape: { kind: "name-then-json", afterName: text.slice(name + call.name.length, brace) }, afterName: text.slice(name + call.name.length, brace) };
    }
  }
  return findTaggedCall(text, call, from);
}

function safeParse(text: string, expected: unknown): boolean {
  try {
    return deepEqual(JSON.parse(text), expected);
  } catch {
    return false;
  }
}

/** A value as a tagged format writes it: strings verbatim, others as JSON or as Python writes them. */
function writtenValues(value: unknown, values: "json" | "python"): string[] {
  if (typeof value === "string") return [value];
  return values === "json" ? [JSON.stringify(value), spacedJson(value)] : [pythonRepr(value)];
}

/** JSON as Python's json.dumps and Jinja's tojson write it: `, ` and `: ` between items. */
function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(", ")}]`;
  if (typeof value === "object" && value !== null) return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${spacedJson(v)}`).join(", ")}}`;
  return JSON.stringify(value);
}

function pythonRepr(value: unknown): string {
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null) return "None";
  if (typeof value === "string") return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object") return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `'${k}': ${pythonRepr(v)}`).join(", ")}}`;
  return String(value);
}

/** Moves the start of `right` to `left` while `left` ends inside a bracketed token. */
function splitAtTokens(left: string, right: string): [string, string] {
  if (endsInsideToken(left) >= 0) {
    const close = startsInsideToken(right);
    if (close > 0) return [left + right.slice(0, close), right.slice(close)];
  }
  return [left, right];
}

/**
 * A call written as its name then tagged arguments (`<parameter=KEY>VALUE</parameter>`,
 * `<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>`): the pieces between the name, the keys
 * and the values give the tags. Needs two arguments, to tell the close of one value from the
 * open of the next key.
 */
function findTaggedCall(text: string, call: ProbeCall, from: number): FoundCall | { error: string } {
  const name = text.indexOf(call.name, from);
  if (name < 0) return { error: `the name ${call.name} is not in the call the template wrote` };
  const entries = Object.entries(call.arguments);
  if (entries.length < 2) return { error: "a tagged call needs two arguments to be read" };
  let values: "json" | "python" | undefined;
  const positions: { key: number; keyEnd: number; value: number; valueEnd: number }[] = [];
  let at = name + call.name.length;
  for (const [key, value] of entries) {
    const k = text.indexOf(key, at);
    if (k < 0) return { error: `the argument ${key} of ${call.name} is not in the call the template wrote` };
    let v = -1;
    let written = "";
    search: for (const style of values ? [values] : (["json", "python"] as const)) {
      for (const candidate of writtenValues(value, style)) {
        written = candidate;
        v = text.indexOf(written, k + key.length);
        if (v >= 0) {
          if (typeof value !== "string") values = style;
          break search;
        }
      }
    }
    if (v < 0) return { error: `the value of ${key} is written neither as JSON nor as Python writes it` };
    positions.push({ key: k, keyEnd: k + key.length, value: v, valueEnd: v + written.length });
    at = v + written.length;
  }
  const first = positions[0]!;
  const second = positions[1]!;
  const beforeFirstKey = text.slice(name + call.name.length, first.key);

  const between = text.slice(first.valueEnd, second.key);
  const keyValues = positions.map((p) => text.slice(p.keyEnd, p.value));
  const keyValueShape = keyValueOf(keyValues);
  if (!keyValueShape) return { error: "the text between an argument's key and its value differs from one argument to the next in more than a word" };
  const keyOpenLength = commonSuffixLength(between, beforeFirstKey);
  const [valueClose, keyOpen] = splitAtTokens(between.slice(0, between.length - keyOpenLength), between.slice(between.length - keyOpenLength));
  if (keyOpen === "" || valueClose === "") return { error: "the tags around an argument's key or value are empty" };
  const last = positions[positions.length - 1]!;
  if (!text.startsWith(valueClose, last.valueEnd)) return { error: "the last argument's value is not closed as the others are" };
  for (let i = 1; i < positions.length; i++) {
    const gap = text.slice(positions[i - 1]!.valueEnd, positions[i]!.key);
    if (gap !== valueClose + keyOpen) return { error: "the text between two arguments differs from one pair to the next" };
  }
  const afterName = beforeFirstKey.slice(0, beforeFirstKey.length - keyOpen.length);
  if (`${afterName}${keyOpen}` !== beforeFirstKey) return { error: "the text after the name does not end with the key's tag" };
  return {
    start: name,
    end: last.valueEnd + valueClose.length,
    shape: { kind: "name-then-tagged", afterName, keyOpen, ...keyValueShape, valueClose, values: values ?? "json", ...typeWordsField(keyValues, entries, keyValueShape) },
    afterName,
    keyValues,
  };
}

function typeWordsField(keyValues: readonly string[], entries: readonly [string, unknown][], shape: { keyValue: string; keyValueEnd?: string }): { typeWords?: Partial<Record<ValueKind, string>> } {
  const typeWords = typeWordsOf(keyValues, entries.map(([, value]) => value), shape);
  return typeWords ? { typeWords } : {};
}

/**
 * The text after the name in two calls: the same, or differing in the call's index
 * (`:0<|tool_call_argument_begin|>` and `:1<|…`), which becomes `nameIndex` (`:{index}`).
 */
function reconcileAfterName(a: string, b: string): { afterName: string; nameIndex?: string } | undefined {
  if (a === b) return { afterName: a };
  const suffix = commonSuffixLength(a, b);
  const prefix = commonPrefixLength(a, b);
  const aMiddle = a.slice(prefix, a.length - suffix);
  const bMiddle = b.slice(prefix, b.length - suffix);
  // Call indexes counted from 0 or from 1.
  if (!((aMiddle === "0" && bMiddle === "1") || (aMiddle === "1" && bMiddle === "2"))) return undefined;
  // The index sits in the part before the shared text (`:0`), ended at a whole token.
  let [indexPart, rest] = splitAtTokens(a.slice(0, a.length - suffix), a.slice(a.length - suffix));
  const open = endsInsideToken(indexPart);
  if (open >= 0 && open <= prefix) [indexPart, rest] = [indexPart.slice(0, open), indexPart.slice(open) + rest];
  if (prefix >= indexPart.length) return undefined;
  const placeholder = aMiddle === "0" ? "{index}" : "{index1}";
  const nameIndex = `${indexPart.slice(0, prefix)}${placeholder}${indexPart.slice(prefix + 1)}`;
  // The probes' own call id (Mistral's `[CALL_ID]call00000`): the template writes the call's id
  // there, which a model makes up (nine letters and digits), so any id is read there: `{id}`.
  return { afterName: rest, nameIndex: nameIndex.replace(`${PROBE_ID_PREFIX}{index}`, "{id}") };
}

function trimEdges(text: string): string {
  return text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
}

/**
 * The renderer, each distinct set of variables rendered once: the probes ask for the same
 * conversation more than once (the plain reply, the generation prompt), and a render is most of
 * a derivation's time.
 */
function renderingOnce(render: TemplateRenderer): TemplateRenderer {
  const done = new Map<string, { text: string } | { error: unknown }>();
  return (variables) => {
    const key = JSON.stringify(variables);
    let result = done.get(key);
    if (!result) {
      try {
        result = { text: render(variables) };
      } catch (error) {
        result = { error };
      }
      done.set(key, result);
    }
    if ("error" in result) throw result.error;
    return result.text;
  };
}

/** Derives the tool-call format of the template `given` runs. */
export function deriveFormat(given: TemplateRenderer): Derivation {
  const render = renderingOnce(given);
  const { plain, toolsCancel } = plainConversation(render);
  if (!plain.ok) return cannot(`the template does not render a plain conversation: ${plain.message}`);
  if (plain.text.trim() === "") return cannot("the template renders nothing for a conversation");
  if (!plain.text.includes(PROBE_TEXT)) return cannot("the template does not write the assistant's reply");

  // The turn's end (`<|im_end|>`): it follows a reply with or without calls, and is not the calls' own.
  const turnEnd = trimEdges(plain.text.slice(plain.text.lastIndexOf(PROBE_TEXT) + PROBE_TEXT.length));
  const withoutTurnEnd = (text: string) => {
    const trimmed = trimEdges(text);
    return turnEnd !== "" && trimmed.endsWith(turnEnd) ? trimmed.slice(0, trimmed.length - turnEnd.length) : text;
  };
  const one = callSection(render, [ALPHA_CALL]);
  if (!one.ok) return cannot(`the template throws for a tool call: ${one.message}`);
  if (one.text.trim() === "") return cannot("the template writes nothing for a tool call (it has no tool calls)");
  if (!one.text.includes(ALPHA_CALL.name)) return cannot("the template writes something for a tool call, but not the tool's name");
  const s1 = one.text;
  const c1 = findCall(s1, ALPHA_CALL, 0);
  if ("error" in c1) return cannot(c1.error);

  const two = callSection(render, [ALPHA_CALL, BETA_CALL]);
  let oneCallPerTurn = false;
  let head = s1.slice(0, c1.start);
  let tail = s1.slice(c1.end);
  let callOpen = "";
  let callClose = "";
  let separator = "";
  let shape: DerivedCallShape = c1.shape;
  let example = s1;
  if (!two.ok || !two.text.includes(BETA_CALL.name)) {
    oneCallPerTurn = true;
  } else {
    example = two.text;
    const a = findCall(two.text, ALPHA_CALL, 0);
    if ("error" in a) return cannot(`in a turn of two calls, ${a.error}`);
    const b = findCall(two.text, BETA_CALL, a.end);
    if ("error" in b) return cannot(`in a turn of two calls, ${b.error}`);
    if (a.shape.kind !== b.shape.kind) return cannot("two calls in one turn are written in different shapes");
    if (a.shape.kind === "name-then-tagged" && a.keyValues && b.keyValues) {
      const both = keyValueOf([...a.keyValues, ...b.keyValues]);
      if (!both) return cannot("the text between an argument's key and its value differs between two calls in more than a word");
      const { keyValueEnd: _dropped, typeWords: _droppedWords, ...rest } = a.shape;
      const typeWords = typeWordsOf([...a.keyValues, ...b.keyValues], [...Object.values(ALPHA_CALL.arguments), ...Object.values(BETA_CALL.arguments)], both);
      a.shape = { ...rest, ...both, ...(typeWords ? { typeWords } : {}) };
    }
    if (a.afterName !== undefined && b.afterName !== undefined) {
      const after = reconcileAfterName(a.afterName, b.afterName);
      if (!after) return cannot(`the text after a call's name differs between two calls (${JSON.stringify(a.afterName)}, ${JSON.stringify(b.afterName)})`);
      shape = { ...a.shape, ...after } as DerivedCallShape;
    }
    const between = two.text.slice(a.end, b.start);
    head = two.text.slice(0, a.start);
    tail = two.text.slice(b.end);
    // callClose + separator + callOpen = between; the section's start ends with callOpen, its end begins with callClose.
    // Whole tokens only: `<|tool_call_end|><|tool_call` shared by two texts is one token and a piece.
    callClose = between.slice(0, commonPrefixLength(between, tail));
    const cut = endsInsideToken(callClose);
    if (cut >= 0) callClose = callClose.slice(0, cut);
    callOpen = between.slice(between.length - commonSuffixLength(between, head));
    const partial = startsInsideToken(callOpen);
    if (partial >= 0) callOpen = callOpen.slice(partial);
    if (callClose.length + callOpen.length > between.length) callOpen = callOpen.slice(callClose.length + callOpen.length - between.length);
    const closeLength = callClose.length;
    const openLength = callOpen.length;
    separator = between.slice(closeLength, between.length - openLength);
    if (callClose.trim() === "") callClose = "";
    if (callOpen.trim() === "") callOpen = "";
    if (separator.trim() !== "" && separator.trim() !== ",") return cannot(`two calls are separated by ${JSON.stringify(separator)}, which is neither a call's end nor its start`);
  }
  tail = withoutTurnEnd(tail);
  if (oneCallPerTurn) {
    // One call only: the whole head opens it and the whole tail closes it.
    callOpen = head;
    callClose = tail;
    head = "";
    tail = "";
  }
  const sectionOpen = trimEdges(head.slice(0, head.length - (oneCallPerTurn ? 0 : callOpen.length)));
  const sectionClose = trimEdges(tail.slice(oneCallPerTurn ? 0 : callClose.length));
  callOpen = trimEdges(callOpen);
  callClose = trimEdges(callClose);
  if (sectionOpen === "" && callOpen === "" && shape.kind !== "json-object") return cannot("nothing marks where a call begins: the name stands alone in the text");
  if (shape.kind !== "json-object" && callOpen === "" && sectionOpen !== "") return cannot("a section holds several calls with nothing between them to tell where each begins");

  // Reasoning markers that are also pieces of the calls' own markers (Kimi K3's `<|sep|>` and `<|close|>`) would cut the calls apart: none then.
  const quiet = toolsCancel ? withoutTools(render) : render;
  const derivedReasoning = deriveReasoning(quiet);
  let opener = sectionOpen;
  // An empty reasoning block the template writes before its calls (Command R7B's `<|START_THINKING|><|END_THINKING|>`) is the reasoning's, not the section's: a model may reason there.
  if (derivedReasoning) {
    const emptyBlock = new RegExp(`^${escapeRegExp(derivedReasoning.open)}\\s*${escapeRegExp(derivedReasoning.close)}\\s*`).exec(opener);
    if (emptyBlock && emptyBlock[0].length < opener.length) opener = opener.slice(emptyBlock[0].length);
  }
  const callMarkers = [opener, sectionClose, callOpen, callClose, ...Object.values(shape).filter((v): v is string => typeof v === "string")];
  const reasoningKept = derivedReasoning && !callMarkers.some((m) => m.includes(derivedReasoning.open.trim()) || m.includes(derivedReasoning.close.trim())) ? derivedReasoning : undefined;
  if (!reasoningKept) opener = sectionOpen;
  const frame = replyFrame(quiet, render, reasoningKept, [opener, callOpen].filter((m) => m !== ""));
  const reasoning = frame.reasoning;
  const toolResult = deriveToolResultForm(render);
  return {
    ok: true,
    format: {
      sectionOpen: opener,
      sectionClose,
      callOpen,
      callClose,
      separator: separator.trim() === "," ? "," : separator,
      call: shape,
      oneCallPerTurn,
      ...(reasoning ? { reasoning } : {}),
      ...(frame.framing.length > 0 ? { framing: frame.framing } : {}),
      example,
      ...(toolResult ? { toolResult } : {}),
    },
  };
}

/** The text from the user's message on, or undefined where the text has no user's message. */
function fromUser(text: string): string | undefined {
  return text.includes(PROBE_USER) ? text.slice(text.lastIndexOf(PROBE_USER)) : undefined;
}

/**
 * The plain conversation (the user's message, a reply of text) as the template writes it with the
 * tools, and whether the tools change nothing from the user's message on (their declarations sit
 * before it). Where they change nothing, the reasoning's and the reply frame's probes go without
 * them: each of those is compared with another of them (the reply with and without its reasoning,
 * the generation prompt with thinking on and off, the plain reply against the generation prompt),
 * so the declarations would cancel out, and they are most of a render's time (Kimi K3 writes each
 * tool's JSON with a recursive macro). The calls' own renders always keep the tools: a template
 * may write a call from its tool's declaration (an argument's type).
 *
 * The check costs no render of its own: the turn with a call with the tools (the calls' probe)
 * and without them (the tool result's conversation) are the same from the user's message on, and
 * so are the empty turn with the tools (the calls' baseline) and the plain reply without them, the
 * reply's text aside. The plain conversation is then the empty turn up to the user's message and
 * the plain reply without the tools from there: for each of the repo's templates where the check
 * holds, the very text of the plain reply with the tools, which is then not rendered. Elsewhere
 * (Mistral's templates refuse an empty turn; GLM 4.6 leaves out the line break that comes before
 * a reply's text) the plain reply is
 * rendered with the tools and checked against itself without them; templates that write the
 * conversation otherwise without tools (Functionary v3.1 throws, FunctionGemma writes its
 * declarations after the user's turn) keep them.
 */
function plainConversation(render: TemplateRenderer): { plain: ReturnType<typeof tryRender>; toolsCancel: boolean } {
  const plainTurn = assistantMessage(PROBE_TEXT, []);
  const callTurn = assistantMessage("", [ALPHA_CALL]);
  const empty = tryRender(render, probeVariables(assistantMessage("", [])));
  const withCall = empty.ok ? tryRender(render, probeVariables(callTurn)) : undefined;
  const withCallBare = withCall?.ok ? tryRender(render, probeVariables(callTurn, { tools: false })) : undefined;
  const plainBare = withCallBare?.ok ? tryRender(render, probeVariables(plainTurn, { tools: false })) : undefined;
  if (empty.ok && withCall?.ok && withCallBare?.ok && plainBare?.ok) {
    const reply = fromUser(plainBare.text);
    const call = fromUser(withCall.text);
    if (reply !== undefined && call !== undefined && call === fromUser(withCallBare.text) && fromUser(empty.text) === reply.replace(PROBE_TEXT, ""))
      return { plain: { ok: true, text: empty.text.slice(0, empty.text.lastIndexOf(PROBE_USER)) + reply }, toolsCancel: true };
  }
  const plain = tryRender(render, probeVariables(plainTurn));
  if (!plain.ok) return { plain, toolsCancel: false };
  const bare = tryRender(render, probeVariables(plainTurn, { tools: false }));
  const shared = fromUser(plain.text);
  return { plain, toolsCancel: bare.ok && shared !== undefined && shared === fromUser(bare.text) };
}

/** `render` with the tools left out. */
function withoutTools(render: TemplateRenderer): TemplateRenderer {
  return (variables) => {
    if (!("tools" in variables)) return render(variables);
    const { tools: _offered, ...rest } = variables;
    return render(rest);
  };
}

/** The generation prompt with thinking on or off (`enable_thinking`, the variable llama.cpp and the templates that switch thinking read). */
function generationPrompt(render: TemplateRenderer, thinking: boolean): { ok: true; text: string } | { ok: false; message: string } {
  return tryRender(render, { ...probeVariables(undefined, { addGenerationPrompt: true }), enable_thinking: thinking });
}

/** Where the assistant's turn begins in `plain`: the end of the generation prompt (widened to a whole token where they part). */
function replyStart(plain: string, prompt: string): number {
  return plain.startsWith(prompt) ? prompt.length : widenToTokens(plain, differingPart(prompt, plain).start, plain.length).start;
}

/** Cuts leading reasoning markers (an empty block, a lone close) off `text`. */
function withoutReasoningMarkers(text: string, reasoning: DerivedFormat["reasoning"]): string {
  let rest = trimEdges(text);
  if (!reasoning) return rest;
  if (rest.startsWith(reasoning.open) && trimEdges(rest.slice(reasoning.open.length)).startsWith(reasoning.close)) rest = trimEdges(rest.slice(reasoning.open.length));
  if (rest.startsWith(reasoning.close)) rest = trimEdges(rest.slice(reasoning.close.length));
  return rest;
}

/**
 * The texts the template writes around a plain reply, from the plain turn against the
 * generation prompt and against a turn with a call: what stands between the prompt's end and the
 * reply, reasoning markers removed (`<|START_RESPONSE|>`); what follows the reply and not the
 * call (`<|END_RESPONSE|>`); all that follows the reply, with and without its last token (a model
 * stops at its end-of-turn token, which the output then lacks). Only texts made of bracketed
 * tokens, none that holds a reasoning marker or is, or begins like, a call's opener. A reasoning
 * close that runs on into the reply's opener (Cohere's `<|END_THINKING|><|START_TEXT|>`) ends
 * before it.
 */
function replyFrame(render: TemplateRenderer, withTools: TemplateRenderer, reasoning: DerivedFormat["reasoning"], callOpeners: readonly string[]): { framing: string[]; reasoning: DerivedFormat["reasoning"] } {
  const prompt = generationPrompt(render, true);
  const rendered = tryRender(render, probeVariables(assistantMessage(PROBE_TEXT, [])));
  if (!prompt.ok || !rendered.ok) return { framing: [], reasoning };
  const plain = rendered.text;
  const at = plain.lastIndexOf(PROBE_TEXT);
  if (at < 0) return { framing: [], reasoning };
  const start = replyStart(plain, prompt.text);
  const open = start <= at ? withoutReasoningMarkers(plain.slice(start, at), reasoning) : "";
  if (reasoning && open !== "" && reasoning.close.endsWith(open) && reasoning.close.length > open.length)
    reasoning = { ...reasoning, close: trimEdges(reasoning.close.slice(0, reasoning.close.length - open.length)) };
  const afterText = plain.slice(at + PROBE_TEXT.length);
  const after = trimEdges(afterText);
  const candidates = [open, after, after.replace(/(?:<[^<>]+>|\[[^[\]]+\])$/, "")];
  // With the tools, as the calls' own render (no render more): a turn with a call may end otherwise where tools are offered.
  const withCall = tryRender(withTools, probeVariables(assistantMessage("", [ALPHA_CALL])));
  if (withCall.ok) {
    const shared = commonSuffixLength(afterText, withCall.text);
    let close = afterText.slice(0, afterText.length - shared);
    const rest = afterText.slice(afterText.length - shared);
    const cut = startsInsideToken(rest);
    if (endsInsideToken(close) >= 0 && cut > 0) close += rest.slice(0, cut);
    candidates.push(trimEdges(close));
  }
  const bracketed = (t: string) => t !== "" && /^[<[]/.test(t) && /[>\]]$/.test(t) && !/\n/.test(t);
  const reasoningMarkers = reasoning ? [reasoning.open, reasoning.close] : [];
  const framing = candidates.filter(
    (t) => bracketed(t) && !reasoningMarkers.some((m) => t.includes(m) || m.includes(t)) && !callOpeners.some((m) => m.startsWith(t) || t.startsWith(leadingPiece(m))),
  );
  return { framing: [...new Set(framing)], reasoning };
}

/** A marker's first whitespace-free run. */
function leadingPiece(marker: string): string {
  return marker.trim().split(/\s+/)[0] ?? marker;
}

/** The reasoning markers, from a reply rendered with and without its reasoning. */
function deriveReasoning(render: TemplateRenderer): DerivedFormat["reasoning"] {
  const without = tryRender(render, probeVariables(assistantMessage(PROBE_TEXT, [])));
  const withReasoning = tryRender(render, probeVariables(assistantMessage(PROBE_TEXT, [], PROBE_REASONING)));
  if (!without.ok || !withReasoning.ok) return reasoningNotInHistory(render);
  const diff = differingPart(without.text, withReasoning.text);
  const { start, end } = widenToTokens(withReasoning.text, diff.start, diff.end);
  const part = withReasoning.text.slice(start, end);
  const at = part.indexOf(PROBE_REASONING);
  if (at < 0) return emptyReasoningBlock(render, without.text) ?? reasoningNotInHistory(render);
  let open = trimEdges(part.slice(0, at));
  // What follows the reasoning up to the reply, when the reply came after it.
  let close = trimEdges(part.slice(at + PROBE_REASONING.length));
  // The diff may be the reasoning alone, its tags shared with an empty block (`<think>\n\n</think>`): the tokens around it.
  if (open === "") open = /<[^<>]+>$/.exec(trimEdges(withReasoning.text.slice(0, start + at)))?.[0] ?? "";
  if (close === "") close = /^<[^<>]+>/.exec(trimEdges(withReasoning.text.slice(start + at + PROBE_REASONING.length)))?.[0] ?? "";
  if (open === "" || close === "") return reasoningNotInHistory(render);
  const prompt = generationPrompt(render, true);
  return { open, close, generationPromptOpens: prompt.ok && trimEdges(prompt.text).endsWith(open) };
}

/** Reasoning markers for a template whose history shows none: from its thinking switch, else from a reasoning part of a reply. */
function reasoningNotInHistory(render: TemplateRenderer): DerivedFormat["reasoning"] {
  return reasoningFromThinkingSwitch(render) ?? reasoningFromContentParts(render);
}

/**
 * Reasoning markers from a reply whose content is a list of parts, the reasoning one of them
 * (`{type: "thinking", thinking}`, as Mistral's templates read it), for a template that writes no
 * `reasoning_content`: the tokens right around the reasoning's text. One render more (without the
 * tools), only where nothing else showed the reasoning.
 */
function reasoningFromContentParts(render: TemplateRenderer): DerivedFormat["reasoning"] {
  const parts = { role: "assistant", content: [{ type: "thinking", thinking: PROBE_REASONING }, { type: "text", text: PROBE_TEXT }] };
  // Without the tools: the reasoning's markers do not depend on them, and their declarations are most of a render's time.
  const rendered = tryRender(render, probeVariables(parts, { tools: false }));
  if (!rendered.ok) return undefined;
  const at = rendered.text.indexOf(PROBE_REASONING);
  const reply = rendered.text.indexOf(PROBE_TEXT, at);
  if (at < 0 || reply < 0) return undefined;
  const open = LAST_TOKEN.exec(rendered.text.slice(0, at))?.[0];
  const close = trimEdges(rendered.text.slice(at + PROBE_REASONING.length, reply));
  if (!open || !ONE_TOKEN.test(close)) return undefined;
  const prompt = generationPrompt(render, true);
  return { open, close, generationPromptOpens: prompt.ok && trimEdges(prompt.text).endsWith(open) };
}

/** One bracketed token (`<think>`, `</think>`, `[THINK]`, `<|END_THINKING|>`). */
const ONE_TOKEN = /^(?:<[^<>\s]+>|\[[^[\]\s]+\])$/;
const TOKENS = /<[^<>\s]+>|\[[^[\]\s]+\]/g;
/** The bracketed token a text ends with. */
const LAST_TOKEN = /(?:<[^<>\s]+>|\[[^[\]\s]+\])$/;

/**
 * Reasoning markers from the generation prompt rendered with thinking on and off, for a template
 * that writes no reasoning in its history (DeepSeek V3.1–V4, QwQ, R1 Distill): the prompt opens a
 * block with thinking on (`<think>`) and closes it (`<think></think>`) or writes its close instead
 * (`</think>`) with thinking off, or writes an empty block (`<|START_THINKING|><|END_THINKING|>`)
 * with thinking off and nothing with thinking on. Where the two prompts differ otherwise, or the
 * close is not seen (a prompt that opens `<think>` with thinking on and writes nothing with it
 * off), nothing is derived: the close cannot be known.
 */
function reasoningFromThinkingSwitch(render: TemplateRenderer): DerivedFormat["reasoning"] {
  const onPrompt = generationPrompt(render, true);
  const offPrompt = generationPrompt(render, false);
  if (!onPrompt.ok || !offPrompt.ok) return undefined;
  // From the user's message on: the system text may differ too (Command R7B asks for reasoning in it).
  const on = fromUser(onPrompt.text);
  const off = fromUser(offPrompt.text);
  if (on === undefined || off === undefined || on === off) return undefined;
  const diff = differingPart(on, off);
  const offSpan = widenToTokens(off, diff.start, diff.end);
  const offPart = trimEdges(off.slice(offSpan.start, offSpan.end));
  const onSpan = widenToTokens(on, diff.start, on.length - diff.suffix);
  const onPart = trimEdges(on.slice(onSpan.start, onSpan.end));
  // Both prompts must end where they part: the rest of the conversation is the same.
  if (off.length - offSpan.end > 0 && trimEdges(off.slice(offSpan.end)) !== "") return undefined;
  if (onPart === "") {
    const lastOpen = LAST_TOKEN.exec(trimEdges(on))?.[0];
    // Thinking off closes the block the prompt opened (`<think>` + `</think>`).
    if (ONE_TOKEN.test(offPart) && lastOpen && lastOpen !== offPart) return { open: lastOpen, close: offPart, generationPromptOpens: true };
    // Thinking off writes an empty block, thinking on lets the model write it.
    const tokens = offPart.match(TOKENS) ?? [];
    if (tokens.length === 2 && offPart.replace(TOKENS, "").trim() === "") return { open: tokens[0]!, close: tokens[1]!, generationPromptOpens: false };
    return undefined;
  }
  // Thinking on opens the block, thinking off writes its close in its place (`<think>` / `</think>`).
  if (ONE_TOKEN.test(onPart) && ONE_TOKEN.test(offPart) && trimEdges(on).endsWith(onPart)) return { open: onPart, close: offPart, generationPromptOpens: true };
  return undefined;
}

/** Exported for tests: the arguments each probe call carries. */
export const PROBE_ARGUMENTS = { alpha: ALPHA_ARGS };

/**
 * Reasoning markers the template writes around no reasoning at all: an empty `<think></think>`
 * before the reply, or a lone `</think>` whose `<think>` ends the generation prompt.
 */
function emptyReasoningBlock(render: TemplateRenderer, plain: string): DerivedFormat["reasoning"] {
  const prompt = generationPrompt(render, true);
  if (!prompt.ok) return undefined;
  const start = replyStart(plain, prompt.text);
  const before = trimEdges(plain.slice(start, plain.lastIndexOf(PROBE_TEXT)));
  const pair = /^(<([^<>\s/]+)>)\s*(<\/\2>)$/.exec(before);
  if (pair) return { open: pair[1]!, close: pair[3]!, generationPromptOpens: false };
  const lone = /^<\/([^<>\s]+)>$/.exec(before);
  if (lone && trimEdges(prompt.text).endsWith(`<${lone[1]}>`)) return { open: `<${lone[1]}>`, close: before, generationPromptOpens: true };
  return undefined;
}

/**
 * The text between a key and its value, the same for every argument, or the same but for one
 * word that depends on the value's type (DeepSeek V3.2's `string="true"` / `string="false"`).
 */
export function keyValueOf(texts: readonly string[]): { keyValue: string; keyValueEnd?: string } | undefined {
  const first = texts[0] ?? "";
  if (texts.every((t) => t === first)) return { keyValue: first };
  let prefix = first.length;
  let suffix = first.length;
  for (const t of texts) {
    prefix = Math.min(prefix, commonPrefixLength(first, t));
    suffix = Math.min(suffix, commonSuffixLength(first, t));
  }
  // Whole words only: `true` and `false` share their last letter, not a word.
  const isWord = (c: string | undefined) => c !== undefined && /[\w-]/.test(c);
  while (suffix > 0 && isWord(first[first.length - suffix]) && texts.some((t) => isWord(t[t.length - suffix - 1]))) suffix--;
  while (prefix > 0 && isWord(first[prefix - 1]) && texts.some((t) => isWord(t[prefix]))) prefix--;
  const keyValue = first.slice(0, prefix);
  const keyValueEnd = first.slice(first.length - suffix);
  for (const t of texts) if (!/^[\w-]*$/.test(t.slice(prefix, t.length - suffix))) return undefined;
  if (keyValueEnd === "") return undefined;
  return { keyValue, keyValueEnd };
}
