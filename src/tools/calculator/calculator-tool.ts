import { z } from "zod";
import { defineTool } from "toolcall-middleware/tools/define-tool.ts";
import { CALCULATOR_CONSTANTS, CALCULATOR_FUNCTIONS } from "./calculator-functions.ts";

export const calculatorParameters = z.object({
  expression: z.string().describe("An arithmetic expression, for example `(2 + 3) * sqrt(16) / 4`"),
});

export function createCalculatorTool() {
  return defineTool({
    name: "calculator",
    description:
      "Evaluate an arithmetic expression exactly and return its value. Operators: + - * / ^ (power) % (remainder), parentheses, unary minus. " +
      `Functions: ${CALCULATOR_FUNCTIONS.join(", ")} (log(x) is the natural logarithm; log(x, base), log10 and log2 take other bases; trigonometry uses radians). ` +
      `Constants: ${CALCULATOR_CONSTANTS.join(", ")}.`,
    parameters: calculatorParameters,
    execute: async ({ expression }, { signal }) => {
      signal.throwIfAborted();
      // The expression reader loads when the tool first runs, not with the tool list.
      const { evaluateExpression } = await import("./expression.ts");
      signal.throwIfAborted();
      return evaluateExpression(expression);
    },
  });
}
