// A small arithmetic language for the calculator tool, read by a hand-written recursive-descent
// parser and evaluated directly — never with eval or Function, so a model's "expression" can
// only ever compute a number.
//
// Grammar (lowest to highest precedence):
//   expression := additive
//   additive   := multiplicative (("+" | "-") multiplicative)*
//   multiplicative := unary (("*" | "/" | "%") unary)*
//   unary      := ("-" | "+") unary | power
//   power      := primary (("^" | "**") unary)?        right-associative; -2^2 = -4
//   primary    := number | name | name "(" arguments ")" | "(" expression ")"

/** The only error the calculator throws: says what is wrong and, for syntax, where. */
export class CalculatorError extends Error {
  override name = "CalculatorError";
  constructor(
    message: string,
    /** 0-based character offset the problem was found at, when there is one. */
    readonly position?: number,
  ) {
    super(message);
  }
}

type Token =
  | { kind: "number"; value: number; start: number; text: string }
  | { kind: "name"; value: string; start: number; text: string }
  | { kind: "operator"; value: string; start: number; text: string }
  | { kind: "end"; start: number; text: string };

const MAX_LENGTH = 10_000;
/** Deep nesting would overflow the JavaScript stack; stop well before that with a clear error. */
const MAX_DEPTH = 200;

interface FunctionSpec {
  minArgs: number;
  maxArgs: number;
  apply: (args: number[], position: number) => number;
}

const unary = (f: (x: number) => number): FunctionSpec => ({ minArgs: 1, maxArgs: 1, apply: ([x]) => f(x as number) });

const FUNCTIONS: Record<string, FunctionSpec> = {
  sqrt: {
    minArgs: 1,
    maxArgs: 1,
    apply: ([x], position) => {
      if ((x as number) < 0) throw new CalculatorError(`sqrt of a negative number (${x}) is not a real number`, position);
      return Math.sqrt(x as number);
    },
  },
  cbrt: unary(Math.cbrt),
  sin: unary(Math.sin),
  cos: unary(Math.cos),
  tan: unary(Math.tan),
  asin: unary(Math.asin),
  acos: unary(Math.acos),
  atan: unary(Math.atan),
  sinh: unary(Math.sinh),
  cosh: unary(Math.cosh),
  tanh: unary(Math.tanh),
  // `log` is the natural logarithm (as in JavaScript, Python and most programming languages);
  // log(x, b) takes a base. ln, log10 and log2 are there for when the base should be explicit.
  log: {
    minArgs: 1,
    maxArgs: 2,
    apply: ([x, base], position) => {
      requirePositive("log", x as number, position);
      if (base === undefined) return Math.log(x as number);
      if (base <= 0 || base === 1) throw new CalculatorError(`log base must be positive and not 1 (got ${base})`, position);
      return Math.log(x as number) / Math.log(base);
    },
  },
  ln: { minArgs: 1, maxArgs: 1, apply: ([x], p) => (requirePositive("ln", x as number, p), Math.log(x as number)) },
  log10: { minArgs: 1, maxArgs: 1, apply: ([x], p) => (requirePositive("log10", x as number, p), Math.log10(x as number)) },
  log2: { minArgs: 1, maxArgs: 1, apply: ([x], p) => (requirePositive("log2", x as number, p), Math.log2(x as number)) },
  exp: unary(Math.exp),
  abs: unary(Math.abs),
  floor: unary(Math.floor),
  ceil: unary(Math.ceil),
  round: {
    minArgs: 1,
    maxArgs: 2,
    apply: ([x, digits], position) => {
      if (digits === undefined) return Math.round(x as number);
      if (!Number.isInteger(digits) || digits < 0 || digits > 15) {
        throw new CalculatorError(`round's digits must be a whole number from 0 to 15 (got ${digits})`, position);
      }
      const scale = 10 ** digits;
      return Math.round((x as number) * scale) / scale;
    },
  },
  min: { minArgs: 1, maxArgs: Infinity, apply: (args) => Math.min(...args) },
  max: { minArgs: 1, maxArgs: Infinity, apply: (args) => Math.max(...args) },
};

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

