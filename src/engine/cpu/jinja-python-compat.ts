// Python Jinja2 behaviours that @huggingface/jinja (0.5.11, the newest on npm) lacks and chat
// templates rely on, supplied on our interpreter without touching the library: each one is exact
// for what it accepts (as Jinja2 under transformers or llama.cpp's renderer gives it) and refuses
// the rest with a clear error, so nothing is rendered differently than the template's author saw.
// - `x | string` of a dict or list: Python's str(), i.e. repr (`{'type': 'function', …}`) — the
//   library writes dicts not at all and lists as JSON (Apriel 1.5/1.6 write each tool so).
// - `undefined | length` is 0 and `undefined | string` is "" (the library refuses both).
// - `list | min`, `list | max` of numbers or of strings (case-insensitive, as Jinja2's default).
// - `for a, b in [("x", "y"), …]`: the library unpacks lists but refuses tuples.
// - `for x in undefined` runs no iteration, and `undefined is iterable` (Jinja2's Undefined is an
//   empty iterable); a dict and a tuple are iterable too (the library says so of lists and strings).
// - `mapping[key]` with a key that is not a string (undefined, a number, …) is undefined: a
//   mapping made from JSON has string keys only, and Jinja2 gives Undefined for a missing key.
// - `'…{}…'.format(a, b)` with `{}`, `{0}`, `{name}` fields and `{{`/`}}`, values as Python's str().
// - `text + dict` (or a list) throws, as Python's TypeError; the library wrote "[object Map]".
// - `list.append(x)` and `list.pop(i)`, as Jinja2 outside transformers' immutable sandbox and
//   llama.cpp's renderer allow (Kimi K2 keeps its call ids in a list this way).
// Every step still runs through the bounded interpreter (jinja-budget.ts), which counts it.
// Left as the library has it: `{{ true }}` and `{{ [1, 'x'] }}` write `true` and `[1, "x"]` where
// Jinja2 writes `True` and `[1, 'x']`, and `{{ none }}` writes nothing where Jinja2 writes `None`.
// Writing them as Jinja2 does makes Qwen3-Coder, Qwen3.5, Nemotron 3 Nano and StepFun 3.5 write a
// boolean argument as `True` beside JSON lists, which the derivation's tagged-value analysis
// (one style, JSON or Python, for every value) does not accept yet. Dict literals with integer
// keys (Seed-OSS) are not supplied: the library's dict holds string keys only.
import { Environment, type Interpreter } from "@huggingface/jinja";

type RuntimeValue = ReturnType<Interpreter["evaluate"]>;
type Node = Parameters<Interpreter["evaluate"]>[0];
type Scope = Environment;

/** The interpreter's own methods this module wraps (private in its types, plain methods at run time). */
interface InterpreterInternals {
  evaluate: (node: Node, scope: Scope) => RuntimeValue;
  applyFilter: (operand: RuntimeValue, filter: Node, scope: Scope) => RuntimeValue;
  evaluateMemberExpression: (node: Node, scope: Scope) => RuntimeValue;
  evaluateFor: (node: Node, scope: Scope) => RuntimeValue;
  evaluateTestExpression: (node: Node, scope: Scope) => RuntimeValue;
  evaluateBinaryExpression: (node: Node, scope: Scope) => RuntimeValue;
}

/** A node that stands for a value already evaluated: the wrapped methods evaluate each part once. */
const EVALUATED = "CompatEvaluatedValue";
interface EvaluatedNode {
  type: typeof EVALUATED;
  value: RuntimeValue;
}

/** A JavaScript value as the library's runtime value (its classes are not exported; its Environment converts). */
function runtimeValue(value: unknown): RuntimeValue {
  return new Environment().set("value", value);
}

/** A runtime value of the library's own class for a list, made from runtime values. */
function listOf(items: RuntimeValue[]): RuntimeValue {
  const list = runtimeValue([]);
  (list as { value: RuntimeValue[] }).value = items;
  return list;
}

function functionValue(call: (args: RuntimeValue[]) => RuntimeValue): RuntimeValue {
  const fn = runtimeValue(() => null);
  (fn as { value: unknown }).value = (args: RuntimeValue[]) => call(args);
  return fn;
}

