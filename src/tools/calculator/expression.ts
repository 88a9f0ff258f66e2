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

import { CALCULATOR_CONSTANTS, CALCULATOR_FUNCTIONS, CalculatorError, CONSTANTS, FUNCTIONS } from "./calculator-functions.ts";

export { CALCULATOR_CONSTANTS, CALCULATOR_FUNCTIONS, CalculatorError } from "./calculator-functions.ts";

type Token =
  | { kind: "number"; value: number; start: number; text: string }
  | { kind: "name"; value: string; start: number; text: string }
  | { kind: "operator"; value: string; start: number; text: string }
  | { kind: "end"; start: number; text: string };

const MAX_LENGTH = 10_000;
/** Deep nesting would overflow the JavaScript stack; stop well before that with a clear error. */
const MAX_DEPTH = 200;

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
