/** @module `calculate`: exact decimal arithmetic from a parsed expression, never evaluated as code. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { ExpressionError } from "./expression/expression-error.js";
import { evaluateExpression } from "./expression/index.js";
import { generalTool } from "./general-env.js";

export const calculateSpec = generalTool({
  name: "calculate",
  description:
    "Evaluates an arithmetic expression exactly: + - * / % ^, parentheses, decimals (0.1 + 0.2 = 0.3), constants pi and e, and functions such as sqrt, round, min, max, ln, log, sin. Use it instead of doing arithmetic in your head.",
  category: "general",
  effect: "read",
  input: z.object({
    expression: z
      .string()
      .min(1)
      .max(1_000)
      .describe('the expression, e.g. "2*(3+4)^2" or "round(100/3, 2)"'),
  }),
  run({ expression }) {
    try {
      const result = evaluateExpression(expression);
      return { content: result.value, data: { expression, value: result.value, number: result.number } };
    } catch (error) {
      if (error instanceof ExpressionError) throw new ToolFailure("invalid_input", error.message);
      throw error;
    }
  },
});