const isList = (value: RuntimeValue) => value.type === "ArrayValue" || value.type === "TupleValue";
const isMapping = (value: RuntimeValue) => value.type === "ObjectValue" || value.type === "KeywordArgumentsValue";

/** Python's repr() of a string: single quotes unless it holds one and no double quote. */
function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === "\\") out += "\\\\";
    else if (char === quote) out += `\\${quote}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (char !== " " && /[\p{C}\p{Z}]/u.test(char)) {
      // Python writes the characters str.isprintable() refuses as escapes.
      out += code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\U${code.toString(16).padStart(8, "0")}`;
    } else out += char;
  }
  return out + quote;
}

/** Python's repr() of a float: the shortest digits that read back (JavaScript's too), in exponent form below 1e-4 and from 1e16. */
function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const magnitude = Math.abs(value);
  if (magnitude < 1e-4 || magnitude >= 1e16) {
    const [digits, exponent] = value.toExponential().split("e") as [string, string];
    const sign = exponent.startsWith("-") ? "-" : "+";
    return `${digits}e${sign}${exponent.replace(/^[+-]/, "").padStart(2, "0")}`;
  }
  const text = String(value);
  return text.includes(".") ? text : `${text}.0`;
}

/** Python's str() of a runtime value (a string as itself; containers as their repr). */
function pythonStr(value: RuntimeValue): string {
  return value.type === "StringValue" ? (value.value as string) : pythonRepr(value);
}

const PYTHON_TYPES = new Set(["StringValue", "IntegerValue", "FloatValue", "BooleanValue", "NullValue", "ArrayValue", "TupleValue", "ObjectValue", "KeywordArgumentsValue"]);

function containsOnlyData(value: RuntimeValue): boolean {
  if (!PYTHON_TYPES.has(value.type)) return false;
  if (value.type === "ArrayValue" || value.type === "TupleValue") return (value.value as RuntimeValue[]).every(containsOnlyData);
  if (value.type === "ObjectValue" || value.type === "KeywordArgumentsValue") return [...(value.value as Map<string, RuntimeValue>).values()].every(containsOnlyData);
  return true;
}

/** Python's repr() of a runtime value made from JSON (a dict, list, tuple, string, number, bool, None). */
export function pythonRepr(value: RuntimeValue): string {
  switch (value.type) {
    case "StringValue":
      return pythonStringRepr(value.value as string);
    case "IntegerValue":
      return String(value.value);
    case "FloatValue":
      return pythonFloatRepr(value.value as number);
    case "BooleanValue":
      return value.value ? "True" : "False";
    case "NullValue":
      return "None";
    case "ArrayValue":
      return `[${(value.value as RuntimeValue[]).map(pythonRepr).join(", ")}]`;
    case "TupleValue": {
      const items = (value.value as RuntimeValue[]).map(pythonRepr);
      return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
    }
    case "ObjectValue":
    case "KeywordArgumentsValue":
      return `{${[...(value.value as Map<string, RuntimeValue>)].map(([key, item]) => `${pythonStringRepr(key)}: ${pythonRepr(item)}`).join(", ")}}`;
    default:
      throw new Error(`Python's str() of a ${value.type} is not supported by this renderer`);
  }
}

/** Jinja2's `min`/`max` filter without arguments: numbers, or strings compared case-insensitively. */
function minOrMax(list: RuntimeValue, which: "min" | "max"): RuntimeValue {
  const items = list.value as RuntimeValue[];
  if (items.length === 0) return runtimeValue(undefined);
  const numeric = items.every((item) => item.type === "IntegerValue" || item.type === "FloatValue");
  const strings = items.every((item) => item.type === "StringValue");
  if (!numeric && !strings) throw new Error(`the ${which} filter of a list that is not all numbers or all strings is not supported by this renderer`);
  const key = (item: RuntimeValue) => (strings ? (item.value as string).toLowerCase() : (item.value as number));
  let best = items[0]!;
  for (const item of items.slice(1)) {
    const better = which === "min" ? key(item) < key(best) : key(item) > key(best);
    if (better) best = item;
  }
  return best;
}

