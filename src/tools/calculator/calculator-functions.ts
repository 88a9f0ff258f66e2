// The calculator's functions and constants (what its description lists) and its one error, apart
// from the expression reader (expression.ts), which loads only when the tool first runs.

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

function requirePositive(name: string, x: number, position: number): void {
  if (x <= 0) throw new CalculatorError(`${name} is only defined for positive numbers (got ${x})`, position);
}

export interface FunctionSpec {
  minArgs: number;
  maxArgs: number;
  apply: (args: number[], position: number) => number;
}

const unary = (f: (x: number) => number): FunctionSpec => ({ minArgs: 1, maxArgs: 1, apply: ([x]) => f(x as number) });

export const FUNCTIONS: Record<string, FunctionSpec> = {
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

export const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

export const CALCULATOR_FUNCTIONS = Object.keys(FUNCTIONS);
export const CALCULATOR_CONSTANTS = Object.keys(CONSTANTS);