export const CALCULATOR_FUNCTIONS = Object.keys(FUNCTIONS);
export const CALCULATOR_CONSTANTS = Object.keys(CONSTANTS);

function requirePositive(name: string, x: number, position: number): void {
  if (x <= 0) throw new CalculatorError(`${name} is only defined for positive numbers (got ${x})`, position);
}

function describeAt(source: string, position: number): string {
  if (position >= source.length) return "at the end of the expression";
  return `at position ${position + 1} ('${source[position]}')`;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (/[0-9.]/.test(c)) {
      const match = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(i));
      // Only a lone "." fails to match here.
      if (!match) throw new CalculatorError(`Unexpected character '${c}' at position ${i + 1}`, i);
      const text = match[0];
      i += text.length;
      if (i < source.length && /[0-9.]/.test(source[i] as string)) {
        throw new CalculatorError(`Malformed number ${describeAt(source, i)}`, i);
      }
      tokens.push({ kind: "number", value: Number(text), start, text });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const text = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i))?.[0] as string;
      i += text.length;
      tokens.push({ kind: "name", value: text.toLowerCase(), start, text });
      continue;
    }
    if (c === "*" && source[i + 1] === "*") {
      tokens.push({ kind: "operator", value: "^", start, text: "**" });
      i += 2;
      continue;
    }
    // × and ÷ are what people (and models) paste from prose.
    const operator = c === "×" ? "*" : c === "÷" ? "/" : c;
    if ("+-*/%^(),".includes(operator)) {
      tokens.push({ kind: "operator", value: operator, start, text: c });
      i++;
      continue;
    }
    throw new CalculatorError(`Unexpected character '${c}' at position ${i + 1}`, i);
  }
  tokens.push({ kind: "end", start: source.length, text: "" });
  return tokens;
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
  ) {}

  parse(): number {
    if (this.peek().kind === "end") throw new CalculatorError("The expression is empty", 0);
    const value = this.additive();
    const next = this.peek();
    if (next.kind !== "end") {
      const hint = next.text === ")" ? "an unmatched ')'" : `'${next.text}'`;
      throw new CalculatorError(`Unexpected ${hint} at position ${next.start + 1}: expected an operator or the end`, next.start);
    }
    return value;
  }

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }

  private take(): Token {
    return this.tokens[this.index++] as Token;
  }

  /** Takes the next token, known (by isOperator) to be an operator. */
  private takeOperator(): Extract<Token, { kind: "operator" }> {
    return this.take() as Extract<Token, { kind: "operator" }>;
  }

  private isOperator(value: string): boolean {
    const token = this.peek();
    return token.kind === "operator" && token.value === value;
  }

  private additive(): number {
    let left = this.multiplicative();
    while (this.isOperator("+") || this.isOperator("-")) {
      const op = this.takeOperator().value;
      const right = this.multiplicative();
      left = op === "+" ? left + right : left - right;
    }
    return left;
  }

  private multiplicative(): number {
    let left = this.unary();
    while (this.isOperator("*") || this.isOperator("/") || this.isOperator("%")) {
      const op = this.takeOperator();
      const right = this.unary();
      if (op.value === "*") {
        left = left * right;
      } else {
        if (right === 0) {
          throw new CalculatorError(
            `${op.value === "/" ? "Division" : "Remainder (%)"} by zero at position ${op.start + 1}`,
            op.start,
          );
        }
        left = op.value === "/" ? left / right : left % right;
      }
    }
    return left;
  }

  private unary(): number {
    if (this.isOperator("-") || this.isOperator("+")) {
      const op = this.takeOperator().value;
      const value = this.nested(() => this.unary());
      return op === "-" ? -value : value;
    }
    return this.power();
  }

  private power(): number {
    const base = this.primary();
    if (this.isOperator("^")) {
      const op = this.takeOperator();
      const exponent = this.nested(() => this.unary());
      if (base === 0 && exponent < 0) throw new CalculatorError(`Division by zero: 0 raised to a negative power at position ${op.start + 1}`, op.start);
      return base ** exponent;
    }
    return base;
  }

  private primary(): number {
    const token = this.take();
    if (token.kind === "number") return token.value;
    if (token.kind === "name") return this.nameOrCall(token);
    if (token.kind === "operator" && token.value === "(") {
      const value = this.nested(() => this.additive());
      this.expectClosing(token.start);
      return value;
    }
    if (token.kind === "end") throw new CalculatorError("The expression ends too early: expected a number, a name or '('", token.start);
    throw new CalculatorError(
      `Unexpected '${token.text}' at position ${token.start + 1}: expected a number, a name or '('`,
      token.start,
    );
  }

  private nameOrCall(token: Extract<Token, { kind: "name" }>): number {
    // Own properties only: "constructor" or "toString" must not reach Object.prototype.
    const fn = Object.hasOwn(FUNCTIONS, token.value) ? FUNCTIONS[token.value] : undefined;
    if (this.isOperator("(")) {
      if (!fn) throw this.unknownName(token, "function");
      const open = this.take();
      const args: number[] = [];
      if (!this.isOperator(")")) {
        args.push(this.nested(() => this.additive()));
        while (this.isOperator(",")) {
          this.take();
          args.push(this.nested(() => this.additive()));
        }
      }
      this.expectClosing(open.start);
      if (args.length < fn.minArgs || args.length > fn.maxArgs) {
        const expected =
          fn.maxArgs === Infinity ? `at least ${fn.minArgs}` : fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} or ${fn.maxArgs}`;
        throw new CalculatorError(
          `${token.value}() takes ${expected} argument${expected === "1" ? "" : "s"}, got ${args.length} (position ${token.start + 1})`,
          token.start,
        );
      }
      return fn.apply(args, token.start);
    }
    const constant = Object.hasOwn(CONSTANTS, token.value) ? CONSTANTS[token.value] : undefined;
    if (constant !== undefined) return constant;
    if (fn) throw new CalculatorError(`${token.value} is a function: write ${token.value}(…) (position ${token.start + 1})`, token.start);
    throw this.unknownName(token, "name");
  }

  private unknownName(token: Token, what: string): CalculatorError {
    return new CalculatorError(
      `Unknown ${what} '${token.text}' at position ${token.start + 1}. Functions: ${CALCULATOR_FUNCTIONS.join(", ")}; constants: ${CALCULATOR_CONSTANTS.join(", ")}`,
      token.start,
    );
  }

  private expectClosing(openedAt: number): void {
    const token = this.peek();
    if (token.kind === "operator" && token.value === ")") {
      this.take();
      return;
    }
    const found = token.kind === "end" ? "the end of the expression" : `'${token.text}' at position ${token.start + 1}`;
    throw new CalculatorError(`Missing ')' for the '(' at position ${openedAt + 1}: found ${found}`, token.start);
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_DEPTH) {
      throw new CalculatorError(`The expression is nested too deeply (more than ${MAX_DEPTH} levels)`, this.peek().start);
    }
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }
}

/** Evaluates an arithmetic expression; throws only CalculatorError. The result is always finite. */
export function evaluateExpression(source: string): number {
  if (source.length > MAX_LENGTH) throw new CalculatorError(`The expression is too long (over ${MAX_LENGTH} characters)`);
  const value = new Parser(source, tokenize(source)).parse();
  if (Number.isNaN(value)) throw new CalculatorError("The result is not a real number (for example asin(2) or sqrt of a negative)");
  if (!Number.isFinite(value)) throw new CalculatorError("The result is too large to represent (overflow)");
  // -0 reads oddly in a chat; it is the same number.
  return value === 0 ? 0 : value;
}