/** Python's str.format for `{}`, `{0}` and `{name}` fields; conversions and format specs are refused. */
function pythonFormat(template: string, args: RuntimeValue[]): RuntimeValue {
  const last = args.at(-1);
  const keywords = last?.type === "KeywordArgumentsValue" ? (last.value as Map<string, RuntimeValue>) : new Map<string, RuntimeValue>();
  const positional = last?.type === "KeywordArgumentsValue" ? args.slice(0, -1) : args;
  let automatic = 0;
  let numbering: "automatic" | "manual" | undefined;
  let out = "";
  for (let i = 0; i < template.length; i++) {
    const char = template[i]!;
    if (char === "}") {
      if (template[i + 1] !== "}") throw new Error("str.format: Single '}' encountered in format string");
      out += "}";
      i++;
      continue;
    }
    if (char !== "{") {
      out += char;
      continue;
    }
    if (template[i + 1] === "{") {
      out += "{";
      i++;
      continue;
    }
    const close = template.indexOf("}", i + 1);
    if (close < 0) throw new Error("str.format: Single '{' encountered in format string");
    const field = template.slice(i + 1, close);
    if (/[!:.[{]/.test(field)) throw new Error(`str.format with the field {${field}} (a conversion, format spec, attribute or index) is not supported by this renderer`);
    let value: RuntimeValue | undefined;
    if (field === "" || /^\d+$/.test(field)) {
      const kind = field === "" ? "automatic" : "manual";
      if (numbering !== undefined && numbering !== kind) throw new Error("str.format: cannot switch between automatic field numbering and manual field specification");
      numbering = kind;
      const index = field === "" ? automatic++ : Number(field);
      value = positional[index];
      if (value === undefined) throw new Error(`str.format: Replacement index ${index} out of range for positional args tuple`);
    } else {
      value = keywords.get(field);
      if (value === undefined) throw new Error(`str.format: no keyword argument '${field}'`);
    }
    out += pythonStr(value);
    i = close;
  }
  return runtimeValue(out);
}

/** A list's append and pop, changing the list in place as Python's do. */
function listMethod(list: RuntimeValue, name: string): RuntimeValue | undefined {
  const items = list.value as RuntimeValue[];
  if (name === "append")
    return functionValue(([item, ...rest]) => {
      if (item === undefined || rest.length > 0) throw new Error("list.append takes exactly one argument");
      items.push(item);
      return runtimeValue(null);
    });
  if (name === "pop")
    return functionValue(([index, ...rest]) => {
      if (rest.length > 0 || (index !== undefined && index.type !== "IntegerValue")) throw new Error("list.pop takes at most one integer argument");
      if (items.length === 0) throw new Error("pop from empty list");
      const at = index === undefined ? items.length - 1 : (index.value as number) < 0 ? items.length + (index.value as number) : (index.value as number);
      if (at < 0 || at >= items.length) throw new Error("pop index out of range");
      return items.splice(at, 1)[0]!;
    });
  return undefined;
}

/** Installs the behaviours above on `interpreter` (a fresh one per render). */
export function withJinja2Behaviours<T extends Interpreter>(interpreter: T): T {
  const self = interpreter as unknown as Partial<InterpreterInternals>;
  const { evaluate, applyFilter, evaluateMemberExpression, evaluateFor, evaluateTestExpression, evaluateBinaryExpression } = self;
  // A library version without these methods renders as the library does.
  if (
    typeof evaluate !== "function" ||
    typeof applyFilter !== "function" ||
    typeof evaluateMemberExpression !== "function" ||
    typeof evaluateFor !== "function" ||
    typeof evaluateTestExpression !== "function" ||
    typeof evaluateBinaryExpression !== "function"
  )
    return interpreter;
  const run = {
    evaluate: evaluate.bind(interpreter),
    applyFilter: applyFilter.bind(interpreter),
    evaluateMemberExpression: evaluateMemberExpression.bind(interpreter),
    evaluateFor: evaluateFor.bind(interpreter),
    evaluateTestExpression: evaluateTestExpression.bind(interpreter),
    evaluateBinaryExpression: evaluateBinaryExpression.bind(interpreter),
  };
  const evaluated = (value: RuntimeValue) => ({ type: EVALUATED, value }) as EvaluatedNode as unknown as Node;

  // The library evaluates absent parts (a slice's missing start) as undefined: `node` may be absent.
  self.evaluate = (node, scope) => ((node as { type?: string } | undefined)?.type === EVALUATED ? (node as unknown as EvaluatedNode).value : run.evaluate(node, scope));

  self.applyFilter = (operand, filter, scope) => {
    const name = (filter as { type: string; value?: unknown }).type === "Identifier" ? (filter as unknown as { value: string }).value : undefined;
    if (name === "string" && operand.type === "UndefinedValue") return runtimeValue("");
    if ((name === "length" || name === "count") && operand.type === "UndefinedValue") return runtimeValue(0);
    if (name === "string" && (isList(operand) || isMapping(operand)) && containsOnlyData(operand)) return runtimeValue(pythonRepr(operand));
    if ((name === "min" || name === "max") && isList(operand)) return minOrMax(operand, name);
    return run.applyFilter(operand, filter, scope);
  };

  self.evaluateMemberExpression = (node, scope) => {
    const member = node as unknown as { computed: boolean; object: Node; property: Node & { type: string; value?: unknown } };
    if (member.computed && member.property.type === "SliceExpression") return run.evaluateMemberExpression(node, scope);
    const object = self.evaluate!(member.object, scope);
    const property = member.computed ? self.evaluate!(member.property, scope) : undefined;
    if (property !== undefined && isMapping(object) && property.type !== "StringValue") return runtimeValue(undefined);
    const value = run.evaluateMemberExpression({ ...member, object: evaluated(object), ...(property !== undefined ? { property: evaluated(property) } : {}) } as unknown as Node, scope);
    if (value.type !== "UndefinedValue") return value;
    const name = property === undefined ? (member.property.value as string) : property.type === "StringValue" ? (property.value as string) : undefined;
    if (name === "format" && object.type === "StringValue") return functionValue((args) => pythonFormat(object.value as string, args));
    if (name !== undefined && isList(object)) return listMethod(object, name) ?? value;
    return value;
  };

  // `text + dict` (or a list) is Python's TypeError; the library would write "[object Map]".
  self.evaluateBinaryExpression = (node, scope) => {
    const binary = node as unknown as { operator: { value: string }; left: Node; right: Node };
    if (binary.operator.value !== "+") return run.evaluateBinaryExpression(node, scope);
    const left = self.evaluate!(binary.left, scope);
    const right = self.evaluate!(binary.right, scope);
    const container = (value: RuntimeValue) => isList(value) || isMapping(value);
    if ((left.type === "StringValue" && container(right)) || (container(left) && right.type === "StringValue")) {
      const kind = (value: RuntimeValue) => (value.type === "StringValue" ? "str" : isList(value) ? "list" : "dict");
      if (isMapping(left)) throw new Error(`unsupported operand type(s) for +: 'dict' and 'str'`);
      throw new Error(`can only concatenate ${kind(left)} (not "${kind(right)}") to ${kind(left)}`);
    }
    return run.evaluateBinaryExpression({ ...binary, left: evaluated(left), right: evaluated(right) } as unknown as Node, scope);
  };

  self.evaluateTestExpression = (node, scope) => {
    const test = node as unknown as { operand: Node; negate: boolean; test: { value: string } };
    if (test.test.value !== "iterable") return run.evaluateTestExpression(node, scope);
    const operand = self.evaluate!(test.operand, scope);
    const iterable = isList(operand) || isMapping(operand) || operand.type === "StringValue" || operand.type === "UndefinedValue";
    return runtimeValue(test.negate ? !iterable : iterable);
  };

  self.evaluateFor = (node, scope) => {
    const loop = node as unknown as { iterable: Node & { type: string; lhs?: Node }; loopvar: { type: string } };
    const select = loop.iterable.type === "SelectExpression";
    const source = select ? loop.iterable.lhs! : loop.iterable;
    let iterable = self.evaluate!(source, new Environment(scope));
    if (iterable.type === "UndefinedValue") iterable = listOf([]);
    else if (loop.loopvar.type === "TupleLiteral" && isList(iterable) && (iterable.value as RuntimeValue[]).some((item) => item.type === "TupleValue"))
      iterable = listOf((iterable.value as RuntimeValue[]).map((item) => (item.type === "TupleValue" ? listOf(item.value as RuntimeValue[]) : item)));
    const given = evaluated(iterable);
    return run.evaluateFor({ ...loop, iterable: select ? { ...loop.iterable, lhs: given } : given } as unknown as Node, scope);
  };
  return interpreter;
}
