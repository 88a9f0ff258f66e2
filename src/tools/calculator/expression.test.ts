import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { CalculatorError, evaluateExpression } from "./expression.ts";

function errorOf(source: string): CalculatorError {
  try {
    evaluateExpression(source);
  } catch (error) {
    if (error instanceof CalculatorError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(source)} to fail`);
}

describe("evaluateExpression", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 / 4", 2.5],
    ["10 % 4", 2],
    ["2 ^ 10", 1024],
    ["2 ** 3", 8],
    ["2 ^ 3 ^ 2", 512],
    ["-2 ^ 2", -4],
    ["(-2) ^ 2", 4],
    ["2 ^ -1", 0.5],
    ["--3", 3],
    ["-(4 - 6)", 2],
    ["+5", 5],
    ["1.5e3 + .5", 1500.5],
    ["2E-2", 0.02],
    ["7 - 2 - 1", 4],
    ["24 / 4 / 3", 2],
    ["6 × 7 ÷ 2", 21],
    ["sqrt(16) + abs(-3)", 7],
    ["floor(2.7) + ceil(2.1) + round(2.5)", 8],
    ["round(3.14159, 2)", 3.14],
    ["min(4, 2, 8) + max(1, 9)", 11],
    ["log(e)", 1],
    ["ln(e ^ 2)", 2],
    ["log10(1000)", 3],
    ["log2(8)", 3],
    ["log(8, 2)", 3],
    ["exp(0)", 1],
    ["cos(0) + sin(0)", 1],
    ["PI", Math.PI],
    ["  2  ", 2],
    ["0 * -1", 0],
  ])("%s = %d", (source, expected) => {
    expect(evaluateExpression(source)).toBeCloseTo(expected, 10);
  });

  it("returns 0, never -0", () => {
    expect(Object.is(evaluateExpression("0 * -1"), 0)).toBe(true);
  });

  it("refuses division and remainder by zero, saying where", () => {
    const division = errorOf("1 + 5 / (2 - 2)");
    expect(division.message).toMatch(/Division by zero at position 7/);
    expect(division.position).toBe(6);
    expect(errorOf("5 % 0").message).toMatch(/Remainder \(%\) by zero/);
    expect(errorOf("0 ^ -1").message).toMatch(/Division by zero/);
  });

  it.each([
    ["", /empty/],
    ["   ", /empty/],
    ["1 +", /ends too early/],
    ["(1 + 2", /Missing '\)' for the '\(' at position 1: found the end/],
    ["1 + 2)", /unmatched '\)' at position 6/],
    ["2 3", /Unexpected '3' at position 3/],
    ["2(3)", /Unexpected '\(' at position 2/],
    ["1 + * 2", /Unexpected '\*' at position 5/],
    ["1.2.3", /Malformed number at position 4/],
    ["3 $ 4", /Unexpected character '\$' at position 3/],
    ["sqrt()", /sqrt\(\) takes 1 argument, got 0/],
    ["sqrt(1, 2)", /takes 1 argument, got 2/],
    ["min()", /at least 1/],
    ["sqrt", /sqrt is a function/],
    ["max(1, )", /Unexpected '\)'/],
  ])("reports malformed input %j clearly", (source, message) => {
    expect(errorOf(source).message).toMatch(message);
  });

  it("names unknown functions and constants and lists the known ones", () => {
    const fn = errorOf("2 * foo(3)");
    expect(fn.message).toMatch(/Unknown function 'foo' at position 5/);
    expect(fn.message).toContain("sqrt");
    expect(errorOf("x + 1").message).toMatch(/Unknown name 'x' at position 1.*constants: pi, e/);
  });

  it("explains results that are not real or not finite", () => {
    expect(errorOf("sqrt(-4)").message).toMatch(/negative/);
    expect(errorOf("log(0)").message).toMatch(/only defined for positive/);
    expect(errorOf("log(8, 1)").message).toMatch(/base/);
    expect(errorOf("asin(2)").message).toMatch(/not a real number/);
    expect(errorOf("10 ^ 400").message).toMatch(/too large/);
  });

  it("stops deep nesting with its own error instead of overflowing the stack", () => {
    expect(errorOf("(".repeat(3000) + "1" + ")".repeat(3000)).message).toMatch(/nested too deeply/);
    expect(errorOf("-".repeat(3000) + "1").message).toMatch(/nested too deeply/);
    expect(evaluateExpression("(".repeat(50) + "1" + ")".repeat(50))).toBe(1);
  });

  it("never runs code: JavaScript is just unknown names or bad characters", () => {
    expect(errorOf("alert(1)").message).toMatch(/Unknown function 'alert'/);
    expect(errorOf("constructor").message).toMatch(/Unknown name/);
    expect(errorOf("toString(1)").message).toMatch(/Unknown function/);
    expect(errorOf("__proto__").message).toMatch(/Unknown name/);
    expect(errorOf("hasOwnProperty(1)").message).toMatch(/Unknown function/);
    expect(errorOf("this.x").message).toMatch(/Unknown name 'this'|Unexpected character/);
  });
});

describe("evaluateExpression on arbitrary input (property)", () => {
  const outcome = (source: string) => {
    try {
      const value = evaluateExpression(source);
      return Number.isFinite(value) ? "finite" : "not-finite";
    } catch (error) {
      return error instanceof CalculatorError && error.message.length > 0 ? "calculator-error" : `other: ${String(error)}`;
    }
  };

  it("on random strings returns a finite number or throws only CalculatorError", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (source) => {
        expect(["finite", "calculator-error"]).toContain(outcome(source));
      }),
      { numRuns: 2000 },
    );
  });

  it("on random strings of the calculator's own alphabet does the same", () => {
    const pieces = fc.constantFrom(
      ..."0123456789.eE+-*/%^(),  ".split(""),
      "**", "sqrt", "log", "max", "min", "round", "pi", "e", "asin", "1e308", "0", "×", "÷",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        expect(["finite", "calculator-error"]).toContain(outcome(parts.join("")));
      }),
      { numRuns: 5000 },
    );
  });
});
